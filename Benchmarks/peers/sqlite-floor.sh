#!/usr/bin/env bash
# The floor under any seeder that writes through SQLite (issue 25): SQLite copying the finished rows of
# a store into a new one itself, `INSERT INTO … SELECT` per table, with the same schema (tables first,
# indexes after the load, as CoreSeed does), journal and synchronous off. No parsing, no conversion, no
# per-row calls from outside SQLite: what is left is SQLite's own insert and b-tree work.
# Usage: sqlite-floor.sh FINISHED.sqlite OUT.sqlite
set -euo pipefail
source="$1" out="$2"
rm -f "$out"
tables=$(sqlite3 "$source" "SELECT group_concat(sql || ';', char(10)) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
indexes=$(sqlite3 "$source" "SELECT group_concat(sql || ';', char(10)) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
copies=$(sqlite3 "$source" "SELECT group_concat('INSERT INTO main.' || name || ' SELECT * FROM s.' || name || ';', char(10)) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
sqlite3 "$out" "PRAGMA page_size=4096" "PRAGMA auto_vacuum=2" "PRAGMA journal_mode=OFF" "PRAGMA synchronous=OFF" \
  "ATTACH 'file:$source?immutable=1' AS s" "BEGIN" "$tables" "$copies" "$indexes" "COMMIT" >/dev/null
