#!/usr/bin/env bash
# `make seed`: builds the default stores from Inputs/ into Outputs/ and verifies each against its model.
# Everything it reads is in Inputs/ (the FDIC list in Inputs/fdic-2011/), so a fresh clone seeds alone.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/coreseed}
mkdir -p Outputs
# Run on its own (not from `make seed`, which builds first): build the binary, saying so, since the
# first build compiles for minutes without a word of its own.
if [ ! -x "$bin" ]; then
  echo "building coreseed (release; the first build takes a few minutes)…"
  swift build -c release --product coreseed
fi

"$bin" build Inputs/seed.json
"$bin" verify Outputs/Carriers.sqlite --model Inputs/Carriers.xcdatamodeld

"$bin" build Inputs/failedbanks-sqlite.json
"$bin" build Inputs/failedbanks-csv.json --output Outputs/FailedBanksCD-csv.sqlite
for store in Outputs/FailedBanksCD.sqlite Outputs/FailedBanksCD-csv.sqlite; do
  "$bin" verify "$store" --model Inputs/FailedBanksCD.xcdatamodeld
done

"$bin" build Inputs/world.json
"$bin" verify Outputs/World.sqlite --model Inputs/World.xcdatamodeld
