#!/usr/bin/env bash
# Memory check for the JSON reader (issue 14): generates a ~1 GB JSON document in /tmp (an API dump,
# {"banks": [ {...}, ... ]}, Benchmarks/generate.py) and runs the release binary's `preview` over it to
# /dev/null under /usr/bin/time -v, printing the peak RSS. The generated files are removed afterwards.
# Usage: scripts/json-memory.sh [BINARY]   (default .build/release/coreseed; ROWS=6800000, about 1 GB)
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/release/coreseed}"
[ -x "$binary" ] || swift build -c release -j 1 --product coreseed
rows="${ROWS:-6800000}"
work="$(mktemp -d /tmp/coreseed-json-memory-XXXXXX)"
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/generate.py --rows "$rows" --dir "$work" --kinds json --stem big
printf '{"model": "none", "sources": {"big": {"json": "big.json", "records": "/banks/*"}}}' > "$work/spec.json"
ls -l "$work/big.json" | awk '{printf "input: %.0f MB\n", $5 / 1048576}'
/usr/bin/time -v "$binary" preview "$work/spec.json" big > /dev/null 2> "$work/time.txt" || { cat "$work/time.txt"; exit 1; }
grep -E 'Elapsed' "$work/time.txt"
awk '/Maximum resident/ {printf "peak RSS: %.1f MB\n", $6 / 1024}' "$work/time.txt"
