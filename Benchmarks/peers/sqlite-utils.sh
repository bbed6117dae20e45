#!/usr/bin/env bash
# sqlite-utils peer of `make bench`: `sqlite-utils insert --csv` into a staging database, then each
# statement of transform.sql through `sqlite-utils query --attach s STAGING` (one statement per
# call, as the tool runs them), then the constant Z_METADATA row. sqlite-utils comes from PyPI
# into the virtual environment VENV (default .build/bench/venv), installed on first use.
# Usage: sqlite-utils.sh banks.csv OUT.sqlite METADATA.sql
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
csv="$1" out="$2" metadata="$3"
venv="${VENV:-$here/../../.build/bench/venv}"
if [ ! -x "$venv/bin/sqlite-utils" ]; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q sqlite-utils >&2
fi
utils="$venv/bin/sqlite-utils"
staging="$out.staging"
rm -f "$out" "$staging"
"$utils" insert "$staging" staging "$csv" --csv >/dev/null
# Paragraphs of transform.sql, comment lines dropped, one statement each.
python3 - "$here/transform.sql" "$metadata" <<'PY' | while IFS= read -r -d '' statement; do "$utils" query "$out" "$statement" --attach s "$staging" >/dev/null; done
import sys
text = open(sys.argv[1]).read() + "\n\n" + open(sys.argv[2]).read()
for part in text.split(";\n"):
    lines = [line for line in part.splitlines() if not line.startswith("--")]
    statement = "\n".join(lines).strip()
    if statement:
        sys.stdout.write(statement + "\0")
PY
rm -f "$staging"
