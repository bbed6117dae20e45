#!/usr/bin/env bash
# Tools/CoreDataCheck, compiled outside the package (it must not link CoreSeed).
#   scripts/core-data-check.sh [OUTPUT]   builds it (default .build/core-data-check); on macOS with
#                                         Core Data, elsewhere the Linux half (copies + coreseed checks);
#                                         OPTIMIZATION=-Onone compiles faster (the tests use it)
#   scripts/core-data-check.sh --typecheck
#                                         type-checks both halves warnings-as-errors: the Linux half
#                                         as it is, the Core Data half against
#                                         Tools/CoreDataCheck/TypeCheck/CoreData.swift, declarations
#                                         transcribed from Apple's documentation (make lint runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
swiftc=${SWIFTC:-swiftc}
sources=(Tools/CoreDataCheck/*.swift)
if [ "${1:-}" = "--typecheck" ]; then
  "$swiftc" -typecheck -swift-version 6 -warnings-as-errors "${sources[@]}"
  if [ "$(uname -s)" != Darwin ]; then
    stub=$(mktemp -d)
    trap 'rm -rf "$stub"' EXIT
    "$swiftc" -emit-module -parse-as-library -swift-version 6 -module-name CoreData \
      -emit-module-path "$stub/CoreData.swiftmodule" Tools/CoreDataCheck/TypeCheck/CoreData.swift
    "$swiftc" -typecheck -swift-version 6 -warnings-as-errors -I "$stub" "${sources[@]}"
  fi
  exit 0
fi
output=${1:-.build/core-data-check}
mkdir -p "$(dirname "$output")"
"$swiftc" "${OPTIMIZATION:--O}" -swift-version 6 -warnings-as-errors "${sources[@]}" -o "$output"
echo "built $output"
