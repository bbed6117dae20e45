#!/usr/bin/env bash
# sqlite3 CLI peer of `make bench`: `.import --csv` into a staging database, then transform.sql
# (INSERT ... SELECT with the date conversion in SQL, indexes after the load) into the new store,
# then the constant Z_METADATA row. Journal off and synchronous off on both files.
# Usage: sqlite-cli.sh banks.csv OUT.sqlite METADATA.sql
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
csv="$1" out="$2" metadata="$3"
staging="$out.staging"
rm -f "$out" "$staging"
sqlite3 "$staging" "PRAGMA journal_mode=OFF" "PRAGMA synchronous=OFF" ".import --csv '$csv' staging" >/dev/null
sqlite3 "$out" "PRAGMA journal_mode=OFF" "PRAGMA synchronous=OFF" "ATTACH '$staging' AS s" \
  "PRAGMA s.journal_mode=OFF" "PRAGMA s.synchronous=OFF" "BEGIN" ".read '$here/transform.sql'" ".read '$metadata'" "COMMIT" >/dev/null
rm -f "$staging"
