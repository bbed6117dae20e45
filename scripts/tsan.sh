#!/usr/bin/env bash
# `make tsan`: ThreadSanitizer over coreseed's multi-threaded paths (issue 24). Builds the release
# binary with --sanitize=thread in its own build folder (TSAN_SCRATCH, default /tmp/tsan-build, so
# the usual .build is left alone), generates ROWS FailedBanks rows (Benchmarks/generate.py, default
# 200000) and runs under it: CSV, JSON and XML builds (reader thread + converting thread + SQLite),
# a CSV build with --max-errors (the value-check thread of the key pass), an upsert (--into), a CSV
# build with a computed field and a filter, the world atlas (computed keys, joins, generated UUIDs),
# the carrier store with external files (make seed's spec), verify, export and backup.
# A data race or other TSan report in any run fails the script, naming the run; so does a run that
# fails. When the kernel's address-space randomization is too wide for TSan ("unexpected memory
# mapping"), each run is retried under `setarch -R` (randomization off for that process only).
# Usage: scripts/tsan.sh   (ROWS=N, TSAN_SCRATCH=DIR, TSAN_OPTIONS passed on; SWIFT="flock LOCK swift"
# to build under a machine-wide build lock)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=${TSAN_SCRATCH:-/tmp/tsan-build}
ROWS=${ROWS:-200000}
FLAGS=(-c release --sanitize=thread --scratch-path "$SCRATCH" --product coreseed)
SWIFT=${SWIFT:-swift}
$SWIFT build "${FLAGS[@]}" || { echo "tsan: the ThreadSanitizer build failed"; exit 1; }
BIN="$($SWIFT build "${FLAGS[@]}" --show-bin-path)/coreseed"
work=$(mktemp -d /tmp/coreseed-tsan-XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/generate.py --rows "$ROWS" --dir "$work" --kinds csv,json,xml >/dev/null
for kind in csv json xml csv-computed; do
  sed -e "s#../../Inputs/#$ROOT/Inputs/#" -e "s#../../.build/bench/out/#$work/#" -e "s#../../.build/bench/#$work/#" \
    "Benchmarks/specs/bench-$kind.json" >"$work/$kind.json"
done
export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
MODEL="$ROOT/Inputs/FailedBanksCD.xcdatamodeld"
runs=0 races=0 failed=0
run() {
  local name=$1; shift
  runs=$((runs + 1))
  local start=$SECONDS
  "$BIN" "$@" >"$work/out.txt" 2>"$work/err.txt"
  local status=$?
  if grep -q "unexpected memory mapping" "$work/err.txt"; then
    setarch "$(uname -m)" -R "$BIN" "$@" >"$work/out.txt" 2>"$work/err.txt"
    status=$?
  fi
  if grep -q "WARNING: ThreadSanitizer\|ERROR: ThreadSanitizer\|FATAL: ThreadSanitizer" "$work/err.txt"; then
    races=$((races + 1))
    echo "tsan: $name: ThreadSanitizer report:"; sed -n '1,60p' "$work/err.txt"
  elif [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    echo "tsan: $name: exit $status: $(head -3 "$work/err.txt")"
  else
    echo "tsan: $name: clean ($((SECONDS - start)) s)"
  fi
}
run "CSV build" build "$work/csv.json" --output "$work/csv.sqlite" --quiet
run "JSON build" build "$work/json.json" --output "$work/json.sqlite" --quiet
run "XML build" build "$work/xml.json" --output "$work/xml.sqlite" --quiet
run "CSV build with --max-errors" build "$work/csv.json" --output "$work/max.sqlite" --max-errors 100 --quiet
run "CSV build --into" build "$work/csv.json" --into "$work/csv.sqlite" --quiet
run "CSV build with a computed field and a filter" build "$work/csv-computed.json" --output "$work/computed.sqlite" --quiet
run "world atlas (computed keys, joins, UUIDs)" build Inputs/world.json --output "$work/world/World.sqlite" --quiet
run "carrier store with external files" build Inputs/seed.json --output "$work/carriers/Carriers.sqlite" --quiet
run "verify" verify "$work/csv.sqlite" --model "$MODEL"
run "verify (external files)" verify "$work/carriers/Carriers.sqlite" --model Inputs/Carriers.xcdatamodeld
run "export" export "$work/csv.sqlite" --model "$MODEL" --spec --output "$work/export"
run "export (external files)" export "$work/carriers/Carriers.sqlite" --model Inputs/Carriers.xcdatamodeld --output "$work/export2"
run "backup (external files)" backup "$work/carriers/Carriers.sqlite" "$work/copy/Copy.sqlite"
echo "tsan: $runs runs, $races with a ThreadSanitizer report, $failed failed"
[ "$races" -eq 0 ] && [ "$failed" -eq 0 ]
