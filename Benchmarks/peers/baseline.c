/* The C baseline peer of `make bench` (benchmark tooling, not product code): the FailedBanks store
 * from the generated legacy rows, the way a careful C programmer would write it by hand.
 *
 *   cc -O2 -o baseline Benchmarks/peers/baseline.c -lsqlite3
 *   baseline csv    banks.csv     OUT.sqlite METADATA.sql
 *   baseline sqlite banks.sqlite3 OUT.sqlite METADATA.sql
 *
 * CSV: the file is mmapped and split by a minimal RFC 4180 parser (quotes, doubled quotes, line
 * breaks inside quotes, CRLF); fields are bound straight from the mapping unless they held
 * doubled quotes. Header "Bank Name,City,State,CERT #,Closing Date,Updated Date", dates d-MMM-yy
 * (two-digit years: 00-49 -> 2000s, 50-99 -> 1900s, CoreSeed's default pivot).
 * SQLite: SELECT from failed_banks ORDER BY id, dates 'yyyy-MM-dd HH:mm:ss'.
 * Dates are local times in America/New_York, turned into seconds since 2001-01-01 UTC with the US
 * DST rules since 1976 coded below (enough for the generated 1985-2024 dates).
 * Store: journal off, synchronous off, one transaction, prepared inserts (bind/step/reset),
 * indexes created after the load; Z_PRIMARYKEY and the Z_METADATA row (METADATA.sql, a constant
 * INSERT taken from a CoreSeed store: this peer does not compute Core Data version hashes).
 * No checks beyond what the input format needs: no duplicate keys, no value validation.
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *schema =
    "CREATE TABLE ZFAILEDBANKDETAILS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZZIP INTEGER, ZINFO INTEGER, ZCLOSEDATE TIMESTAMP, ZUPDATEDDATE TIMESTAMP );"
    "CREATE TABLE ZFAILEDBANKINFO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDETAILS INTEGER, ZCITY VARCHAR, ZNAME VARCHAR, ZSTATE VARCHAR );"
    "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);"
    "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);"
    "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);";
static const char *indexes =
    "CREATE INDEX ZFAILEDBANKDETAILS_ZINFO_INDEX ON ZFAILEDBANKDETAILS (ZINFO);"
    "CREATE INDEX ZFAILEDBANKINFO_ZDETAILS_INDEX ON ZFAILEDBANKINFO (ZDETAILS);";

static sqlite3 *db;
static sqlite3_stmt *info, *details;

static void die(const char *what) {
    fprintf(stderr, "baseline: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
    exit(1);
}

static void exec(const char *sql) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
        fprintf(stderr, "baseline: %s\n", message);
        exit(1);
    }
}

/* Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, long m, long d) {
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* The day (from 1970) of the n-th (1-based) Sunday of a month, or of the last one when n is 0. */
static long sunday(long y, long m, int n) {
    if (n == 0) {
        long last = days_from_civil(m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1, 1) - 1;
        return last - ((last + 4) % 7 + 7) % 7; /* 1970-01-01 was a Thursday (weekday 4) */
    }
    long first = days_from_civil(y, m, 1);
    return first + (7 - ((first + 4) % 7 + 7) % 7) % 7 + 7 * (n - 1);
}

/* Seconds since 2001-01-01 UTC of a wall-clock time in America/New_York. DST starts and ends at
 * 02:00 local; the ambiguous and skipped hours are resolved as standard time. */
static double reference_seconds(long y, long m, long d, long hh, long mm, long ss) {
    long day = days_from_civil(y, m, d);
    long start, end;
    if (y >= 2007) { start = sunday(y, 3, 2); end = sunday(y, 11, 1); }
    else if (y >= 1987) { start = sunday(y, 4, 1); end = sunday(y, 10, 0); }
    else { start = sunday(y, 4, 0); end = sunday(y, 10, 0); }
    long local = day * 86400 + hh * 3600 + mm * 60 + ss;
    int dst = local >= start * 86400 + 3 * 3600 && local < end * 86400 + 1 * 3600;
    return (double)(local + (dst ? 4 : 5) * 3600) - 978307200.0;
}

static int month_number(const char *p) {
    static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    for (int i = 0; i < 12; i++)
        if (memcmp(names + 3 * i, p, 3) == 0) return i + 1;
    return 0;
}

/* "26-Mar-10" */
static int short_date(const char *p, size_t n, double *out) {
    size_t i = 0;
    long d = 0, y = 0;
    while (i < n && p[i] >= '0' && p[i] <= '9') d = d * 10 + (p[i++] - '0');
    if (i == 0 || i + 7 != n || p[i] != '-' || p[i + 4] != '-') return 0;
    int m = month_number(p + i + 1);
    if (!m) return 0;
    y = (p[i + 5] - '0') * 10 + (p[i + 6] - '0');
    y += y < 50 ? 2000 : 1900;
    *out = reference_seconds(y, m, d, 0, 0, 0);
    return 1;
}

/* "2010-03-26 00:00:00" */
static int long_date(const char *p, size_t n, double *out) {
    if (n != 19) return 0;
#define N2(k) ((p[k] - '0') * 10 + (p[k + 1] - '0'))
    *out = reference_seconds(N2(0) * 100 + N2(2), N2(5), N2(8), N2(11), N2(14), N2(17));
#undef N2
    return 1;
}

static void insert(sqlite3_int64 pk, const char *name, int name_n, const char *city, int city_n,
                   const char *state, int state_n, sqlite3_int64 zip, double close, double updated,
                   sqlite3_destructor_type name_lifetime) {
    sqlite3_bind_int64(info, 1, pk);
    sqlite3_bind_int64(info, 2, pk);
    sqlite3_bind_text(info, 3, city, city_n, SQLITE_STATIC);
    sqlite3_bind_text(info, 4, name, name_n, name_lifetime);
    sqlite3_bind_text(info, 5, state, state_n, SQLITE_STATIC);
    if (sqlite3_step(info) != SQLITE_DONE) die("insert info");
    sqlite3_reset(info);
    sqlite3_bind_int64(details, 1, pk);
    sqlite3_bind_int64(details, 2, zip);
    sqlite3_bind_int64(details, 3, pk);
    sqlite3_bind_double(details, 4, close);
    sqlite3_bind_double(details, 5, updated);
    if (sqlite3_step(details) != SQLITE_DONE) die("insert details");
    sqlite3_reset(details);
}

typedef struct { const char *p; size_t n; int quoted; } Field;

/* Reads one record of up to `max` fields from *cursor; returns the field count, 0 at the end. */
static int next_record(const char **cursor, const char *end, Field *fields, int max) {
    const char *p = *cursor;
    if (p >= end) return 0;
    int count = 0;
    for (;;) {
        Field f = {p, 0, 0};
        if (p < end && *p == '"') {
            f.p = ++p;
            f.quoted = 1;
            for (;;) {
                const char *q = memchr(p, '"', end - p);
                if (!q) { fprintf(stderr, "baseline: unterminated quote\n"); exit(1); }
                if (q + 1 < end && q[1] == '"') { f.quoted = 2; p = q + 2; continue; }
                f.n = q - f.p;
                p = q + 1;
                break;
            }
        } else {
            while (p < end && *p != ',' && *p != '\n' && *p != '\r') p++;
            f.n = p - f.p;
        }
        if (count < max) fields[count] = f;
        count++;
        if (p < end && *p == ',') { p++; continue; }
        if (p < end && *p == '\r') p++;
        if (p < end && *p == '\n') p++;
        break;
    }
    *cursor = p;
    return count;
}

/* Undoes doubled quotes into buf; returns the length. */
static int unescape(const Field *f, char *buf) {
    int n = 0;
    for (size_t i = 0; i < f->n; i++) {
        buf[n++] = f->p[i];
        if (f->p[i] == '"') i++;
    }
    return n;
}

static sqlite3_int64 load_csv(const char *path) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(path); exit(1); }
    const char *data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) { perror("mmap"); exit(1); }
    madvise((void *)data, st.st_size, MADV_SEQUENTIAL);
    const char *cursor = data, *end = data + st.st_size;
    Field f[6];
    char name[4096];
    if (next_record(&cursor, end, f, 6) != 6) { fprintf(stderr, "baseline: bad header\n"); exit(1); }
    sqlite3_int64 pk = 0;
    while (next_record(&cursor, end, f, 6) == 6) {
        double close, updated;
        if (!short_date(f[4].p, f[4].n, &close) || !short_date(f[5].p, f[5].n, &updated)) {
            fprintf(stderr, "baseline: bad date in row %lld\n", pk + 1);
            exit(1);
        }
        sqlite3_int64 zip = strtoll(f[3].p, NULL, 10);
        pk++;
        if (f[0].quoted == 2 && f[0].n < sizeof name)
            insert(pk, name, unescape(&f[0], name), f[1].p, (int)f[1].n, f[2].p, (int)f[2].n, zip, close, updated, SQLITE_TRANSIENT);
        else
            insert(pk, f[0].p, (int)f[0].n, f[1].p, (int)f[1].n, f[2].p, (int)f[2].n, zip, close, updated, SQLITE_STATIC);
    }
    return pk;
}

static sqlite3_int64 load_sqlite(const char *path) {
    sqlite3 *legacy;
    sqlite3_stmt *select;
    if (sqlite3_open_v2(path, &legacy, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) die(path);
    if (sqlite3_prepare_v2(legacy, "SELECT name, city, state, zip, close_date, updated_date FROM failed_banks ORDER BY id",
                           -1, &select, NULL) != SQLITE_OK) die("select");
    sqlite3_int64 pk = 0;
    while (sqlite3_step(select) == SQLITE_ROW) {
        double close, updated;
        if (!long_date((const char *)sqlite3_column_text(select, 4), sqlite3_column_bytes(select, 4), &close) ||
            !long_date((const char *)sqlite3_column_text(select, 5), sqlite3_column_bytes(select, 5), &updated)) {
            fprintf(stderr, "baseline: bad date in row %lld\n", pk + 1);
            exit(1);
        }
        pk++;
        insert(pk, (const char *)sqlite3_column_text(select, 0), sqlite3_column_bytes(select, 0),
               (const char *)sqlite3_column_text(select, 1), sqlite3_column_bytes(select, 1),
               (const char *)sqlite3_column_text(select, 2), sqlite3_column_bytes(select, 2),
               sqlite3_column_int64(select, 3), close, updated, SQLITE_STATIC);
    }
    sqlite3_finalize(select);
    sqlite3_close(legacy);
    return pk;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc(n + 1);
    if (fread(text, 1, n, f) != (size_t)n) { perror(path); exit(1); }
    text[n] = 0;
    fclose(f);
    return text;
}

int main(int argc, char **argv) {
    if (argc != 5 || (strcmp(argv[1], "csv") && strcmp(argv[1], "sqlite"))) {
        fprintf(stderr, "usage: baseline csv|sqlite INPUT OUTPUT METADATA.sql\n");
        return 64;
    }
    char *metadata = read_file(argv[4]);
    unlink(argv[3]);
    if (sqlite3_open(argv[3], &db) != SQLITE_OK) die(argv[3]);
    exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;");
    exec(schema);
    if (sqlite3_prepare_v2(db, "INSERT INTO ZFAILEDBANKINFO (Z_PK, Z_ENT, Z_OPT, ZDETAILS, ZCITY, ZNAME, ZSTATE) VALUES (?, 2, 1, ?, ?, ?, ?)",
                           -1, &info, NULL) != SQLITE_OK) die("prepare info");
    if (sqlite3_prepare_v2(db, "INSERT INTO ZFAILEDBANKDETAILS (Z_PK, Z_ENT, Z_OPT, ZZIP, ZINFO, ZCLOSEDATE, ZUPDATEDDATE) VALUES (?, 1, 1, ?, ?, ?, ?)",
                           -1, &details, NULL) != SQLITE_OK) die("prepare details");
    sqlite3_int64 rows = strcmp(argv[1], "csv") == 0 ? load_csv(argv[2]) : load_sqlite(argv[2]);
    sqlite3_finalize(info);
    sqlite3_finalize(details);
    exec(indexes);
    char sql[256];
    snprintf(sql, sizeof sql, "INSERT INTO Z_PRIMARYKEY VALUES (1, 'FailedBankDetails', 0, %lld), (2, 'FailedBankInfo', 0, %lld);",
             rows, rows);
    exec(sql);
    exec(metadata);
    exec("COMMIT;");
    if (sqlite3_close(db) != SQLITE_OK) die("close");
    return 0;
}
