#!/usr/bin/env bash
# Type-checks Plugins/SeedPlugin as SwiftPM compiles it (against the toolchain's PackagePlugin) and,
# on Linux, once more with XcodeProjectPlugin importable (Plugins/TypeCheck/XcodeProjectPlugin.swift,
# Xcode's declarations), so that the `#if canImport(XcodeProjectPlugin)` half is checked here too.
# make lint runs it; scripts/plugin-test.sh builds and runs the plugin for real.
set -euo pipefail
cd "$(dirname "$0")/.."
swiftc=${SWIFTC:-swiftc}
api="$(dirname "$(dirname "$(command -v "$swiftc")")")/lib/swift/pm/PluginAPI"
[ -d "$api" ] || { echo "plugin-typecheck: no PackagePlugin module at $api" >&2; exit 1; }
flags=(-typecheck -parse-as-library -swift-version 6 -warnings-as-errors -package-description-version 6.0 -I "$api")
"$swiftc" "${flags[@]}" Plugins/SeedPlugin/*.swift
if [ "$(uname -s)" != Darwin ]; then
  stub=$(mktemp -d)
  trap 'rm -rf "$stub"' EXIT
  "$swiftc" -emit-module -parse-as-library -swift-version 6 -package-description-version 6.0 -I "$api" -module-name XcodeProjectPlugin \
    -emit-module-path "$stub/XcodeProjectPlugin.swiftmodule" Plugins/TypeCheck/XcodeProjectPlugin.swift
  "$swiftc" "${flags[@]}" -I "$stub" Plugins/SeedPlugin/*.swift
fi
