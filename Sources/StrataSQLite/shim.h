#ifndef STRATA_SQLITE_SHIM_H
#define STRATA_SQLITE_SHIM_H
#include <sqlite3.h>

// Swift cannot call C variadic functions such as sqlite3_config: small wrappers here.

// Turns off SQLite's memory statistics, which take a global mutex on every allocation
// (strata reads none of them). Must run before SQLite initializes; returns SQLITE_MISUSE,
// harmlessly, when it already has (a host app used SQLite first).
static inline int strata_sqlite_disable_memstatus(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
