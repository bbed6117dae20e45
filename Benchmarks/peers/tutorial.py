#!/usr/bin/env python3
"""Tutorial-style peer of `make bench`: the FailedBanks store from the CSV with Python's sqlite3.

Usage: tutorial.py banks.csv OUT.sqlite METADATA.sql

What the preload tutorials do: csv.reader over the file, one INSERT per entity per row in a
single transaction, dates via datetime.strptime("%d-%b-%y") read in America/New_York (zoneinfo)
and stored as seconds since 2001-01-01 UTC. The tables and indexes are the exact statements of
`coreseed schema Inputs/FailedBanksCD.xcdatamodeld`; Z_METADATA is a constant INSERT taken from
a CoreSeed store (this script does not compute Core Data version hashes).
"""
import csv
import datetime
import os
import sqlite3
import sys
from zoneinfo import ZoneInfo

SCHEMA = """
CREATE TABLE ZFAILEDBANKDETAILS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZZIP INTEGER, ZINFO INTEGER, ZCLOSEDATE TIMESTAMP, ZUPDATEDDATE TIMESTAMP );
CREATE TABLE ZFAILEDBANKINFO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDETAILS INTEGER, ZCITY VARCHAR, ZNAME VARCHAR, ZSTATE VARCHAR );
CREATE INDEX ZFAILEDBANKDETAILS_ZINFO_INDEX ON ZFAILEDBANKDETAILS (ZINFO);
CREATE INDEX ZFAILEDBANKINFO_ZDETAILS_INDEX ON ZFAILEDBANKINFO (ZDETAILS);
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
"""
NEW_YORK = ZoneInfo("America/New_York")
REFERENCE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def core_data_date(text):
    local = datetime.datetime.strptime(text, "%d-%b-%y").replace(tzinfo=NEW_YORK)
    return (local - REFERENCE).total_seconds()


def main():
    source, output, metadata = sys.argv[1:4]
    if os.path.exists(output):
        os.remove(output)
    db = sqlite3.connect(output)
    db.executescript(SCHEMA)
    cursor = db.cursor()
    count = 0
    with open(source, encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        next(reader)
        for name, city, state, cert, closing, updated in reader:
            count += 1
            cursor.execute("INSERT INTO ZFAILEDBANKINFO (Z_PK, Z_ENT, Z_OPT, ZDETAILS, ZCITY, ZNAME, ZSTATE) "
                           "VALUES (?, 2, 1, ?, ?, ?, ?)", (count, count, city, name, state))
            cursor.execute("INSERT INTO ZFAILEDBANKDETAILS (Z_PK, Z_ENT, Z_OPT, ZZIP, ZINFO, ZCLOSEDATE, ZUPDATEDDATE) "
                           "VALUES (?, 1, 1, ?, ?, ?, ?)",
                           (count, int(cert), count, core_data_date(closing), core_data_date(updated)))
    cursor.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'FailedBankDetails', 0, ?), (2, 'FailedBankInfo', 0, ?)",
                   (count, count))
    with open(metadata) as f:
        cursor.execute(f.read())
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
