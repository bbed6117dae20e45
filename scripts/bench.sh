#!/usr/bin/env bash
# `make bench`: CoreSeed against the usual ways of seeding the FailedBanks store (issue 5).
# Generates BENCH_ROWS (default 1000000) legacy bank rows in .build/bench/ if missing
# (Benchmarks/generate.py), then runs, one after the other, `coreseed build` from the CSV, the
# SQLite table, the XML and the JSON (taking turns, round by round), and the peers in Benchmarks/peers/ (the
# SQLite floor — SQLite copying the finished rows itself —, C baseline from CSV and SQLite, sqlite3 CLI,
# tutorial-style Python, sqlite-utils), BENCH_RUNS
# (default 3) times each. A peer whose first run takes over BENCH_SLOW seconds (default 30) runs
# once (the 10-minute budget). Every tool's output is checked against CoreSeed's CSV store
# (Benchmarks/check_same.py). Prints the table of median wall
# seconds, bank rows/s, peak RSS (/usr/bin/time -v) and the ratio to CoreSeed-CSV, and writes it
# to .build/bench/results.md. BENCH_SCALING=1 adds CoreSeed-CSV at 100k, 1M and 10M rows (median
# of BENCH_RUNS runs each).
# Usage: scripts/bench.sh [BINARY]   (default .build/release/coreseed)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/release/coreseed}"
rows="${BENCH_ROWS:-1000000}"
runs="${BENCH_RUNS:-3}"
slow="${BENCH_SLOW:-30}"
dir=.build/bench
out="$dir/out"
mkdir -p "$out"
[ -x "$bin" ] || swift build -c release -j 1 --product coreseed
if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time for peak RSS" >&2
  sudo -n apt-get install -y time >/dev/null 2>&1 || apt-get install -y time >/dev/null
fi

if [ "$(cat "$dir/banks.rows" 2>/dev/null)" != "$rows 2011 csv,sqlite,xml,json" ]; then
  echo "generating $rows rows in $dir" >&2
  python3 Benchmarks/generate.py --rows "$rows" --dir "$dir" --kinds csv,sqlite,xml,json
fi
cc -O2 -o "$dir/baseline" Benchmarks/peers/baseline.c -lsqlite3

results=()   # "tool|input|runs|median seconds|peak KB|check"
reference="$out/coreseed-csv.sqlite"
declare -A times_of peak_of count_of   # per "tool|input": seconds of each run, peak KB, runs

# run_once KEY OUTPUT COMMAND...: one timed run of COMMAND (writing OUTPUT), added to KEY's runs.
run_once() {
  local key="$1" output="$2"
  shift 2
  rm -f "$output"
  local start="$EPOCHREALTIME"
  /usr/bin/time -v -o "$dir/time.txt" "$@" || { cat "$dir/time.txt" >&2; echo "$key failed" >&2; exit 1; }
  local end="$EPOCHREALTIME"
  last_seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  local kb
  kb=$(awk '/Maximum resident set size/ { print $6 }' "$dir/time.txt")
  times_of[$key]="${times_of[$key]:-}$last_seconds "
  [ "$kb" -gt "${peak_of[$key]:-0}" ] && peak_of[$key]="$kb"
  count_of[$key]=$(( ${count_of[$key]:-0} + 1 ))
  echo "  $key run ${count_of[$key]}: ${last_seconds}s, peak RSS $((kb / 1024)) MB" >&2
}

# median_of KEY: the median of KEY's run times.
median_of() {
  printf '%s\n' ${times_of[$1]} | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# record KEY CHECK: KEY's median run joins the results.
record() {
  results+=("$1|${count_of[$1]}|$(median_of "$1")|${peak_of[$1]}|$2")
}

# check OUTPUT: "same" when OUTPUT holds the reference store's rows.
check() {
  if python3 Benchmarks/check_same.py "$reference" "$1" >&2; then echo same; else echo DIFFERS; fi
}

# measure TOOL INPUT OUTPUT COMMAND...: runs COMMAND up to $runs times, checks its first OUTPUT.
measure() {
  local key="$1|$2" output="$3" verdict
  shift 3
  run_once "$key" "$output" "$@"
  verdict=$(check "$output")
  if awk -v s="$last_seconds" -v l="$slow" 'BEGIN { exit !(s > l) }'; then
    [ "$runs" -gt 1 ] && echo "  $key is slow: one run only" >&2
  else
    for ((round = 2; round <= runs; round++)); do run_once "$key" "$output" "$@"; done
  fi
  record "$key" "$verdict"
}

echo "== $rows rows, $runs runs each" >&2
# CoreSeed's inputs take turns (CSV, SQLite, XML, JSON, CSV, …), so that the machine's drift weighs
# on their ratios as little as it can. "CoreSeed key pass" is the CSV build in the two-pass plan
# (--max-errors 1 makes the build check every value and number rows by a key pass first, as any
# cross-record relationship or upsert does).
for ((round = 1; round <= runs; round++)); do
  run_once "CoreSeed|CSV" "$reference" "$bin" build Benchmarks/specs/bench-csv.json --quiet
  run_once "CoreSeed|SQLite" "$out/coreseed-sqlite.sqlite" "$bin" build Benchmarks/specs/bench-sqlite.json --quiet
  run_once "CoreSeed|XML" "$out/coreseed-xml.sqlite" "$bin" build Benchmarks/specs/bench-xml.json --quiet
  run_once "CoreSeed|JSON" "$out/coreseed-json.sqlite" "$bin" build Benchmarks/specs/bench-json.json --quiet
  run_once "CoreSeed key pass|CSV" "$out/coreseed-keypass.sqlite" "$bin" build Benchmarks/specs/bench-csv.json --quiet \
    --max-errors 1 --output "$out/coreseed-keypass.sqlite"
  # One computed field (the city in upper case, in SQL) and one filter every row passes (issue 28).
  run_once "CoreSeed computed field + filter|CSV" "$out/coreseed-computed.sqlite" "$bin" build Benchmarks/specs/bench-csv-computed.json --quiet
  # The same with arguments that never repeat (the record's CERT # among them): no kept results.
  run_once "CoreSeed computed, unique arguments|CSV" "$out/coreseed-computed-unique.sqlite" "$bin" build Benchmarks/specs/bench-csv-computed-unique.json --quiet
done
record "CoreSeed|CSV" reference
record "CoreSeed key pass|CSV" "$(check "$out/coreseed-keypass.sqlite")"
record "CoreSeed|SQLite" "$(check "$out/coreseed-sqlite.sqlite")"
record "CoreSeed|XML" "$(check "$out/coreseed-xml.sqlite")"
record "CoreSeed|JSON" "$(check "$out/coreseed-json.sqlite")"
record "CoreSeed computed field + filter|CSV" "$(sqlite3 "$out/coreseed-computed.sqlite" "SELECT CASE WHEN count(*) = $rows AND sum(ZCITY = upper(ZCITY)) = $rows THEN 'same rows, city upper' ELSE 'DIFFERS' END FROM ZFAILEDBANKINFO")"
record "CoreSeed computed, unique arguments|CSV" "$(sqlite3 "$out/coreseed-computed-unique.sqlite" "SELECT CASE WHEN count(*) = $rows AND sum(ZCITY = upper(ZCITY)) = $rows THEN 'same rows, city upper' ELSE 'DIFFERS' END FROM ZFAILEDBANKINFO")"
sqlite3 "$reference" "SELECT 'INSERT INTO Z_METADATA VALUES (' || Z_VERSION || ', ' || quote(Z_UUID) || ', ' || quote(Z_PLIST) || ');' FROM Z_METADATA" > "$dir/metadata.sql"
# The SQLite floor: SQLite copying CoreSeed's finished rows into an empty store with the same schema.
cp "$reference" "$dir/finished.sqlite"
measure "SQLite floor" "finished rows" "$out/floor.sqlite" Benchmarks/peers/sqlite-floor.sh "$dir/finished.sqlite" "$out/floor.sqlite"
measure "C baseline" CSV "$out/baseline-csv.sqlite" "$dir/baseline" csv "$dir/banks.csv" "$out/baseline-csv.sqlite" "$dir/metadata.sql"
measure "C baseline" SQLite "$out/baseline-sqlite.sqlite" "$dir/baseline" sqlite "$dir/banks.sqlite3" "$out/baseline-sqlite.sqlite" "$dir/metadata.sql"
measure "sqlite3 CLI" CSV "$out/sqlite-cli.sqlite" Benchmarks/peers/sqlite-cli.sh "$dir/banks.csv" "$out/sqlite-cli.sqlite" "$dir/metadata.sql"
measure "tutorial.py" CSV "$out/tutorial.sqlite" python3 Benchmarks/peers/tutorial.py "$dir/banks.csv" "$out/tutorial.sqlite" "$dir/metadata.sql"
[ -x "$dir/venv/bin/sqlite-utils" ] || { python3 -m venv "$dir/venv" && "$dir/venv/bin/pip" install -q sqlite-utils; }
measure sqlite-utils CSV "$out/sqlite-utils.sqlite" Benchmarks/peers/sqlite-utils.sh "$dir/banks.csv" "$out/sqlite-utils.sqlite" "$dir/metadata.sql"

base=$(printf '%s\n' "${results[0]}" | cut -d'|' -f4)
{
  echo "Bank rows: $rows (each one FailedBankInfo and one FailedBankDetails row); runs per tool: $runs (fewer where shown)."
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), SQLite $(sqlite3 --version | cut -d' ' -f1)."
  echo
  echo "| Tool | Input | Runs | Wall s (median) | Bank rows/s | Peak RSS MB | × CoreSeed-CSV time | Same rows |"
  echo "|---|---|---:|---:|---:|---:|---:|---|"
  for line in "${results[@]}"; do
    IFS='|' read -r tool input count median peak check <<<"$line"
    awk -v t="$tool" -v i="$input" -v c="$count" -v m="$median" -v p="$peak" -v k="$check" -v n="$rows" -v b="$base" \
      'BEGIN { printf "| %s | %s | %d | %.2f | %.0f | %.0f | %.2f | %s |\n", t, i, c, m, n / m, p / 1024, m / b, k }'
  done
  echo
  echo "Runs (seconds, in order):"
  for line in "${results[@]}"; do
    key=$(printf '%s' "$line" | cut -d'|' -f1,2)
    echo "- ${key/|/ }: ${times_of[$key]% }"
  done
  echo
  echo "Whole run (generation if any, all runs and checks): ${SECONDS} s."
} > "$dir/results.md"

if [ "${BENCH_SCALING:-0}" = 1 ]; then
  scale="$dir/scale"
  mkdir -p "$scale"
  {
    echo
    echo "Scaling, CoreSeed from CSV, median of $runs runs each:"
    echo
    echo "| Bank rows | Wall s (median) | Bank rows/s | Peak RSS MB | Runs (s) |"
    echo "|---:|---:|---:|---:|---|"
  } >> "$dir/results.md"
  for n in 100000 1000000 10000000; do
    if [ "$(cat "$scale/banks-$n.rows" 2>/dev/null)" != "$n 2011 csv" ]; then
      echo "generating $n CSV rows in $scale" >&2
      python3 Benchmarks/generate.py --rows "$n" --dir "$scale" --kinds csv --stem "banks-$n"
    fi
    sed "s#\.build/bench/banks\.csv#.build/bench/scale/banks-$n.csv#" Benchmarks/specs/bench-csv.json > "$scale/spec-$n.json"
    sed -i 's#"\.\./\.\./#"../../../#' "$scale/spec-$n.json"
    for ((round = 1; round <= runs; round++)); do
      run_once "scale|$n" "$scale/store-$n.sqlite" "$bin" build "$scale/spec-$n.json" --output "$scale/store-$n.sqlite" --quiet
    done
    rm -f "$scale/store-$n.sqlite"
    median=$(median_of "scale|$n")
    awk -v n="$n" -v m="$median" -v p="${peak_of[scale|$n]}" -v r="${times_of[scale|$n]% }" \
      'BEGIN { printf "| %d | %.2f | %.0f | %.0f | %s |\n", n, m, n / m, p / 1024, r }' >> "$dir/results.md"
  done
fi
cat "$dir/results.md"
