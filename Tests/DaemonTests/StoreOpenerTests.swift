// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
import AlarmCore
import CSQLite
import Foundation
import Testing
import TestSupport

/// Opening the store in-process: the check changes nothing it looks at, a damaged store is moved
/// aside whole under a name nothing else has, and only the file's own faults count as damage.
@Suite struct StoreOpenerTests {
    static let now: UInt64 = 1_796_106_600_000_000

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func files(_ dir: StoreDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    /// A store of `count` alarms, left as a crash leaves it: the WAL and its index beside the
    /// database, copied while the store is open and idle.
    func crashedStore(_ count: Int) throws -> StoreDirectory {
        let live = StoreDirectory(), copy = StoreDirectory()
        let store = try Store(directory: live.path, checkpointAfter: .max)
        let e = AlarmEngine(clock: ManualClock(StoreOpenerTests.now), timeZone: Zone.utc)
        for i in 0..<count {
            let m = try e.plan(.schedule(id: "", configuration: ["title": .string("Tea \(i)"), "duration": .uint32(3_600)]), caller: .user)
            e.apply(m)
            try store.commit(m)
        }
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: live.database + suffix, toPath: copy.database + suffix)
        }
        return copy
    }

    @Test func theCheckChangesNotAByte() throws {
        let dir = try crashedStore(40)
        let before = ["", "-wal", "-shm"].map { bytes(dir.database + $0) }
        #expect(before.allSatisfy { ($0?.count ?? 0) > 0 })
        #expect(StoreProbe.check(dir.database, supportedSchema: Store.schemaVersion) == .sound)
        #expect(["", "-wal", "-shm"].map { bytes(dir.database + $0) } == before)
        #expect(files(dir) == ["alarmd.sqlite", "alarmd.sqlite-shm", "alarmd.sqlite-wal"])
        let opened = try StoreOpener.open(directory: dir.path)
        #expect(opened.alarms.count == 40 && opened.recovery == nil)
    }

    /// SQLite makes an empty WAL for a WAL-mode database that has none; the probe's is removed, the
    /// user's files are not.
    @Test func theCheckLeavesNoFileBehind() throws {
        let dir = StoreDirectory()
        _ = try StoreOpener.open(directory: dir.path)
        #expect(files(dir) == ["alarmd.sqlite"], "closed cleanly, the store is one file")
        #expect(StoreProbe.check(dir.database, supportedSchema: Store.schemaVersion) == .sound)
        #expect(files(dir) == ["alarmd.sqlite"])
    }

    /// Another process that has the store open (the user's sqlite3) makes the check share the WAL
    /// index instead of holding the file alone; it neither waits for its busy timeout nor fails.
    @Test func aStoreOpenElsewhereIsStillChecked() throws {
        let dir = StoreDirectory()
        let other = try Store(directory: dir.path)
        _ = try other.loadAlarms()
        let started = Date()
        #expect(StoreProbe.check(dir.database, supportedSchema: Store.schemaVersion) == .sound)
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func aDamagedStoreIsMovedAsideWholeAndAFreshOneServes() throws {
        let dir = StoreDirectory()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) })
        let wal = Data("the WAL may hold the latest alarms".utf8), shm = Data(repeating: 0x5a, count: 32_768)
        try garbage.write(to: URL(fileURLWithPath: dir.database))
        try wal.write(to: URL(fileURLWithPath: dir.database + "-wal"))
        try shm.write(to: URL(fileURLWithPath: dir.database + "-shm"))
        let opened = try StoreOpener.open(directory: dir.path, now: { StoreOpenerTests.now })
        let kept = dir.database + ".broken-20261201T063000Z"
        let recovery = try #require(opened.recovery)
        #expect(recovery == StoreRecovery(reason: "corrupt", detail: "file is not a database", keptPath: kept,
                                          time: "2026-12-01T06:30:00Z", hint: recovery.hint))
        #expect(recovery.hint.contains("sqlite3 \(kept) .recover"))
        #expect(bytes(kept) == garbage && bytes(kept + "-wal") == wal && bytes(kept + "-shm") == shm)
        #expect(opened.alarms.isEmpty)
        #expect(!StoreRecovery.wasShown(in: opened.store))

        // The fresh store remembers how it began; a second damaged store in the same second gets a name of its own.
        let again = try StoreOpener.open(directory: dir.path)
        #expect(again.recovery == recovery)
        try StoreRecovery.markShown(in: again.store, at: StoreOpenerTests.now)
        #expect(StoreRecovery.wasShown(in: again.store))
        try garbage.write(to: URL(fileURLWithPath: dir.database))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dir.database + suffix) }
        let second = try StoreOpener.open(directory: dir.path, now: { StoreOpenerTests.now })
        #expect(second.recovery?.keptPath == kept + "-2")
        #expect(bytes(kept) == garbage && bytes(kept + "-wal") == wal, "the first kept store is untouched")
        #expect(!StoreRecovery.wasShown(in: second.store), "a new recovery is shown anew")
    }

    /// A store cut short after a clean stop has no WAL; the one SQLite makes while finding that out
    /// is not kept as if it were the user's.
    @Test func aDamagedStoreIsKeptWithOnlyItsOwnFiles() throws {
        let dir = StoreDirectory()
        do {
            let store = try StoreOpener.open(directory: dir.path).store
            let e = AlarmEngine(clock: ManualClock(StoreOpenerTests.now), timeZone: Zone.utc)
            for i in 0..<200 {
                let m = try e.plan(.schedule(id: "", configuration: ["title": .string("Tea \(i) for a longer title"), "duration": .uint32(3_600)]), caller: .user)
                e.apply(m)
                try store.commit(m)
            }
        }
        #expect(files(dir) == ["alarmd.sqlite"])
        #expect(truncate(dir.database, 4096) == 0)
        let opened = try StoreOpener.open(directory: dir.path, now: { StoreOpenerTests.now })
        #expect(opened.recovery?.reason == "truncated", "\(String(describing: opened.recovery))")
        #expect(files(dir).filter { $0.contains(".broken-") } == ["alarmd.sqlite.broken-20261201T063000Z"])
    }

    /// SQLite deletes a WAL it finds beside an empty or missing database; that WAL may hold every
    /// alarm (here all 40: nothing was checkpointed), so it is kept instead.
    @Test(arguments: ["empty", "missing"]) func aWALWithoutItsDatabaseIsKept(_ database: String) throws {
        let dir = try crashedStore(40)
        let wal = try #require(bytes(dir.database + "-wal"))
        if database == "empty" { try Data().write(to: URL(fileURLWithPath: dir.database)) } else { try FileManager.default.removeItem(atPath: dir.database) }
        let opened = try StoreOpener.open(directory: dir.path, now: { StoreOpenerTests.now })
        let kept = dir.database + ".broken-20261201T063000Z"
        #expect(opened.recovery?.reason == "truncated" && opened.recovery?.detail == "\(database), beside a WAL of \(wal.count) bytes")
        #expect(opened.recovery?.keptPath == kept)
        #expect(bytes(kept + "-wal") == wal)
        #expect(bytes(kept) == (database == "empty" ? Data() : nil))
    }

    @Test func aNewerSchemaIsADowngradeNotDamage() throws {
        let dir = StoreDirectory()
        _ = try StoreOpener.open(directory: dir.path)
        try RawDatabase(dir.database).exec("PRAGMA user_version = 9")
        let opened = try StoreOpener.open(directory: dir.path, now: { StoreOpenerTests.now })
        #expect(opened.recovery?.reason == "newer-schema" && opened.recovery?.detail == "schema 9 > 3")
        #expect(opened.recovery?.hint == "Reinstall the newer alarmd and rename it back to \(dir.database) to use it.")
    }

    /// Busy, locked, out of memory: not the file's fault, so never a reason to set the user's alarms aside.
    @Test func onlyTheFilesOwnFaultsAreDamage() {
        func verdict(_ code: Int32, _ extended: Int32? = nil) -> StoreProbe.Verdict {
            StoreProbe.classify(code, extended: extended ?? code, "said", header: [], fileSize: 4096)
        }
        #expect(verdict(SQLITE_NOTADB) == .damaged(StoreDamage(reason: .corrupt, detail: "said")))
        #expect(verdict(SQLITE_CORRUPT) == .damaged(StoreDamage(reason: .corrupt, detail: "said")))
        #expect(verdict(SQLITE_CANTOPEN) == .damaged(.unreadable("said")))
        #expect(verdict(SQLITE_IOERR, SQLITE_IOERR | 1 << 8) == .damaged(.unreadable("said")))
        for code in [SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM, SQLITE_FULL, SQLITE_INTERRUPT] {
            #expect(verdict(code) == .failed("said"), "\(code)")
        }
        #expect(verdict(SQLITE_IOERR, SQLITE_IOERR | 15 << 8) == .failed("said"), "a lock it could not take")
    }
}
