// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
@testable import AlarmCore
import CSQLite
import Foundation
import Testing

/// A database opened beside the store, to write what an older alarmd wrote and to look at what the
/// store left.
final class RawDatabase {
    private var db: OpaquePointer?

    init(_ path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw StoreTestFailure("cannot open \(path)")
        }
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close_v2(db) }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw StoreTestFailure("\(sql): \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// Runs `sql` with text and blob parameters (`Data` binds as a blob).
    func run(_ sql: String, _ params: [Any]) throws {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { throw StoreTestFailure("prepare \(sql)") }
        defer { sqlite3_finalize(stmt) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, p) in params.enumerated() {
            switch p {
            case let s as String: sqlite3_bind_text(stmt, Int32(i + 1), s, -1, transient)
            case let d as Data: _ = d.withUnsafeBytes { sqlite3_bind_blob(stmt, Int32(i + 1), $0.baseAddress, Int32(d.count), transient) }
            case let n as Int: sqlite3_bind_int64(stmt, Int32(i + 1), Int64(n))
            default: throw StoreTestFailure("cannot bind \(p)")
            }
        }
        guard sqlite3_step(stmt) == SQLITE_DONE else { throw StoreTestFailure("\(sql): \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// Each row of `sql`, its columns as text (blobs as their bytes' text, NULL as "NULL").
    func rows(_ sql: String) throws -> [[String]] {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { throw StoreTestFailure("prepare \(sql)") }
        defer { sqlite3_finalize(stmt) }
        var out: [[String]] = []
        while sqlite3_step(stmt) == SQLITE_ROW {
            out.append((0..<sqlite3_column_count(stmt)).map { i in
                guard sqlite3_column_type(stmt, i) != SQLITE_NULL else { return "NULL" }
                let n = Int(sqlite3_column_bytes(stmt, i))
                return String(decoding: UnsafeRawBufferPointer(start: sqlite3_column_blob(stmt, i), count: n), as: UTF8.self)
            })
        }
        return out
    }

    /// Makes the schema of alarmd's v2 store, as its `migrate` left it.
    func createV2Schema() throws {
        try exec("PRAGMA journal_mode=WAL")
        try exec("CREATE TABLE alarms (id TEXT PRIMARY KEY NOT NULL, app_id TEXT NOT NULL, data BLOB NOT NULL)")
        try exec("CREATE INDEX alarms_app ON alarms(app_id)")
        try exec("CREATE TABLE authorizations (app_id TEXT PRIMARY KEY NOT NULL, state TEXT NOT NULL)")
        try exec("CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
        try exec("PRAGMA user_version = 2")
    }

    func insertV2(id: String, app: String, data: Data) throws {
        try run("INSERT INTO alarms (id, app_id, data) VALUES (?, ?, ?)", [id, app, data])
    }
}

struct StoreTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A fresh directory for a store, removed afterwards.
final class StoreDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "alarmd-store-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var database: String { path + "/alarmd.sqlite" }
}

@Suite struct StoreMigrationTests {
    /// A v2 store written by the alarmd of schema v2 (`V2Fixture`) opens as v3 with every alarm as it
    /// was — each Alarm1 property, the state the engine keeps, and what every Update, state change
    /// and the passing of time make of it — and with its unreadable rows kept, counted and reported.
    @Test func v2StoreMigratesEveryAlarmIdentically() throws {
        let dir = StoreDirectory()
        let exploded = V2Fixture.rows[1].json.replacingOccurrences(of: #""state":"paused""#, with: #""state":"exploded""#)
        #expect(exploded != V2Fixture.rows[1].json)
        do {
            let raw = try RawDatabase(dir.database)
            try raw.createV2Schema()
            for row in V2Fixture.rows { try raw.insertV2(id: row.id, app: row.app, data: Data(row.json.utf8)) }
            try raw.insertV2(id: "0b6c2e2a-4f4e-4c41-9d2b-00000000dead", app: "", data: Data("{not json".utf8))
            try raw.insertV2(id: "0b6c2e2a-4f4e-4c41-9d2b-00000000beef", app: "org.example.Clock", data: Data(exploded.utf8))
            try raw.run("INSERT INTO authorizations (app_id, state) VALUES (?, ?)", ["org.example.Clock", "authorized"])
            try raw.run("INSERT INTO authorizations (app_id, state) VALUES (?, ?)", ["org.example.Denied", "denied"])
            try raw.run("INSERT INTO meta (key, value) VALUES (?, ?)", ["clock_anchor", "1 2 boot"])
        }
        for open in 1...2 {
            let store = try Store(directory: dir.path)
            let (alarms, skipped) = try store.loadAlarms()
            #expect(skipped == 2, "open \(open): the two rows v2 could not read are reported")
            #expect(alarms.count == V2Fixture.rows.count)
            for a in alarms {
                #expect(V2Probes.fingerprint(a, now: V2Fixture.now) == V2Fixture.fingerprints[a.id], "\(a.id)")
                #expect(V2Probes.enabledIsOn(a), "\(a.id) comes back on")
            }
            for (k, lines) in V2Probes.probes(Array(alarms), now: V2Fixture.now) {
                #expect(lines.map(V2Probes.digest) == V2Fixture.probeDigests[k], "\(k): \(lines.joined(separator: "\n"))")
            }
            #expect(try store.loadAuthorizations() == ["org.example.Clock": .authorized, "org.example.Denied": .denied])
            #expect(try store.meta("clock_anchor") == "1 2 boot")
        }
        let raw = try RawDatabase(dir.database)
        #expect(try raw.rows("PRAGMA user_version") == [["3"]])
        #expect(try raw.rows("SELECT count(*) FROM alarm") == [["\(V2Fixture.rows.count)"]])
        // The unreadable rows stay byte for byte; the converted ones left the JSON table.
        #expect(try raw.rows("SELECT id, app_id, data FROM alarms_v2_unreadable ORDER BY id") == [
            ["0b6c2e2a-4f4e-4c41-9d2b-00000000beef", "org.example.Clock", exploded],
            ["0b6c2e2a-4f4e-4c41-9d2b-00000000dead", "", "{not json"],
        ])
        #expect(try raw.rows("SELECT name FROM sqlite_master WHERE name IN ('alarms', 'alarms_app')").isEmpty)
    }

    /// With every v2 row readable, the JSON table goes altogether, and the file shrinks.
    @Test func readableV2StoreLeavesNoJSONBehind() throws {
        let dir = StoreDirectory()
        do {
            let raw = try RawDatabase(dir.database)
            try raw.createV2Schema()
            for row in V2Fixture.rows.prefix(3) { try raw.insertV2(id: row.id, app: row.app, data: Data(row.json.utf8)) }
        }
        let (alarms, skipped) = try Store(directory: dir.path).loadAlarms()
        #expect(alarms.count == 3 && skipped == 0)
        let raw = try RawDatabase(dir.database)
        #expect(try raw.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == [["alarm"], ["authorizations"], ["meta"]])
        #expect(try raw.rows("PRAGMA freelist_count") == [["0"]], "the room the JSON took is given back")
    }

    /// A v3 row no alarm can have (a state that does not exist, a broken extras blob) is skipped,
    /// counted and kept; the others load.
    @Test func unreadableV3RowsAreKeptAndCounted() throws {
        let dir = StoreDirectory()
        let store = try Store(directory: dir.path)
        let e = AlarmEngine(clock: ManualClock(V2Fixture.now), timeZone: V2Probes.zone)
        var m = Mutation()
        for c: [String: Value] in [["title": .string("a"), "duration": .uint32(60)], ["title": .string("b"), "duration": .uint32(90)],
                                   ["title": .string("c"), "duration": .uint32(120), "subtitle": .string("x")]] {
            let s = try e.plan(.schedule(id: "", configuration: c), caller: .user)
            e.apply(s)
            m.upserts += s.upserts
        }
        try store.commit(m)
        let raw = try RawDatabase(dir.database)
        try raw.exec("UPDATE alarm SET state = 9 WHERE title = 'a'")
        try raw.exec("UPDATE alarm SET extras = x'01ff' WHERE title = 'c'")
        let (alarms, skipped) = try store.loadAlarms()
        #expect(alarms.map(\.config.title) == ["b"] && skipped == 2)
        #expect(try raw.rows("SELECT count(*) FROM alarm") == [["3"]])
    }
}
