#!/usr/bin/env bash
# Memory check for the key maps (issue 16): 1M parents keyed by distinct 100-byte text keys, and 1M
# children keyed by other distinct 100-byte keys, each naming its parent by its key (a to-one linked
# by key across two sources: 2M distinct keys held, 1M looked up). Builds the
# store with the release binary under /usr/bin/time -v and prints the peak RSS. Files are removed after.
# Usage: scripts/key-memory.sh [BINARY]   (default .build/release/coreseed; RECORDS=1000000;
#        KEYS=int for integer keys instead, to see what the rest of the build takes)
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$(cd "$(dirname "${1:-.build/release/coreseed}")" && pwd)/$(basename "${1:-.build/release/coreseed}")"
[ -x "$binary" ] || { swift build -c release -j 1 --product coreseed; binary="$PWD/.build/release/coreseed"; }
records="${RECORDS:-1000000}"
work="$(mktemp -d /tmp/coreseed-keys-XXXXXX)"
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$records" "${KEYS:-text}" <<'PY'
import sys, hashlib
work, n, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def key(i, prefix="K"):  # 100 bytes, distinct, not integers
    h = hashlib.sha256(str(i).encode()).hexdigest()
    return str(i) if kind == "int" else (prefix + h + h)[:100]
with open(f"{work}/parents.csv", "w") as f:
    f.write("code,name\n")
    for i in range(n): f.write(f"{key(i)},parent {i}\n")
with open(f"{work}/children.csv", "w") as f:
    f.write("id,parent\n")
    for i in range(n): f.write(f"{key(i, 'C')},{key((i * 7919) % n)}\n")
PY
mkdir -p "$work/Keys.xcdatamodeld/Keys.xcdatamodel"
cat > "$work/Keys.xcdatamodeld/Keys.xcdatamodel/contents" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<model userDefinedModelVersionIdentifier="">
<entity name="Parent"><attribute name="code" attributeType="String"/><attribute name="name" optional="YES" attributeType="String"/>
  <relationship name="children" optional="YES" toMany="YES" destinationEntity="Child" inverseName="parent" inverseEntity="Child"/></entity>
<entity name="Child"><attribute name="id" attributeType="String"/>
  <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Parent" inverseName="children" inverseEntity="Parent"/></entity>
</model>
XML
cat > "$work/spec.json" <<'JSON'
{ "model": "Keys.xcdatamodeld", "output": "Keys.sqlite",
  "sources": { "p": { "csv": "parents.csv" }, "c": { "csv": "children.csv" } },
  "entities": { "Parent": { "from": "p", "key": "code" },
                "Child": { "from": "c", "key": "id", "relationships": { "parent": { "key": "parent" } } } } }
JSON
echo "records: $records parents and $records children, each keyed by a distinct ${KEYS:-text} key, children linked to parents by key"
/usr/bin/time -v "$binary" build "$work/spec.json" > "$work/out.txt" 2> "$work/time.txt" || { cat "$work/out.txt" "$work/time.txt"; exit 1; }
cat "$work/out.txt"
grep -E 'Elapsed' "$work/time.txt"
awk '/Maximum resident/ {printf "peak RSS: %.1f MB\n", $6 / 1024}' "$work/time.txt"
