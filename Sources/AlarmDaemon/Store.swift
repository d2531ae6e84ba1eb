import AlarmCore
import CSQLite
import Foundation

/// The durable store: one SQLite database in WAL mode. Every mutation is one transaction, committed
/// with `synchronous=FULL` before the method that caused it replies.
final class Store {
    static let schemaVersion: Int32 = 2

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var db: OpaquePointer?
    let path: String
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// `$XDG_STATE_HOME/alarmd/alarmd.sqlite`, default `~/.local/state/alarmd/`.
    static func defaultDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        if let s = env["XDG_STATE_HOME"], s.hasPrefix("/") { return s + "/alarmd" }
        let home = env["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/alarmd"
    }

    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        path = directory + "/alarmd.sqlite"
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK else {
            throw Failure(description: "cannot open \(path): \(String(cString: sqlite3_errmsg(db)))")
        }
        sqlite3_busy_timeout(db, 5000)
        try exec("PRAGMA journal_mode=WAL")
        try exec("PRAGMA synchronous=FULL")
        try migrate()
    }

    deinit { sqlite3_close_v2(db) }

    private func migrate() throws {
        let version = try scalarInt("PRAGMA user_version")
        if version > Store.schemaVersion {
            throw Failure(description: "\(path) has schema version \(version), newer than this alarmd (\(Store.schemaVersion))")
        }
        if version < 1 {
            try transaction {
                try exec("""
                    CREATE TABLE IF NOT EXISTS alarms (
                        id TEXT PRIMARY KEY NOT NULL,
                        app_id TEXT NOT NULL,
                        data BLOB NOT NULL)
                    """)
                try exec("CREATE INDEX IF NOT EXISTS alarms_app ON alarms(app_id)")
                try exec("""
                    CREATE TABLE IF NOT EXISTS authorizations (
                        app_id TEXT PRIMARY KEY NOT NULL,
                        state TEXT NOT NULL)
                    """)
                try exec("PRAGMA user_version = 1")
            }
        }
        if version < 2 {
            // v2: facts about the daemon itself, such as the clock anchor.
            try transaction {
                try exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
                try exec("PRAGMA user_version = 2")
            }
        }
    }

    func meta(_ key: String) throws -> String? {
        var v: String?
        try query("SELECT value FROM meta WHERE key = ?", [.text(key)]) { v = String(cString: sqlite3_column_text($0, 0)) }
        return v
    }

    func setMeta(_ key: String, _ value: String) throws {
        try transaction { try run("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [.text(key), .text(value)]) }
    }

    // MARK: reading

    func loadAlarms() throws -> (alarms: [Alarm], skipped: Int) {
        var out: [Alarm] = []
        var skipped = 0
        try query("SELECT id, data FROM alarms") { stmt in
            let bytes = sqlite3_column_blob(stmt, 1)
            let n = Int(sqlite3_column_bytes(stmt, 1))
            let data = bytes.map { Data(bytes: $0, count: n) } ?? Data()
            if let a = try? decoder.decode(Alarm.self, from: data) {
                out.append(a)
            } else {
                skipped += 1
                Log.error("store: alarm \(String(cString: sqlite3_column_text(stmt, 0))) is unreadable; kept in the database, not loaded")
            }
        }
        return (out, skipped)
    }

    func loadAuthorizations() throws -> [String: AuthorizationState] {
        var out: [String: AuthorizationState] = [:]
        try query("SELECT app_id, state FROM authorizations") { stmt in
            let app = String(cString: sqlite3_column_text(stmt, 0))
            if let s = AuthorizationState(rawValue: String(cString: sqlite3_column_text(stmt, 1))) { out[app] = s }
        }
        return out
    }

    // MARK: writing

    /// Writes a whole mutation atomically; throws (and writes nothing) on any failure.
    func commit(_ m: Mutation) throws {
        try commit([m])
    }

    /// Writes several mutations in one transaction (one fsync): all of them or, on any failure, none.
    func commit(_ batch: [Mutation]) throws {
        let batch = batch.filter { !$0.isEmpty }
        guard !batch.isEmpty else { return }
        try transaction {
            for m in batch { try write(m) }
        }
    }

    private func write(_ m: Mutation) throws {
        for a in m.upserts {
            let data = try encoder.encode(a)
            try run("INSERT OR REPLACE INTO alarms (id, app_id, data) VALUES (?, ?, ?)", [.text(a.id), .text(a.appId), .blob(data)])
        }
        for r in m.removals {
            try run("DELETE FROM alarms WHERE id = ?", [.text(r.alarm.id)])
        }
        for (app, state) in m.authorizations {
            try run("INSERT OR REPLACE INTO authorizations (app_id, state) VALUES (?, ?)", [.text(app), .text(state.rawValue)])
        }
    }

    // MARK: SQLite plumbing

    private enum Bind {
        case text(String)
        case blob(Data)
    }

    private func transaction(_ body: () throws -> Void) throws {
        try exec("BEGIN IMMEDIATE")
        do {
            try body()
            try exec("COMMIT")
        } catch {
            _ = try? exec("ROLLBACK")
            throw error
        }
    }

    private func exec(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &err) != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(err)
            throw Failure(description: "\(sql.prefix(40)): \(msg)")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw Failure(description: "prepare \(sql.prefix(40)): \(String(cString: sqlite3_errmsg(db)))")
        }
        return stmt
    }

    private func bind(_ binds: [Bind], to stmt: OpaquePointer) {
        for (i, b) in binds.enumerated() {
            let idx = Int32(i + 1)
            switch b {
            case .text(let s): sqlite3_bind_text(stmt, idx, s, -1, alarmd_sqlite_transient())
            case .blob(let d):
                _ = d.withUnsafeBytes { sqlite3_bind_blob(stmt, idx, $0.baseAddress, Int32(d.count), alarmd_sqlite_transient()) }
            }
        }
    }

    private func run(_ sql: String, _ binds: [Bind]) throws {
        let stmt = try prepare(sql)
        defer { sqlite3_finalize(stmt) }
        bind(binds, to: stmt)
        guard sqlite3_step(stmt) == SQLITE_DONE else {
            throw Failure(description: "\(sql.prefix(40)): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    private func query(_ sql: String, _ binds: [Bind] = [], _ row: (OpaquePointer) throws -> Void) throws {
        let stmt = try prepare(sql)
        defer { sqlite3_finalize(stmt) }
        bind(binds, to: stmt)
        while true {
            let r = sqlite3_step(stmt)
            if r == SQLITE_DONE { return }
            guard r == SQLITE_ROW else { throw Failure(description: "\(sql.prefix(40)): \(String(cString: sqlite3_errmsg(db)))") }
            try row(stmt)
        }
    }

    private func scalarInt(_ sql: String) throws -> Int32 {
        var v: Int32 = 0
        try query(sql) { v = sqlite3_column_int($0, 0) }
        return v
    }
}
