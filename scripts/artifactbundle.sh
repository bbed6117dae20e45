#!/usr/bin/env bash
# `make artifactbundle`: a prebuilt coreseed as a SwiftPM artifact bundle, so that an app's project
# runs the seed plugin or a Run Script phase with neither Homebrew nor a build of CoreSeed from
# source. Writes into OUTPUT (default .build/artifactbundle; replaced):
#   coreseed.artifactbundle/info.json                 "schemaVersion": "1.0", one executable artifact
#   coreseed.artifactbundle/coreseed-V-PLATFORM/bin/coreseed
#   coreseed.artifactbundle.zip and .zip.sha256       what a binaryTarget(url:checksum:) downloads
#   CoreSeedPlugin/                                   a package vending the seed plugin over the bundle
#   CoreSeedPlugin.zip                                (binaryTarget(path:), the plugin's own sources)
# The format is SE-0305's (swift-evolution 0305-swiftpm-binary-target-improvements, "Artifact bundle
# manifest"): variants with a path and supportedTriples. On macOS, a universal binary lists both
# architectures (lipo -archs); on Linux, the machine's (uname -m)-unknown-linux-gnu.
# Usage: scripts/artifactbundle.sh BINARY [OUTPUT]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/artifactbundle.sh BINARY [OUTPUT]}
out=${2:-.build/artifactbundle}
[ -x "$bin" ] || { echo "artifactbundle: $bin is not an executable coreseed (make build first)" >&2; exit 66; }
version=$("$bin" --version | awk '{ print $2 }')
[ -n "$version" ] || { echo "artifactbundle: '$bin --version' printed no version" >&2; exit 1; }
case "$(uname -s)" in
  Darwin) platform=macos; triples=$(lipo -archs "$bin" | tr ' ' '\n' | sed '/^$/d; s/$/-apple-macosx/') ;;
  Linux) platform=linux; triples="$(uname -m)-unknown-linux-gnu" ;;
  *) echo "artifactbundle: no artifact bundle for $(uname -s)" >&2; exit 1 ;;
esac
variant="coreseed-$version-$platform"
json_triples=$(printf '%s\n' $triples | sed 's/.*/"&"/' | paste -sd, - | sed 's/,/, /g')

rm -rf "$out"
bundle="$out/coreseed.artifactbundle"
mkdir -p "$bundle/$variant/bin"
cp "$bin" "$bundle/$variant/bin/coreseed"
chmod 755 "$bundle/$variant/bin/coreseed"
cat > "$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "coreseed": {
      "type": "executable",
      "version": "$version",
      "variants": [
        {
          "path": "$variant/bin/coreseed",
          "supportedTriples": [$json_triples]
        }
      ]
    }
  }
}
JSON

# The package an app adds (Xcode: File > Add Package Dependencies… > Add Local…, or by URL once it
# is published): the seed plugin, its tool the bundle's coreseed instead of one built from source.
package="$out/CoreSeedPlugin"
mkdir -p "$package/Plugins"
cp -R Plugins/SeedPlugin "$package/Plugins/SeedPlugin"
cp -R "$bundle" "$package/coreseed.artifactbundle"
cat > "$package/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription

// CoreSeed's `seed` command plugin over a prebuilt coreseed (coreseed.artifactbundle): written by
// CoreSeed's `make artifactbundle` (scripts/artifactbundle.sh); see CoreSeed's docs/INTEGRATION.md.
let package = Package(
    name: "CoreSeedPlugin",
    products: [.plugin(name: "seed", targets: ["seed"])],
    targets: [
        .binaryTarget(name: "coreseed", path: "coreseed.artifactbundle"),
        .plugin(
            name: "seed",
            capability: .command(
                intent: .custom(verb: "seed", description: "Build the Core Data seed store of a spec (default Inputs/seed.json) with coreseed"),
                permissions: [.writeToPackageDirectory(reason: "coreseed writes the seed store where the spec says, normally inside the project")]),
            dependencies: ["coreseed"],
            path: "Plugins/SeedPlugin"),
    ]
)
SWIFT

if command -v zip >/dev/null; then
  (cd "$out" && zip -qry coreseed.artifactbundle.zip coreseed.artifactbundle && zip -qry CoreSeedPlugin.zip CoreSeedPlugin)
  # SwiftPM's checksum of a binary target is the SHA-256 of the zip (swift package compute-checksum).
  if command -v sha256sum >/dev/null; then sum=$(sha256sum "$out/coreseed.artifactbundle.zip"); else sum=$(shasum -a 256 "$out/coreseed.artifactbundle.zip"); fi
  echo "${sum%% *}" > "$out/coreseed.artifactbundle.zip.sha256"
fi
echo "artifactbundle: $bundle (coreseed $version, $(echo $triples)) and $package"
