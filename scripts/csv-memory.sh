#!/usr/bin/env bash
# Memory check for the CSV reader: generates a ~1 GB CSV in /tmp (quoted commas, embedded line
# breaks, doubled quotes), runs the release binary's `preview` over it to /dev/null under
# /usr/bin/time -v, and prints the peak RSS. The generated files are removed afterwards.
# Usage: scripts/csv-memory.sh [BINARY]   (default .build/release/coreseed; SIZE_MB=1024)
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/release/coreseed}"
[ -x "$binary" ] || swift build -c release -j 1 --product coreseed
size_mb="${SIZE_MB:-1024}"
work="$(mktemp -d /tmp/coreseed-memory-XXXXXX)"
trap 'rm -rf "$work"' EXIT
python3 - "$work/big.csv" "$size_mb" <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2]) << 20
rows = []
for i in range(1000):
    rows.append(f'{i},"Bank {i}, Inc.","line one\nline ""two""",Phoenix,AZ,{57000 + i},26-Mar-10\r\n')
block = ''.join(rows).encode()
with open(path, 'wb') as f:
    f.write(b'id,name,note,city,state,zip,date\r\n')
    written = 0
    while written < size:
        f.write(block)
        written += len(block)
PY
printf '{"model": "none", "sources": {"big": {"csv": "big.csv"}}}' > "$work/spec.json"
ls -l "$work/big.csv" | awk '{printf "input: %.0f MB\n", $5 / 1048576}'
/usr/bin/time -v "$binary" preview "$work/spec.json" big > /dev/null 2> "$work/time.txt" || { cat "$work/time.txt"; exit 1; }
grep -E 'Elapsed|Maximum resident' "$work/time.txt"
awk '/Maximum resident/ {printf "peak RSS: %.1f MB\n", $6 / 1024}' "$work/time.txt"
