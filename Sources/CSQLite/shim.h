/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#ifndef ALARMD_CSQLITE_SHIM_H
#define ALARMD_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a cast macro Swift cannot import. */
static inline sqlite3_destructor_type alarmd_sqlite_transient(void) { return SQLITE_TRANSIENT; }
/* sqlite3_db_config is variadic, which Swift cannot call. */
static inline int alarmd_sqlite_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, !on, (int *)0);
}
#endif
