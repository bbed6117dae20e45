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
#endif
