#!/usr/bin/env bash
# Builds one libFuzzer binary per reader, the spec syntax check, the model reader and the store's
# binary plists (Z_PLIST, keyed archives, compiled models) (swiftc
# -sanitize=fuzzer, outside the package build) and runs each for FUZZ_SECONDS (default 60) over its
# seed corpus in Fuzz/corpus/<name>/, or for FUZZ_RUNS executions when that is set (the issue's 1M:
# FUZZ_RUNS=1000000). Findings land in fuzz-artifacts/ (ignored by git).
# Usage: scripts/fuzz.sh [csv|xml|sqlite|json|spec|model|plist ...]
#        FUZZ_TYPECHECK=1 scripts/fuzz.sh   (only type-checks the targets: the lint runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
limit=(-max_total_time="$seconds")
[ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
out=.build/fuzz
if [ -z "${FUZZ_TYPECHECK:-}" ]; then
  mkdir -p "$out/tmp" fuzz-artifacts
  export TMPDIR="$PWD/$out/tmp"  # the targets' scratch input files stay inside .build
fi
common=(Sources/CoreSeed/Readers/*.swift Sources/CoreSeed/Readers/CSV/*.swift Sources/CoreSeed/Readers/XML/*.swift Sources/CoreSeed/Readers/JSON/*.swift
        Sources/CoreSeed/Readers/SQLite/*.swift Sources/CoreSeed/SQLite/*.swift Sources/CoreSeed/Diagnostics/Diagnosable.swift Sources/CoreSeed/Concurrency/BatchHandoff.swift
        Sources/CoreSeed/Values/NumberScanner.swift Sources/CoreSeed/FileSystem/*.swift Sources/CoreSeed/Store/StoreLocations.swift
        Sources/CoreSeed/Readers/Computed/*.swift Sources/CoreSeed/Values/NaturalKey.swift Sources/CoreSeed/Values/ASCII.swift
        Sources/CoreSeed/Values/CoercionFailure.swift Sources/CoreSeed/Model/AttributeType.swift Sources/CoreSeed/Crypto/*.swift Sources/CoreSeed/Diagnostics/Suggestion.swift
        Fuzz/FuzzFile.swift)
includes=(-I Sources/CSQLite -I Sources/CSystem -I Sources/CLibXML2 -I Sources/CCrypto $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g'))
flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -g -O "${includes[@]}")
# The spec and model targets need other stages than the readers.
spec_sources=(Sources/CoreSeed/Spec/SpecSyntax.swift Sources/CoreSeed/Readers/UTF8Validation.swift)
# Model/ reads every model input, the compiled ones too: it needs the archive and plist rooms, and
# the libxml2 element parser of Readers/XML (with the include flags above).
xml_wrapper=(Sources/CoreSeed/Readers/XML/XMLSAXClient.swift Sources/CoreSeed/Readers/XML/XMLElementParser.swift
             Sources/CoreSeed/Readers/XML/XMLStartTag.swift Sources/CoreSeed/Readers/XML/XMLByteBuffer.swift)
model_sources=("${xml_wrapper[@]}" Sources/CoreSeed/Model/*.swift Sources/CoreSeed/Layout/*.swift Sources/CoreSeed/Layout/SQL/*.swift Sources/CoreSeed/Crypto/*.swift
               Sources/CoreSeed/KeyedArchive/*.swift Sources/CoreSeed/PropertyList/*.swift Sources/CoreSeed/Store/StoreMetadata.swift
               Sources/CoreSeed/Diagnostics/FileError.swift Sources/CoreSeed/Diagnostics/Diagnosable.swift Sources/CoreSeed/Diagnostics/RunOption.swift
               Sources/CoreSeed/Diagnostics/JSONWriter.swift Sources/CoreSeed/SQLite/*.swift
               Sources/CoreSeed/FileSystem/*.swift
               -I Sources/CCrypto -I Sources/CZlib -I Sources/CSQLite -I Sources/CSystem)
plist_sources=("${model_sources[@]}")
targets=("${@:-csv xml sqlite json spec model plist}")
for name in ${targets[@]}; do
  extra=() env=(SWIFT_BACKTRACE=enable=no)  # a crash ends the run (the backtracer hangs under ASan)
  case "$name" in
    csv) dir=CSV; sources=("${common[@]}") ;;
    xml) dir=XML; sources=("${common[@]}") ;;
    sqlite) dir=SQLite; sources=("${common[@]}") ;;
    json) dir=JSON; sources=("${common[@]}") ;;
    spec) dir=Spec; sources=("${spec_sources[@]}") ;;
    model) dir=Model; sources=("${model_sources[@]}") ;;
    plist) dir=Plist; sources=("${plist_sources[@]}") ;;
    *) echo "unknown target $name"; exit 64 ;;
  esac
  if [ -n "${FUZZ_TYPECHECK:-}" ]; then
    swiftc -typecheck -parse-as-library -swift-version 6 -module-name "CoreSeedFuzz$dir" "${includes[@]}" "${sources[@]}" \
      "Fuzz/$dir/${dir}FuzzTarget.swift" || { echo "fuzz target $name does not compile"; exit 1; }
    continue
  fi
  echo "== building $name"
  swiftc "${flags[@]}" -module-name "CoreSeedFuzz$dir" "${sources[@]}" "Fuzz/$dir/${dir}FuzzTarget.swift" -o "$out/fuzz-$name" \
    -lsqlite3 -lxml2 -lcrypto -lz 2> >(grep -v 'Cannot export local symbol' >&2)
  work="$out/corpus-$name"
  mkdir -p "$work"
  echo "== fuzzing $name (${limit[0]#-})"
  env ${env[@]+"${env[@]}"} "$out/fuzz-$name" "${limit[@]}" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 ${extra[@]+"${extra[@]}"} \
    -artifact_prefix="fuzz-artifacts/$name-" "$work" "Fuzz/corpus/$name" 2>&1 | grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|Done)' || true
done
