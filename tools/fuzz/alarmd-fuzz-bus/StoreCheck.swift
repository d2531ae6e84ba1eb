// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import CSQLite

/// alarmd's store as SQLite sees it, opened read-only beside the running daemon (WAL readers do not
/// block its writer).
enum StoreCheck {
    /// `PRAGMA integrity_check`'s answer ("ok" when sound) and the number of stored alarms.
    static func run(_ path: String) -> (integrity: String, alarms: Int?) {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            defer { sqlite3_close(db) }
            return ("cannot open \(path): \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "?")", nil)
        }
        defer { sqlite3_close(db) }
        sqlite3_busy_timeout(db, 5_000)
        let integrity = rows(db, "PRAGMA integrity_check").joined(separator: "; ")
        return (integrity, rows(db, "SELECT count(*) FROM alarm").first.flatMap { Int($0) })
    }

    private static func rows(_ db: OpaquePointer?, _ sql: String) -> [String] {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { return ["error: \(String(cString: sqlite3_errmsg(db)))"] }
        defer { sqlite3_finalize(stmt) }
        var out: [String] = []
        while true {
            let r = sqlite3_step(stmt)
            if r == SQLITE_ROW {
                out.append(sqlite3_column_text(stmt, 0).map { String(cString: $0) } ?? "")
            } else {
                if r != SQLITE_DONE { out.append("error: \(String(cString: sqlite3_errmsg(db)))") }
                return out
            }
        }
    }
}
