#ifndef CORESEED_CSQLITE_SHIM_H
#define CORESEED_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import; SQLite copies the bound bytes.
static inline sqlite3_destructor_type coreseed_sqlite_transient(void) { return SQLITE_TRANSIENT; }
/// SQLITE_STATIC: the caller keeps the bytes alive until the next bind/step/reset.
static inline sqlite3_destructor_type coreseed_sqlite_static(void) { return SQLITE_STATIC; }
/// sqlite3_config is variadic; wrapped here so Swift never calls a C variadic.
static inline int coreseed_sqlite_config_single_thread(void) { return sqlite3_config(SQLITE_CONFIG_SINGLETHREAD); }
/// Turns off SQLite's memory statistics, which take a global mutex on every allocation. Must run
/// before the library initializes (before the first connection opens); returns SQLITE_MISUSE after.
static inline int coreseed_sqlite_config_memstatus_off(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

/// sqlite3_db_config is variadic too: one wrapper per option CoreSeed sets, each an on/off flag
/// (`SQLITE_DBCONFIG_…`, an int and an int* for the new state). Each returns SQLite's result code.
/// DEFENSIVE: no writing the schema or shadow tables, however the SQL asks (for files that may be hostile).
static inline int coreseed_sqlite_db_config_defensive(sqlite3 *db, int on) {
    int state = 0; return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, &state);
}
/// TRUSTED_SCHEMA off: views and triggers in the file may call only functions marked innocuous.
static inline int coreseed_sqlite_db_config_trusted_schema(sqlite3 *db, int on) {
    int state = 0; return sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, on, &state);
}
/// ENABLE_VIEW off: a query that names a view of the file fails instead of running the view's query.
static inline int coreseed_sqlite_db_config_enable_view(sqlite3 *db, int on) {
    int state = 0; return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, on, &state);
}
/// ENABLE_TRIGGER off: no trigger of the file ever fires.
static inline int coreseed_sqlite_db_config_enable_trigger(sqlite3 *db, int on) {
    int state = 0; return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, &state);
}
#endif
