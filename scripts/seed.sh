#!/usr/bin/env bash
# `make seed`: builds the default stores from Inputs/ into Outputs/ and verifies each against its model.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/coreseed}
mkdir -p Outputs

"$bin" build Inputs/seed.json
"$bin" verify Outputs/Carriers.sqlite --model Inputs/Carriers.xcdatamodeld

fdic=../shared/data/fdic-2011
if [ -f "$fdic/banklist.sqlite3" ] && [ -f "$fdic/banklist.csv" ]; then
  "$bin" build Inputs/failedbanks-sqlite.json
  "$bin" build Inputs/failedbanks-csv.json --output Outputs/FailedBanksCD-csv.sqlite
  for store in Outputs/FailedBanksCD.sqlite Outputs/FailedBanksCD-csv.sqlite; do
    "$bin" verify "$store" --model Inputs/FailedBanksCD.xcdatamodeld
  done
else
  echo "FailedBanks stores skipped: put banklist.sqlite3 and banklist.csv (FDIC list, 2011) in $fdic"
fi
