#ifndef STRATA_SQLITE_SHIM_H
#define STRATA_SQLITE_SHIM_H
#include <sqlite3.h>
#endif
