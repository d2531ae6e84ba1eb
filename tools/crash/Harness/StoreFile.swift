// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSQLite

/// alarmd's SQLite file, opened beside the daemon (never instead of it).
enum StoreFile {
    /// `PRAGMA integrity_check` through a read-only connection, which neither checkpoints nor
    /// changes the WAL alarmd is using: "ok", or what SQLite found.
    static func integrity(_ path: String) -> String {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            return "cannot open: \(String(cString: sqlite3_errmsg(db)))"
        }
        sqlite3_busy_timeout(db, 10_000)
        var stmt: OpaquePointer?
        defer { sqlite3_finalize(stmt) }
        guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nil) == SQLITE_OK else {
            return "cannot check: \(String(cString: sqlite3_errmsg(db)))"
        }
        var lines: [String] = []
        while true {
            let r = sqlite3_step(stmt)
            if r == SQLITE_ROW, let text = sqlite3_column_text(stmt, 0) {
                lines.append(String(cString: text))
            } else if r == SQLITE_DONE {
                break
            } else {
                return "check failed: \(String(cString: sqlite3_errmsg(db)))"
            }
        }
        return lines.joined(separator: "; ")
    }

    /// Tests only, while alarmd is down: deletes one alarm's row, as a store that lost an
    /// acknowledged write would have. Whether a row went.
    static func delete(_ id: String, from path: String) -> Bool {
        guard let key = AlarmKey(id) else { return false }
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return false }
        var stmt: OpaquePointer?
        defer { sqlite3_finalize(stmt) }
        guard sqlite3_prepare_v2(db, "DELETE FROM alarm WHERE id = ?", -1, &stmt, nil) == SQLITE_OK else { return false }
        key.withBytes { b in _ = sqlite3_bind_blob(stmt, 1, b.baseAddress, Int32(b.count), alarmd_sqlite_transient()) }
        return sqlite3_step(stmt) == SQLITE_DONE && sqlite3_changes(db) == 1
    }
}
