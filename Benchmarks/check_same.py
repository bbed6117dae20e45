#!/usr/bin/env python3
"""Checks that a FailedBanks store holds the same logical rows as a reference store.

Usage: check_same.py REFERENCE CANDIDATE

Compares the sorted tuples (name, city, state, zip, closeDate, updatedDate) of every
FailedBankInfo row joined to its FailedBankDetails row through *both* to-one keys
(info.ZDETAILS = details.Z_PK and details.ZINFO = info.Z_PK), dates within 1 second. Also checks
in each store: every row of both tables is in such a pair, Z_ENT matches Z_PRIMARYKEY, Z_OPT is
set, Z_PRIMARYKEY.Z_MAX equals the largest Z_PK, and Z_METADATA has one row.
Exits 0 when equal, 1 with the first differences otherwise.
"""
import sqlite3
import sys

PAIRS = """
SELECT i.ZNAME, i.ZCITY, i.ZSTATE, d.ZZIP, d.ZCLOSEDATE, d.ZUPDATEDDATE
FROM ZFAILEDBANKINFO i JOIN ZFAILEDBANKDETAILS d ON i.ZDETAILS = d.Z_PK AND d.ZINFO = i.Z_PK
ORDER BY 1, 2, 3, 4, round(d.ZCLOSEDATE), round(d.ZUPDATEDDATE)
"""


def load(path):
    problems = []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    entities = {name: (ent, top) for name, ent, top in db.execute("SELECT Z_NAME, Z_ENT, Z_MAX FROM Z_PRIMARYKEY")}
    counts = {}
    for name, table in (("FailedBankInfo", "ZFAILEDBANKINFO"), ("FailedBankDetails", "ZFAILEDBANKDETAILS")):
        if name not in entities:
            problems.append(f"{path}: Z_PRIMARYKEY has no {name} row")
            continue
        ent, top = entities[name]
        count, largest, wrong_ent, no_opt = db.execute(
            f"SELECT count(*), max(Z_PK), sum(Z_ENT != ?), sum(Z_OPT IS NULL OR Z_OPT < 1) FROM {table}", (ent,)).fetchone()
        counts[table] = count
        if (largest or 0) != top:
            problems.append(f"{path}: {name} Z_MAX {top} but largest Z_PK {largest}")
        if wrong_ent or no_opt:
            problems.append(f"{path}: {table}: {wrong_ent} rows with a wrong Z_ENT, {no_opt} without Z_OPT")
    if db.execute("SELECT count(*) FROM Z_METADATA").fetchone()[0] != 1:
        problems.append(f"{path}: Z_METADATA does not hold exactly one row")
    rows = db.execute(PAIRS).fetchall()  # sorted by SQLite, dates rounded to whole seconds
    for table, count in counts.items():
        if count != len(rows):
            problems.append(f"{path}: {table} has {count} rows but {len(rows)} are linked both ways")
    db.close()
    return rows, problems


def same(a, b):
    if a[:4] != b[:4]:
        return False
    for x, y in zip(a[4:], b[4:]):
        if (x is None) != (y is None) or (x is not None and abs(x - y) > 1.0):
            return False
    return True


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    reference, reference_problems = load(sys.argv[1])
    candidate, candidate_problems = load(sys.argv[2])
    problems = reference_problems + candidate_problems
    if len(reference) != len(candidate):
        problems.append(f"{len(reference)} linked rows in the reference, {len(candidate)} in the candidate")
    differing = [(a, b) for a, b in zip(reference, candidate) if not same(a, b)]
    for a, b in differing[:5]:
        problems.append(f"differs: {a!r} != {b!r}")
    if differing:
        problems.append(f"{len(differing)} differing rows in all")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"same: {len(reference)} linked rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
