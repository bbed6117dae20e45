#!/usr/bin/env python3
"""Deterministic generator of legacy FailedBanks rows for `make bench`.

Writes the same N logical rows (default 1,000,000, seed 2011) as
  banks.sqlite3  legacy table failed_banks(id integer primary key, name, city, state, zip integer,
                 close_date, updated_date), dates 'yyyy-MM-dd HH:mm:ss' (always midnight)
  banks.csv      header "Bank Name,City,State,CERT #,Closing Date,Updated Date", UTF-8, CRLF
                 lines, dates like 26-Mar-10; quoted commas, doubled quotes, line breaks inside
                 quoted names, non-ASCII names (é, ü, ñ, CJK)
  banks.xml      <banks><bank cert=".."><name/><city/><state/><closing/><updated/></bank></banks>,
                 dates like 26-Mar-10
  banks.json     {"banks": [{"Bank Name": .., "City": .., "State": .., "CERT #": 123, "Closing Date":
                 "26-Mar-10", "Updated Date": ..}, ...]}, one record per line (an API dump)
into DIR (default .build/bench). CERT # is unique per row and equals the SQLite `zip` column
(the FailedBanks specs map CERT # to zip); the SQLite key is `id`, the CSV/XML key is CERT #.
Dates fall in 1985-2024, so two-digit years mean the same under CoreSeed's pivot (1950) and
Python's %y (1969), and they straddle the 2007 change of the US DST rules.
Usage: generate.py [--rows N] [--seed S] [--dir DIR] [--kinds csv,sqlite,xml,json]
"""
import argparse
import csv
import datetime
import json
import os
import random
import sqlite3

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
WORDS = ["Desert Hills", "Unity National", "Key West", "McIntosh Commercial", "Beach First", "Peoples",
         "Citizens", "Farmers", "Riverside", "Heritage", "Pinnacle", "Frontier", "Sun American",
         "Horizon", "Columbia River", "Bank of the Commonwealth", "Integrity", "Security Pacific",
         "Great Basin", "Old Southern", "Waterfield", "Colonial", "Ocala National", "Mutual"]
FOREIGN = ["Banco Español", "Münchner Volksbank", "Caja Niño", "東京銀行", "Crédit Agricole Nord",
           "Zürcher Kantonal", "Société Générale Sud", "Señorita Savings", "北京商业银行", "Kølbæk Sparekasse"]
SUFFIXES = ["Bank", "National Bank", "Community Bank", "Savings Bank", "Bank & Trust", "State Bank"]
CITIES = ["Phoenix", "Cartersville", "Key West", "Myrtle Beach", "Chicago", "Atlanta", "Naples",
          "Los Angeles", "Portland", "Reno", "São Paulo", "Zürich", "Cañon City", "Española"]
STATES = ["AZ", "GA", "FL", "SC", "IL", "CA", "OR", "NV", "TX", "NY", "NM", "CO", "WA", "MN"]
FIRST = datetime.date(1985, 1, 1).toordinal()
LAST = datetime.date(2024, 12, 31).toordinal()


def rows(count, seed):
    """Yields (id, cert, name, city, state, close, updated) with dates as datetime.date."""
    rng = random.Random(seed)
    certs = list(range(10000, 10000 + count))
    rng.shuffle(certs)
    for i in range(count):
        kind = rng.random()
        base = rng.choice(FOREIGN) if kind < 0.06 else rng.choice(WORDS)
        name = f"{base} {rng.choice(SUFFIXES)}"
        if 0.06 <= kind < 0.16:
            name += ", N.A."                       # quoted comma
        elif 0.16 <= kind < 0.18:
            name = name.replace(" ", "\n", 1)      # line break inside a quoted field
        elif 0.18 <= kind < 0.19:
            name = f'The "{base}" Bank'            # doubled quotes
        elif 0.19 <= kind < 0.20:
            name += f" #{i}, Inc."                 # comma and a hash
        close = rng.randint(FIRST, LAST)
        updated = min(close + rng.randint(0, 400), LAST)
        yield (i + 1, certs[i], name, rng.choice(CITIES), rng.choice(STATES),
               datetime.date.fromordinal(close), datetime.date.fromordinal(updated))


def short(day):
    return f"{day.day}-{MONTHS[day.month - 1]}-{day.year % 100:02d}"


def xml_text(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_csv(path, count, seed):
    with open(path + ".tmp", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(["Bank Name", "City", "State", "CERT #", "Closing Date", "Updated Date"])
        for _, cert, name, city, state, close, updated in rows(count, seed):
            writer.writerow([name, city, state, cert, short(close), short(updated)])
    os.replace(path + ".tmp", path)


def write_xml(path, count, seed):
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<banks>\n')
        for _, cert, name, city, state, close, updated in rows(count, seed):
            out.write(f'  <bank cert="{cert}"><name>{xml_text(name)}</name><city>{xml_text(city)}</city>'
                      f'<state>{state}</state><closing>{short(close)}</closing><updated>{short(updated)}</updated></bank>\n')
        out.write("</banks>\n")
    os.replace(path + ".tmp", path)


def write_json(path, count, seed):
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as out:
        out.write('{"source": "FDIC-style generated rows", "banks": [\n')
        for index, (_, cert, name, city, state, close, updated) in enumerate(rows(count, seed)):
            record = {"Bank Name": name, "City": city, "State": state, "CERT #": cert,
                      "Closing Date": short(close), "Updated Date": short(updated)}
            out.write(("," if index else "") + json.dumps(record, ensure_ascii=False) + "\n")
        out.write("]}\n")
    os.replace(path + ".tmp", path)


def write_sqlite(path, count, seed):
    if os.path.exists(path + ".tmp"):
        os.remove(path + ".tmp")
    db = sqlite3.connect(path + ".tmp")
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("CREATE TABLE failed_banks(id integer primary key, name text, city text, state text, "
               "zip integer, close_date text, updated_date text)")
    db.executemany("INSERT INTO failed_banks VALUES (?,?,?,?,?,?,?)",
                   ((i, name, city, state, cert, f"{close} 00:00:00", f"{updated} 00:00:00")
                    for i, cert, name, city, state, close, updated in rows(count, seed)))
    db.commit()
    db.close()
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2011)
    parser.add_argument("--dir", default=".build/bench")
    parser.add_argument("--kinds", default="csv,sqlite,xml,json")
    parser.add_argument("--stem", default="banks", help="file name stem (default banks)")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    writers = {"csv": (write_csv, ".csv"), "sqlite": (write_sqlite, ".sqlite3"), "xml": (write_xml, ".xml"),
               "json": (write_json, ".json")}
    for kind in args.kinds.split(","):
        write, extension = writers[kind]
        write(os.path.join(args.dir, args.stem + extension), args.rows, args.seed)
    with open(os.path.join(args.dir, args.stem + ".rows"), "w") as out:
        out.write(f"{args.rows} {args.seed} {args.kinds}\n")


if __name__ == "__main__":
    main()
