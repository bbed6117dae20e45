#!/usr/bin/env bash
# `make memcheck` (issue 30): the memory checks, in parts; with no argument, all of them.
#   reproducer  Tests/Reproducers/DeadArrayCopy.swift at -O under AddressSanitizer: says whether this
#               toolchain still frees a dead Array(slice) before filling it (information, never a failure).
#   asan        the test suite built -c release (optimized: the optimizer's bugs show only there) with
#               AddressSanitizer, in .build-asan (swift build --build-tests --sanitize=address
#               -Xswiftc -enable-testing; then swift test --skip-build). UndefinedBehaviorSanitizer:
#               Swift 6.3 has none on Linux (swiftc: "unsupported option '-sanitize=undefined'").
#   valgrind    the release binary under valgrind --error-exitcode: `make seed`'s builds and checks,
#               then verify, inspect, export --spec, backup and build --into (the export's spec, upserted
#               into a copy) on each of make seed's stores and on copies of the corpus stores, all in a
#               temporary folder (nothing is written into the corpus or Outputs/ beyond make seed's own).
#               MEMCHECK_CORPUS="name …" limits the corpus stores (CI: a handful); "none" skips them.
#               MEMCHECK_BINARY=PATH checks that binary instead of building .build/release/coreseed.
# Figures (command, store, valgrind errors, exit status) go to .build/memcheck/valgrind.md.
# Usage: scripts/memcheck.sh [reproducer] [asan] [valgrind]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
parts=("${@:-reproducer asan valgrind}")
parts=(${parts[@]})
out=.build/memcheck
mkdir -p "$out"
export SWIFT_BACKTRACE=enable=no   # a crash ends the run (the backtracer hangs under the sanitizers)
status=0

reproducer() {
  echo "== reproducer: Tests/Reproducers/DeadArrayCopy.swift (swiftc -O -sanitize=address)"
  swiftc -O -sanitize=address Tests/Reproducers/DeadArrayCopy.swift -o "$out/dead-array-copy" 2>/dev/null
  if "$out/dead-array-copy" >"$out/dead-array-copy.txt" 2>&1; then
    echo "   $(swift --version 2>&1 | head -1): the bug is gone; ExternalBinary.Stored.inline may copy again"
  else
    echo "   $(swift --version 2>&1 | head -1): still frees the dead copy before writing it ($(grep -m1 -o 'heap-use-after-free' "$out/dead-array-copy.txt" || echo 'see .build/memcheck/dead-array-copy.txt'))"
  fi
}

asan() {
  echo "== asan: the suite, -c release, AddressSanitizer (.build-asan)"
  local flags=(-c release --sanitize=address --scratch-path .build-asan)
  swift build --build-tests "${flags[@]}" -Xswiftc -enable-testing
  # LeakSanitizer off: Foundation's caches and the test runner keep blocks to exit (not ours to fix).
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 swift test --skip-build "${flags[@]}" || status=1
}

# vg LABEL STORE COMMAND...: one valgrind run of the release binary, its figures added to the table.
vg() {
  local label="$1" store="$2"
  shift 2
  local log="$out/logs/$(printf '%s' "$store-$label" | tr -c 'A-Za-z0-9._-' '_').txt" rc=0
  valgrind --error-exitcode=99 --log-file="$log" "$bin" "$@" >/dev/null 2>"$log.stderr" || rc=$?
  local errors
  errors=$(awk '/ERROR SUMMARY:/ { n = $4 } END { print n == "" ? "?" : n }' "$log")
  local invalid
  invalid=$(grep -cE 'Invalid (read|write)|use of uninitialised|Conditional jump' "$log" || true)
  printf '| %s | %s | %s | %s | %s |\n' "$label" "$store" "$errors" "$invalid" "$rc" >> "$table"
  if [ "$errors" != 0 ]; then echo "   $label $store: $errors valgrind errors (see $log)"; status=1; fi
}

# store_commands NAME STORE MODEL DIR: verify, inspect, export --spec, backup and build --into
# (MODEL "-": inspect and backup only).
store_commands() {
  local name="$1" store="$2" model="$3" dir="$4"
  # A store without its model (one corpus store's was built in code) gets the commands that need none.
  [ "$model" != - ] && vg verify "$name" verify "$store" --model "$model"
  vg inspect "$name" inspect "$store"
  [ "$model" != - ] && vg export "$name" export "$store" --model "$model" --output "$dir/export" --spec
  vg backup "$name" backup "$store" "$dir/backup.sqlite"
  # The export's rows upserted back into a copy: each entity keyed by an attribute whose values are
  # unique in the store (entities without one, and relationships, left out: the rows stay as they are).
  if [ -f "$dir/export/seed.json" ] && python3 - "$dir/export/seed.json" "$store" <<'PY'
import json, sqlite3, sys
spec_path, store = sys.argv[1], sys.argv[2]
spec = json.load(open(spec_path))
db = sqlite3.connect("file:" + store + "?mode=ro", uri=True)
numbers = {name: (ent, parent) for ent, name, parent in db.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")}
by_number = {ent: name for name, (ent, _) in numbers.items()}
def root(name):
    while numbers.get(name, (0, 0))[1]:
        name = by_number[numbers[name][1]]
    return name
entities = {}
for name, entity in spec["entities"].items():
    if name not in numbers:
        continue
    table = "Z" + root(name).upper()
    for attribute, field in entity["attributes"].items():
        if not isinstance(field, str):
            continue
        column = "Z" + attribute.upper()
        try:
            rows, distinct = db.execute(f'SELECT count(*), count(DISTINCT "{column}") FROM "{table}" WHERE Z_ENT = ?', (numbers[name][0],)).fetchone()
        except sqlite3.Error:
            continue
        if rows == distinct:
            entity.pop("primaryKey", None)
            entity["key"], entity["relationships"] = field, {}
            entities[name] = entity
            break
if not entities:
    sys.exit(1)
spec["entities"] = entities
spec.pop("storeUUID", None)
json.dump(spec, open(spec_path.replace("seed.json", "upsert.json"), "w"), indent=1)
PY
  then
    vg "build --into" "$name" build "$dir/export/upsert.json" --into "$store" --output "$dir/updated.sqlite" --quiet
  fi
}

valgrind_part() {
  bin=${MEMCHECK_BINARY:-.build/release/coreseed}
  if [ -z "${MEMCHECK_BINARY:-}" ]; then
    echo "== valgrind: release binary (swift build -c release --product coreseed)"
    swift build -c release --product coreseed >/dev/null
  else
    echo "== valgrind: $bin"
  fi
  command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)"; exit 69; }
  rm -rf "$out/logs"
  mkdir -p "$out/logs"
  table="$out/valgrind.md"
  {
    echo "valgrind $(valgrind --version | sed 's/valgrind-//'), $(swift --version 2>&1 | head -1), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo
    echo "| command | store | valgrind errors | invalid reads/writes, uninitialised | exit status |"
    echo "|---|---|---:|---:|---:|"
  } > "$table"
  work=$(mktemp -d "${TMPDIR:-/tmp}/coreseed-memcheck.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  local started=$SECONDS
  # make seed, each command of scripts/seed.sh under valgrind (a wrapper the script runs as its binary).
  local wrapper="$work/coreseed" bin_path
  bin_path=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
  cat > "$wrapper" <<EOF
#!/usr/bin/env bash
n=\$(ls "$out/logs" | grep -c '^seed-' || true)
log="$out/logs/seed-\$n.txt"
rc=0; valgrind --error-exitcode=99 --log-file="\$log" "$bin_path" "\$@" || rc=\$?
errors=\$(awk '/ERROR SUMMARY:/ { n = \$4 } END { print n == "" ? "?" : n }' "\$log")
invalid=\$(grep -cE 'Invalid (read|write)|use of uninitialised|Conditional jump' "\$log" || true)
echo "| make seed: \$1 | \${2:-} | \$errors | \$invalid | \$rc |" >> "$table"
exit \$rc
EOF
  chmod +x "$wrapper"
  ./scripts/seed.sh "$wrapper" >/dev/null || status=1
  if grep '^| make seed' "$table" | awk -F'|' '$4 + 0 != 0 { bad = 1 } END { exit !bad }'; then status=1; fi
  local dir
  for store in Outputs/Carriers.sqlite Outputs/FailedBanksCD.sqlite Outputs/FailedBanksCD-csv.sqlite; do
    local name model
    name=$(basename "$store" .sqlite)
    case "$name" in Carriers) model=Inputs/Carriers.xcdatamodeld ;; *) model=Inputs/FailedBanksCD.xcdatamodeld ;; esac
    dir="$work/$name"
    mkdir -p "$dir"
    cp "$store" "$dir/store.sqlite"
    [ -d "Outputs/.${name}_SUPPORT" ] && cp -R "Outputs/.${name}_SUPPORT" "$dir/.store_SUPPORT"
    store_commands "$name" "$dir/store.sqlite" "$model" "$dir"
  done
  local corpus="${CORESEED_CORPUS:-../shared/corpus}"
  if [ "${MEMCHECK_CORPUS:-}" != none ] && [ -f "$corpus/index.json" ]; then
    python3 - "$corpus" "${MEMCHECK_CORPUS:-}" > "$work/corpus.txt" <<'PY'
import json, sys
corpus, wanted = sys.argv[1], sys.argv[2].split()
for entry in json.load(open(corpus + "/index.json")):
    if not wanted or entry["name"] in wanted:
        print(entry["name"], corpus + "/" + entry["store"], corpus + "/" + entry["model"] if entry.get("model") else "-")
PY
    while read -r name store model; do
      dir="$work/corpus/$name"
      mkdir -p "$dir"
      # A private copy, its -wal and -shm and its support folder with it: SQLite rewrites a WAL store.
      cp "$store" "$dir/store.sqlite"
      for side in -wal -shm; do [ -f "$store$side" ] && cp "$store$side" "$dir/store.sqlite$side"; done
      local support
      support="$(dirname "$store")/.$(basename "$store" .sqlite)_SUPPORT"
      [ -d "$support" ] && cp -R "$support" "$dir/.store_SUPPORT"
      chmod -R u+w "$dir"
      store_commands "$name" "$dir/store.sqlite" "$model" "$dir"
    done < "$work/corpus.txt"
  fi
  local runs errors
  runs=$(awk 'NR > 4 && /^\|/ { n++ } END { print n + 0 }' "$table")
  errors=$(awk -F'|' 'NR > 4 && /^\|/ { n += $4 } END { print n + 0 }' "$table")
  local clean
  clean=$(awk -F'|' 'NR > 4 && /^\|/ && $4 + 0 == 0 && $4 !~ /\?/ { n++ } END { print n + 0 }' "$table")
  { echo; echo "$runs runs, $errors valgrind errors in all, $((SECONDS - started)) s."; } >> "$table"
  echo "   $runs runs, $errors valgrind errors, $((SECONDS - started)) s (table: $table)"
  echo "memcheck: $clean passed, $((runs - clean)) failed"
}

for part in "${parts[@]}"; do
  case "$part" in
    reproducer) reproducer ;;
    asan) asan ;;
    valgrind) valgrind_part ;;
    *) echo "unknown part $part (reproducer, asan, valgrind)"; exit 64 ;;
  esac
done
exit $status
