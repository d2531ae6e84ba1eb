// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSQLite
import Dispatch
import FoundationEssentials
import SystemFiles

/// The durable store: one SQLite database in WAL mode. Every mutation is one transaction, committed
/// with `synchronous=FULL` before the method that caused it replies.
///
/// Schema v3 keeps each alarm as one row of plain columns — `Alarm.Record`, the id as its 16 bytes,
/// the configuration's rarely needed fields as the compact `extras` bytes (NULL when all are at
/// their defaults) — so that loading 100,000 alarms decodes no JSON and builds no dictionaries.
/// Rows of schema v2 (JSON) are converted once, in one transaction; rows that cannot be read are
/// kept, in `alarms_v2_unreadable`, and reported at every start.
///
/// WAL checkpoints never run inside a commit (`wal_autocheckpoint` is off): `checkpointIfNeeded()`,
/// called after every commit, hands them to a thread of their own with a connection of its own
/// once enough frames have piled up, and returns at once. Only under a steady stream of commits
/// does one commit in many copy the last frames itself (`restartFrames`), to bound the WAL.
///
/// The daemon's commits run on the store writer's thread (`StoreWriter`), its few other writes (the
/// clock anchor, the output override, the recovery record) on the event loop's: every entry point
/// holds `lock` for its whole length, so one of them waits at most for the commit under way, and
/// no two transactions, statement-cache or WAL-count updates ever interleave. That is why the class
/// may be `@unchecked Sendable`: all its mutable state (`db`, `statements`, the WAL counts) is only
/// touched with `lock` held (the WAL hook runs inside `commit`, under it).
final class Store: @unchecked Sendable {
    static let schemaVersion: Int32 = 3
    /// WAL frames (pages) not yet in the database that make a checkpoint worth starting.
    static let checkpointFrames = 512
    /// Frames since the WAL last started over at which a commit first copies what is left. The
    /// checkpoint thread copies frames while commits go on, but the WAL starts over only when a
    /// commit finds every frame copied: under a steady stream of commits that may never happen, and
    /// the WAL would grow without bound (and recovery after a crash with it). Then one commit in
    /// so many catches up itself — the frames since the thread's last checkpoint — and starts it over.
    static let restartFrames = 4 * checkpointFrames
    /// The WAL file is cut back to this many bytes when it restarts after a checkpoint.
    static let walSizeLimit = 4 << 20

    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// SQLite's primary result code, when SQLite failed.
        var code: Int32 = SQLITE_OK

        /// Whether SQLite found the file itself unusable, rather than failing to use it for a moment.
        var isDamage: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    }

    /// Held by every entry point for its whole length (`locked`); none calls another.
    private let lock = Lock()
    private var db: OpaquePointer?
    let path: String
    private var statements: [String: OpaquePointer] = [:]
    private let checkpointer: Checkpointer
    /// Frames in the WAL after the last commit, as the WAL hook reported them.
    private(set) var walFrames = 0
    /// How many of those a finished checkpoint has copied into the database.
    private var checkpointedFrames = 0
    /// Uncopied frames at which a commit starts a checkpoint.
    private let checkpointAfter: Int
    /// Checkpoints started on the checkpoint thread so far, and commits that caught up themselves.
    private(set) var checkpointsStarted = 0
    private(set) var catchUps = 0

    /// `$XDG_STATE_HOME/alarmd/alarmd.sqlite`, default `~/.local/state/alarmd/`.
    static func defaultDirectory() -> String {
        let env = processEnvironment()
        if let s = env["XDG_STATE_HOME"], s.hasPrefix("/") { return s + "/alarmd" }
        let home = homeDirectory()
        return home + "/.local/state/alarmd"
    }

    /// `checkpointAfter`: WAL frames not yet in the database at which a commit starts a checkpoint.
    init(directory: String, checkpointAfter: Int = Store.checkpointFrames) throws {
        self.checkpointAfter = checkpointAfter
        try makeDirectories(directory, mode: 0o700)
        path = directory + "/alarmd.sqlite"
        checkpointer = Checkpointer(path: path)
        let opened = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        guard opened == SQLITE_OK else {
            throw Failure(description: "cannot open \(path): \(String(cString: sqlite3_errmsg(db)))", code: opened & 0xff)
        }
        sqlite3_busy_timeout(db, 5000)
        do {
            try exec("PRAGMA journal_mode=WAL")
            try exec("PRAGMA synchronous=FULL")
            try exec("PRAGMA wal_autocheckpoint=0")
            try exec("PRAGMA cache_size=-256")
            try exec("PRAGMA journal_size_limit=\(Store.walSizeLimit)")
            // Replaces the automatic checkpointer (itself a WAL hook): only counts.
            sqlite3_wal_hook(db, { context, _, _, frames in
                Unmanaged<Store>.fromOpaque(context!).takeUnretainedValue().walGrew(to: Int(frames))
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
            try migrate()
        } catch {
            abandon()
            throw error
        }
    }

    /// Closing must leave a store that failed as it was: SQLite's last connection otherwise copies
    /// the WAL into the database file — one that may be damaged — and deletes the WAL, which may
    /// hold the user's latest alarms. Call it before letting go of a store that failed to load.
    func abandon() {
        locked { _ = alarmd_sqlite_checkpoint_on_close(db, 0) }
    }

    deinit { close() }

    /// Closes both connections; the last one out folds the WAL into the database and removes it,
    /// so a clean stop leaves one self-contained file. alarmd ends with exit(), which runs no
    /// deinit: the daemon calls this itself once its loop has stopped.
    func close() {
        locked {
            guard db != nil else { return }
            checkpointer.close()
            for stmt in statements.values { sqlite3_finalize(stmt) }
            statements.removeAll()
            let rc = sqlite3_close_v2(db)
            if rc != SQLITE_OK { Log.warning("store: closing \(path): \(String(cString: sqlite3_errstr(rc)))") }
            db = nil
        }
    }

    // MARK: schema

    private static let createAlarmTable = """
        CREATE TABLE alarm (
            id BLOB PRIMARY KEY NOT NULL,      -- the UUID's 16 bytes
            app_id TEXT NOT NULL,
            state INTEGER NOT NULL,            -- AlarmState.allCases index
            phase INTEGER NOT NULL,            -- Phase.allCases index
            measures_duration INTEGER NOT NULL, -- 0 unknown, 1 no, 2 yes
            fire_time INTEGER NOT NULL,        -- realtime µs (64-bit patterns)
            countdown_start INTEGER NOT NULL,
            countdown_total INTEGER NOT NULL,
            elapsed INTEGER NOT NULL,
            alerting_since INTEGER NOT NULL,
            schedule INTEGER NOT NULL,         -- AlarmConfiguration: schedule word, end date, flags
            schedule_end INTEGER NOT NULL,
            flags INTEGER NOT NULL,
            pre_alert INTEGER NOT NULL,
            post_alert INTEGER NOT NULL,
            volume_ramp INTEGER NOT NULL,
            warning_threshold INTEGER NOT NULL,
            title TEXT NOT NULL,
            extras BLOB,                       -- the other fields not at their defaults (AlarmCore Extras); NULL: none
            sound_error TEXT) WITHOUT ROWID
        """

    private func migrate() throws {
        let version = try scalarInt("PRAGMA user_version")
        if version > Store.schemaVersion {
            throw Failure(description: "\(path) has schema version \(version), newer than this alarmd (\(Store.schemaVersion))")
        }
        if version < 1 {
            // A new store starts at the current schema.
            try transaction {
                try exec(Store.createAlarmTable)
                try exec("CREATE TABLE IF NOT EXISTS authorizations (app_id TEXT PRIMARY KEY NOT NULL, state TEXT NOT NULL)")
                try exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
                try exec("PRAGMA user_version = \(Store.schemaVersion)")
            }
            return
        }
        if version < 2 {
            // v2: facts about the daemon itself, such as the clock anchor.
            try transaction {
                try exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
                try exec("PRAGMA user_version = 2")
            }
        }
        if version < 3 { try migrateToColumns() }
    }

    /// v3: alarms as columns (`alarm`) instead of JSON (`alarms`), every row in one transaction.
    /// Rows that do not decode stay as they were, in `alarms_v2_unreadable`.
    private func migrateToColumns() throws {
        let started = Date()
        var converted = 0, unreadable: [String] = []
        try transaction {
            try exec(Store.createAlarmTable)
            let reader = SchemaV2.Reader()
            // Rows one at a time, straight from SQLite's buffer into the new table.
            try query("SELECT id, data FROM alarms") { stmt in
                var data = Data()
                if let bytes = blob(stmt, 1), let base = bytes.baseAddress {
                    data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
                }
                guard let a = reader.alarm(from: data) else {
                    unreadable.append(text(stmt, 0))
                    Log.error("store: alarm \(text(stmt, 0)) is unreadable; kept in the database (alarms_v2_unreadable), not loaded")
                    return
                }
                try insert(a)
                converted += 1
            }
            if !unreadable.isEmpty {
                try exec("CREATE TABLE alarms_v2_unreadable (id TEXT PRIMARY KEY NOT NULL, app_id TEXT NOT NULL, data BLOB NOT NULL)")
                for id in unreadable {
                    try run("INSERT INTO alarms_v2_unreadable SELECT id, app_id, data FROM alarms WHERE id = ?", [.text(id)])
                }
            }
            try exec("DROP TABLE alarms")
            try exec("PRAGMA user_version = 3")
        }
        // The JSON took ten times the room: give it back (at start-up, once), WAL included.
        do {
            try exec("VACUUM")
            sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        } catch {
            Log.warning("store: not compacted after the conversion: \(error)")
        }
        Log.info("store: schema v2 → v3: \(converted) alarms converted\(unreadable.isEmpty ? "" : ", \(unreadable.count) unreadable kept") in \(fixed(Date().timeIntervalSince(started), digits: 2)) s")
    }

    func meta(_ key: String) throws -> String? {
        return try locked {
            var v: String?
            try query("SELECT value FROM meta WHERE key = ?", [.text(key)]) { v = text($0, 0) }
            return v
        }
    }

    /// `meta(key)` for a fact alarmd can do without: a failure to read it is logged, and reads as absent.
    func metaIfReadable(_ key: String) -> String? {
        do {
            return try meta(key)
        } catch {
            Log.error("store: cannot read '\(key)': \(error)")
            return nil
        }
    }

    func setMeta(_ key: String, _ value: String) throws {
        try setMeta([(key, value)])
    }

    /// Several facts in one transaction.
    func setMeta(_ entries: [(String, String)]) throws {
        try locked {
            try transaction {
                for (key, value) in entries { try run("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [.text(key), .text(value)]) }
            }
            startCheckpoint()
        }
    }

    /// Forgets a fact, durably like the rest.
    func removeMeta(_ key: String) throws {
        try locked {
            try transaction { try run("DELETE FROM meta WHERE key = ?", [.text(key)]) }
            startCheckpoint()
        }
    }

    // MARK: reading

    private static let columns = """
        id, app_id, state, phase, measures_duration, fire_time, countdown_start, countdown_total, elapsed, alerting_since,
        schedule, schedule_end, flags, pre_alert, post_alert, volume_ramp, warning_threshold, title, extras, sound_error
        """

    /// Every readable alarm, and how many rows could not be read (kept in the database, not loaded).
    /// Alarms of one app share one `appId` string.
    func loadAlarms() throws -> (alarms: SlotStore, skipped: Int) {
        return try locked {
            // Chunked as the engine keeps them, which takes this storage over as it is.
            var out = SlotStore()
            var apps: [String: String] = [:]
            var skipped = 0
            try query("SELECT \(Store.columns) FROM alarm") { stmt in
                let app = text(stmt, 1)
                let shared = apps[app] ?? app
                apps[app] = shared
                let idBytes = blob(stmt, 0)
                guard let key = idBytes.flatMap(AlarmKey.init(bytes:)),
                      let a = Alarm(record: Alarm.Record(
                        key: key, appId: shared, state: UInt8(clamping: int(stmt, 2)), phase: UInt8(clamping: int(stmt, 3)),
                        measuresDuration: UInt8(clamping: int(stmt, 4)), fireTime: uint(stmt, 5), countdownStart: uint(stmt, 6),
                        countdownTotal: uint(stmt, 7), elapsed: uint(stmt, 8), alertingSince: uint(stmt, 9),
                        schedule: uint(stmt, 10), scheduleEnd: uint(stmt, 11), flags: UInt16(clamping: int(stmt, 12)),
                        preAlert: UInt32(clamping: int(stmt, 13)), postAlert: UInt32(clamping: int(stmt, 14)),
                        volumeRamp: UInt32(clamping: int(stmt, 15)), warningThreshold: UInt32(clamping: int(stmt, 16)),
                        title: text(stmt, 17), extras: blob(stmt, 18).map { [UInt8]($0) } ?? [],
                        soundError: sqlite3_column_type(stmt, 19) == SQLITE_NULL ? nil : text(stmt, 19)))
                else {
                    skipped += 1
                    let id = idBytes.map { $0.hex } ?? "(no id)"
                    Log.error("store: alarm \(id) is unreadable; kept in the database, not loaded")
                    return
                }
                out.append(a)
            }
            if try scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'alarms_v2_unreadable'") > 0 {
                try query("SELECT id FROM alarms_v2_unreadable") { stmt in
                    skipped += 1
                    Log.error("store: alarm \(text(stmt, 0)) (schema v2) is unreadable; kept in the database, not loaded")
                }
            }
            return (out, skipped)
        }
    }

    func loadAuthorizations() throws -> [String: AuthorizationState] {
        return try locked {
            var out: [String: AuthorizationState] = [:]
            try query("SELECT app_id, state FROM authorizations") { stmt in
                if let s = AuthorizationState(rawValue: text(stmt, 1)) { out[text(stmt, 0)] = s }
            }
            return out
        }
    }

    // MARK: writing

    /// Writes a whole mutation atomically; throws (and writes nothing) on any failure.
    func commit(_ m: Mutation) throws {
        try commit([m])
    }

    /// Writes several mutations in one transaction (one fsync): all of them or, on any failure, none.
    func commit(_ batch: [Mutation]) throws {
        try locked {
            let batch = batch.filter { !$0.isEmpty }
            guard !batch.isEmpty else { return }
            if walFrames >= max(Store.restartFrames, checkpointAfter) { catchUp() }
            try transaction {
                for m in batch { try write(m) }
            }
            startCheckpoint()
        }
    }

    private func write(_ m: Mutation) throws {
        for a in m.upserts { try insert(a) }
        for r in m.removals {
            try r.alarm.key.withBytes { try run("DELETE FROM alarm WHERE id = ?", [.blob($0)]) }
        }
        for (app, state) in m.authorizations {
            try run("INSERT OR REPLACE INTO authorizations (app_id, state) VALUES (?, ?)", [.text(app), .text(state.rawValue)])
        }
    }

    private func insert(_ a: Alarm) throws {
        let r = a.record
        func i(_ v: UInt64) -> Bind { .int(Int64(bitPattern: v)) }
        try r.key.withBytes { id in
            try r.extras.withUnsafeBytes { extras in
                try run("INSERT OR REPLACE INTO alarm (\(Store.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                    .blob(id), .text(r.appId), i(UInt64(r.state)), i(UInt64(r.phase)), i(UInt64(r.measuresDuration)),
                    i(r.fireTime), i(r.countdownStart), i(r.countdownTotal), i(r.elapsed), i(r.alertingSince),
                    i(r.schedule), i(r.scheduleEnd), i(UInt64(r.flags)), i(UInt64(r.preAlert)), i(UInt64(r.postAlert)),
                    i(UInt64(r.volumeRamp)), i(UInt64(r.warningThreshold)), .text(r.title),
                    r.extras.isEmpty ? .null : .blob(extras), r.soundError.map { .text($0) } ?? .null,
                ])
            }
        }
    }

    // MARK: WAL checkpoints

    private func walGrew(to frames: Int) {
        collectCheckpoint()
        // Fewer frames than before: the WAL restarted from its beginning after a checkpoint.
        if frames < walFrames { checkpointedFrames = 0 }
        walFrames = frames
    }

    private func collectCheckpoint() {
        guard let done = checkpointer.takeResult() else { return }
        // A result older than a WAL restart counts for nothing.
        checkpointedFrames = done <= walFrames ? done : 0
    }

    /// Starts a PASSIVE checkpoint on the checkpoint thread when at least `minimumFrames` frames of
    /// the WAL (default: the store's `checkpointAfter`) have not been copied into the database yet
    /// and none is running; returns at once, and whether it started one. Every commit calls it; call
    /// it at idle too (with a smaller minimum, e.g. 1) to leave a short WAL behind.
    @discardableResult
    func checkpointIfNeeded(minimumFrames: Int? = nil) -> Bool {
        locked { startCheckpoint(minimumFrames: minimumFrames) }
    }

    /// `checkpointIfNeeded`, with the lock already held (after a commit).
    @discardableResult
    private func startCheckpoint(minimumFrames: Int? = nil) -> Bool {
        collectCheckpoint()
        guard walFrames - checkpointedFrames >= max(1, minimumFrames ?? checkpointAfter), checkpointer.start() else { return false }
        checkpointsStarted += 1
        return true
    }

    /// Copies every frame left into the database here and now (after the checkpoint thread's), so
    /// that the next commit starts the WAL over.
    private func catchUp() {
        checkpointer.wait()
        collectCheckpoint()
        var log: Int32 = 0, done: Int32 = 0
        if sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &done) == SQLITE_OK {
            checkpointedFrames = Int(done)
        } else {
            Log.warning("store: checkpoint failed: \(String(cString: sqlite3_errmsg(db)))")
        }
        catchUps += 1
    }

    /// Waits for a running checkpoint to finish (tests).
    func waitForCheckpoint() {
        locked {
            checkpointer.wait()
            collectCheckpoint()
        }
    }

    // MARK: SQLite plumbing

    /// Runs `body` holding the store's lock.
    private func locked<T: Sendable, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body() }
    }

    private enum Bind {
        case text(String)
        case blob(UnsafeRawBufferPointer)
        case int(Int64)
        case null
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
        let rc = sqlite3_exec(db, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(err)
            throw Failure(description: "\(sql.prefix(40)): \(msg)", code: rc & 0xff)
        }
    }

    /// A prepared statement, kept for the next use of the same SQL.
    private func prepare(_ sql: String) throws -> OpaquePointer {
        if let stmt = statements[sql] { return stmt }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw Failure(description: "prepare \(sql.prefix(40)): \(String(cString: sqlite3_errmsg(db)))", code: rc & 0xff)
        }
        statements[sql] = stmt
        return stmt
    }

    private func bind(_ binds: [Bind], to stmt: OpaquePointer) {
        for (i, b) in binds.enumerated() {
            let idx = Int32(i + 1)
            switch b {
            case .text(let s): sqlite3_bind_text(stmt, idx, s, -1, alarmd_sqlite_transient())
            case .blob(let d): sqlite3_bind_blob(stmt, idx, d.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(d.count), alarmd_sqlite_transient())
            case .int(let v): sqlite3_bind_int64(stmt, idx, v)
            case .null: sqlite3_bind_null(stmt, idx)
            }
        }
    }

    private func run(_ sql: String, _ binds: [Bind]) throws {
        let stmt = try prepare(sql)
        defer {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
        }
        bind(binds, to: stmt)
        let rc = sqlite3_step(stmt)
        guard rc == SQLITE_DONE else {
            throw Failure(description: "\(sql.prefix(40)): \(String(cString: sqlite3_errmsg(db)))", code: rc & 0xff)
        }
    }

    private func query(_ sql: String, _ binds: [Bind] = [], _ row: (OpaquePointer) throws -> Void) throws {
        var stmt: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard prepared == SQLITE_OK, let stmt else {
            throw Failure(description: "prepare \(sql.prefix(40)): \(String(cString: sqlite3_errmsg(db)))", code: prepared & 0xff)
        }
        defer { sqlite3_finalize(stmt) }
        bind(binds, to: stmt)
        while true {
            let r = sqlite3_step(stmt)
            if r == SQLITE_DONE { return }
            guard r == SQLITE_ROW else {
                throw Failure(description: "\(sql.prefix(40)): \(String(cString: sqlite3_errmsg(db)))", code: r & 0xff)
            }
            try row(stmt)
        }
    }

    private func scalarInt(_ sql: String) throws -> Int32 {
        var v: Int32 = 0
        try query(sql) { v = sqlite3_column_int($0, 0) }
        return v
    }
}

// Column readers.
private func text(_ stmt: OpaquePointer, _ i: Int32) -> String {
    guard let p = sqlite3_column_text(stmt, i) else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, i))), as: UTF8.self)
}

/// The bytes of a BLOB column, valid until the statement moves on; nil for NULL.
private func blob(_ stmt: OpaquePointer, _ i: Int32) -> UnsafeRawBufferPointer? {
    guard sqlite3_column_type(stmt, i) != SQLITE_NULL else { return nil }
    return UnsafeRawBufferPointer(start: sqlite3_column_blob(stmt, i), count: Int(sqlite3_column_bytes(stmt, i)))
}

private func int(_ stmt: OpaquePointer, _ i: Int32) -> Int64 { sqlite3_column_int64(stmt, i) }

private func uint(_ stmt: OpaquePointer, _ i: Int32) -> UInt64 { UInt64(bitPattern: sqlite3_column_int64(stmt, i)) }

/// Checkpoints the WAL on a thread of its own, through a connection of its own, so that no commit —
/// and no method call — waits for one: a PASSIVE checkpoint copies what it can without taking
/// the write lock, and the next commit restarts the WAL once everything is copied.
private final class Checkpointer: @unchecked Sendable {
    private let path: String
    private let queue = DispatchQueue(label: "org.alarmd.checkpoint")
    private let lock = Lock()
    /// Guarded by `lock`.
    private var running = false
    private var finished: Int?
    /// Used on `queue` only.
    private var db: OpaquePointer?

    init(path: String) { self.path = path }

    /// Starts a checkpoint unless one is running.
    func start() -> Bool {
        let idle = lock.withLock {
            if running { return false }
            running = true
            return true
        }
        guard idle else { return false }
        queue.async { self.checkpoint() }
        return true
    }

    /// The frames the last finished checkpoint copied, once.
    func takeResult() -> Int? {
        lock.withLock {
            defer { finished = nil }
            return finished
        }
    }

    func wait() { queue.sync {} }

    func close() {
        queue.sync {
            sqlite3_close_v2(db)
            db = nil
        }
    }

    private func checkpoint() {
        var copied: Int?
        if db == nil {
            if sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK {
                sqlite3_exec(db, "PRAGMA synchronous=FULL; PRAGMA cache_size=-256", nil, nil, nil)
            } else {
                Log.warning("store: no connection for checkpoints: \(String(cString: sqlite3_errmsg(db)))")
                sqlite3_close_v2(db)
                db = nil
            }
        }
        if let db {
            var log: Int32 = 0, done: Int32 = 0
            let rc = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &done)
            if rc == SQLITE_OK || rc == SQLITE_BUSY {
                copied = Int(done)
            } else {
                Log.warning("store: checkpoint failed: \(String(cString: sqlite3_errmsg(db)))")
            }
        }
        lock.withLock {
            running = false
            finished = copied
        }
    }
}
