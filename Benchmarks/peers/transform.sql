-- The SQL half of the sqlite-cli and sqlite-utils peers of `make bench`. Runs on the new store
-- with the staging database (the CSV imported as table `staging`, all columns text) attached as
-- `s`. One statement per ";"-terminated paragraph (sqlite-utils runs them one at a time).
-- Tables: the exact CREATE statements of `coreseed schema Inputs/FailedBanksCD.xcdatamodeld`;
-- its two CREATE INDEX statements run after the load.
-- Dates "26-Mar-10" are taken apart with substr/instr (two-digit years 00-49 -> 2000s), turned
-- into ISO days, and shifted from America/New_York midnight to UTC through a small lookup table
-- s.dst of each year's DST start and end Sundays computed with SQLite date modifiers from the US
-- rules (1976-1986: last Sunday of April; 1987-2006: first Sunday of April - last Sunday of
-- October; since 2007: second Sunday of March - first Sunday of November). The change happens at
-- 02:00, so midnight of the start Sunday is still EST (UTC-5) and midnight of the end Sunday
-- still EDT (UTC-4): DST iff start < day <= end. Exact for midnight; other times would need hours.
CREATE TABLE ZFAILEDBANKDETAILS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZZIP INTEGER, ZINFO INTEGER, ZCLOSEDATE TIMESTAMP, ZUPDATEDDATE TIMESTAMP );

CREATE TABLE ZFAILEDBANKINFO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDETAILS INTEGER, ZCITY VARCHAR, ZNAME VARCHAR, ZSTATE VARCHAR );

CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);

CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);

CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);

CREATE TABLE s.dst (year INTEGER PRIMARY KEY, start TEXT, end TEXT);

INSERT INTO s.dst
WITH RECURSIVE years(n) AS (SELECT 1976 UNION ALL SELECT n + 1 FROM years WHERE n < 2075)
SELECT n,
  CASE WHEN n >= 2007 THEN date(n || '-03-01', 'weekday 0', '+7 days')
       WHEN n >= 1987 THEN date(n || '-04-01', 'weekday 0')
       ELSE date(n || '-04-30', '-6 days', 'weekday 0') END,
  CASE WHEN n >= 2007 THEN date(n || '-11-01', 'weekday 0')
       ELSE date(n || '-10-31', '-6 days', 'weekday 0') END
FROM years;

CREATE TABLE s.parsed AS
SELECT rowid AS pk, "Bank Name" AS name, City AS city, State AS state, CAST("CERT #" AS INTEGER) AS zip,
  printf('%04d-%02d-%02d',
    CAST(substr("Closing Date", -2) AS INTEGER) + CASE WHEN CAST(substr("Closing Date", -2) AS INTEGER) < 50 THEN 2000 ELSE 1900 END,
    (instr('JanFebMarAprMayJunJulAugSepOctNovDec', substr("Closing Date", instr("Closing Date", '-') + 1, 3)) + 2) / 3,
    CAST(substr("Closing Date", 1, instr("Closing Date", '-') - 1) AS INTEGER)) AS close,
  printf('%04d-%02d-%02d',
    CAST(substr("Updated Date", -2) AS INTEGER) + CASE WHEN CAST(substr("Updated Date", -2) AS INTEGER) < 50 THEN 2000 ELSE 1900 END,
    (instr('JanFebMarAprMayJunJulAugSepOctNovDec', substr("Updated Date", instr("Updated Date", '-') + 1, 3)) + 2) / 3,
    CAST(substr("Updated Date", 1, instr("Updated Date", '-') - 1) AS INTEGER)) AS updated
FROM s.staging;

INSERT INTO ZFAILEDBANKINFO (Z_PK, Z_ENT, Z_OPT, ZDETAILS, ZCITY, ZNAME, ZSTATE)
SELECT pk, 2, 1, pk, city, name, state FROM s.parsed ORDER BY pk;

INSERT INTO ZFAILEDBANKDETAILS (Z_PK, Z_ENT, Z_OPT, ZZIP, ZINFO, ZCLOSEDATE, ZUPDATEDDATE)
SELECT p.pk, 1, 1, p.zip, p.pk,
  CAST(strftime('%s', p.close) AS REAL) - 978307200 + CASE WHEN p.close > c.start AND p.close <= c.end THEN 14400 ELSE 18000 END,
  CAST(strftime('%s', p.updated) AS REAL) - 978307200 + CASE WHEN p.updated > u.start AND p.updated <= u.end THEN 14400 ELSE 18000 END
FROM s.parsed p
JOIN s.dst c ON c.year = CAST(substr(p.close, 1, 4) AS INTEGER)
JOIN s.dst u ON u.year = CAST(substr(p.updated, 1, 4) AS INTEGER)
ORDER BY p.pk;

CREATE INDEX ZFAILEDBANKDETAILS_ZINFO_INDEX ON ZFAILEDBANKDETAILS (ZINFO);

CREATE INDEX ZFAILEDBANKINFO_ZDETAILS_INDEX ON ZFAILEDBANKINFO (ZDETAILS);

INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX)
SELECT 1, 'FailedBankDetails', 0, (SELECT max(Z_PK) FROM ZFAILEDBANKDETAILS)
UNION ALL SELECT 2, 'FailedBankInfo', 0, (SELECT max(Z_PK) FROM ZFAILEDBANKINFO);
