#!/usr/bin/env bash
# The `seed` command plugin as an app project uses it (issue 15): writes a small package that depends
# on this one by path (.build/plugin-test/, `.package(path: "../..")`) with a model, a CSV and
# Inputs/seed.json, runs `swift package --allow-writing-to-package-directory seed` there once, and
# checks that the store exists, that `coreseed verify` passes and that it holds the CSV's rows. Then
# the same with the prebuilt coreseed of an artifact bundle (scripts/artifactbundle.sh) in
# .build/plugin-test-binary/, whose store must be byte for byte the first one. `make test` runs it.
# The consumer builds CoreSeed again in its own .build: about a minute on 2 cores the first time,
# seconds after. Usage: scripts/plugin-test.sh   (SWIFT=swift)
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
root=$PWD
consumer=.build/plugin-test
rm -rf "$consumer/Inputs" "$consumer/Outputs" "$consumer/Sources"
mkdir -p "$consumer/Sources/RecipeBook" "$consumer/Inputs/Recipes.xcdatamodeld/Recipes.xcdatamodel"

cat > "$consumer/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription

// An app's package that seeds its store with CoreSeed's `seed` plugin (written by scripts/plugin-test.sh).
let package = Package(
    name: "RecipeBook",
    dependencies: [.package(path: "../..")],
    targets: [.target(name: "RecipeBook")]
)
SWIFT
echo '/// The app code would open Outputs/Recipes.sqlite (docs/APP.md).' > "$consumer/Sources/RecipeBook/RecipeBook.swift"

cat > "$consumer/Inputs/Recipes.xcdatamodeld/Recipes.xcdatamodel/contents" <<'XML'
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    <entity name="Category" representedClassName="Category" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <relationship name="recipes" toMany="YES" deletionRule="Cascade" destinationEntity="Recipe" inverseName="category" inverseEntity="Recipe"/>
    </entity>
    <entity name="Recipe" representedClassName="Recipe" syncable="YES">
        <attribute name="added" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="minutes" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="title" attributeType="String"/>
        <relationship name="category" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Category" inverseName="recipes" inverseEntity="Category"/>
    </entity>
</model>
XML

cat > "$consumer/Inputs/recipes.csv" <<'CSV'
title,category,minutes,added
Pancakes,Breakfast,20,2024-01-05
Porridge,Breakfast,10,2024-01-06
Tomato soup,Soup,35,2024-02-11
Minestrone,Soup,60,2024-02-12
Lentil soup,Soup,45,2024-03-01
CSV

cat > "$consumer/Inputs/seed.json" <<'JSON'
// The default spec of `swift package seed`.
{
  "model": "Recipes.xcdatamodeld",
  "output": "../Outputs/Recipes.sqlite",
  "sources": { "recipes": { "csv": "recipes.csv" } },
  "entities": {
    "Category": { "from": "recipes", "key": "category", "onDuplicateKey": "first", "attributes": { "name": "category" } },
    "Recipe": {
      "from": "recipes", "key": "title",
      "attributes": { "title": "title", "minutes": "minutes", "added": { "field": "added", "date": "yyyy-MM-dd" } },
      "relationships": { "category": { "key": "category" } },
    },
  },
}
JSON

echo "== swift package --allow-writing-to-package-directory seed (in $consumer)"
start=$SECONDS
(cd "$consumer" && "$swift" package --allow-writing-to-package-directory seed)
echo "== the plugin ran in $((SECONDS - start)) s"

store="$consumer/Outputs/Recipes.sqlite"
[ -f "$store" ] || { echo "plugin-test: the plugin wrote no $store" >&2; exit 1; }
coreseed="$("$swift" build --show-bin-path)/coreseed"
[ -x "$coreseed" ] || "$swift" build --product coreseed
"$coreseed" verify "$store" --model "$consumer/Inputs/Recipes.xcdatamodeld"
inspection=$("$coreseed" inspect "$store")
for expected in "Category super 0 max 2 rows 2" "Recipe super 0 max 5 rows 5"; do
  grep -q " $expected\$" <<<"$inspection" || { echo "plugin-test: expected '$expected' in:" >&2; echo "$inspection" >&2; exit 1; }
done
echo "plugin-test: OK ($store from $root via the seed plugin)"

# The same plugin over a prebuilt coreseed, as an Xcode project without Homebrew uses it (issue 29):
# the CoreSeedPlugin package scripts/artifactbundle.sh writes (binaryTarget(path:) of the artifact
# bundle, the plugin's own sources), around the binary built above, in a second consumer.
bundles=.build/plugin-test-artifactbundle
binary_consumer=.build/plugin-test-binary
./scripts/artifactbundle.sh "$coreseed" "$bundles" >/dev/null
rm -rf "$binary_consumer/Inputs" "$binary_consumer/Outputs" "$binary_consumer/Sources"
mkdir -p "$binary_consumer/Sources/RecipeBook"
cp -R "$consumer/Inputs" "$binary_consumer/Inputs"
cp "$consumer/Sources/RecipeBook/RecipeBook.swift" "$binary_consumer/Sources/RecipeBook/"
cat > "$binary_consumer/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription

// An app's package that seeds its store with the prebuilt coreseed (written by scripts/plugin-test.sh).
let package = Package(
    name: "RecipeBook",
    dependencies: [.package(path: "../plugin-test-artifactbundle/CoreSeedPlugin")],
    targets: [.target(name: "RecipeBook")]
)
SWIFT
echo "== swift package --allow-writing-to-package-directory seed (in $binary_consumer, coreseed from $bundles/coreseed.artifactbundle)"
(cd "$binary_consumer" && "$swift" package --allow-writing-to-package-directory seed)
binary_store="$binary_consumer/Outputs/Recipes.sqlite"
[ -f "$binary_store" ] || { echo "plugin-test: the artifact-bundle plugin wrote no $binary_store" >&2; exit 1; }
"$coreseed" verify "$binary_store" --model "$binary_consumer/Inputs/Recipes.xcdatamodeld"
cmp "$store" "$binary_store" || { echo "plugin-test: the artifact-bundle plugin's store differs from the source-built plugin's" >&2; exit 1; }
echo "plugin-test: OK ($binary_store via the seed plugin over the artifact bundle, byte for byte the same store)"
