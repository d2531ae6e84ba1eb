// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

extension Harness {
    var storePath: String { state.path + "/state/alarmd.sqlite" }

    /// Ends the daemon and waits until the bus has forgotten it, leaving its files as they are:
    /// SIGTERM leaves one database file (its last connection copies the WAL in), `kill -9` leaves the
    /// WAL and its index beside it, as a crash or a power cut does.
    func stopDaemon(kill9: Bool) {
        if kill9 { daemon.kill9() } else { daemon.process.stop() }
        let probe = try? Client(address: bus.address)
        _ = eventually { !(probe?.nameHasOwner(managerName) ?? false) }
    }

    var storeRecovery: [String: String] {
        get throws {
            guard case .dict(_, _, let entries) = try client.property(managerPath, managerInterface, Contract.StoreRecovery.property) else {
                return ["": "not a dictionary"]
            }
            return Dictionary(entries.map { ($0.key.stringValue ?? "", $0.value.stringValue ?? "") }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// The notifications shown so far, of one category.
    func shown(_ category: String) -> [[String: Value]] {
        ((try? notifier?.notifications()) ?? []).filter { categoryHint(of: $0) == category }
    }
}

/// The `category` hint a notification was shown with.
func categoryHint(of n: [String: Value]) -> String {
    (n["hints"]?.unwrapped.vardictEntries ?? []).first { $0.0 == "category" }?.1.unwrapped.stringValue ?? ""
}

/// A file's bytes; a directory as its entries and their bytes.
func contents(_ path: String) -> [String: Data] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [:] }
    guard isDirectory.boolValue else { return ["": FileManager.default.contents(atPath: path) ?? Data()] }
    var out: [String: Data] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { out[name] = FileManager.default.contents(atPath: path + "/" + name) }
    return out
}

/// A bad store never blocks start-up: whatever is wrong with `alarmd.sqlite`, alarmd keeps it (with
/// its WAL and WAL index) under a timestamped name, starts on a fresh store, and says so once in the
/// log, in `StoreRecovery` and on the desktop.
@Suite(.serialized) struct StoreRecoveryTests {
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        /// Overwritten by random bytes of the same length.
        case garbage
        /// Only its first 4 KiB left, as a copy that stopped leaves it.
        case truncated
        /// Cut in the middle of its third page.
        case cutMidPage
        /// A directory where the file should be: what even root cannot read as a database.
        case directory
        /// `user_version` 4, as an alarmd of a later schema would leave it (written into the WAL).
        case newerSchema

        var testDescription: String { rawValue }

        var reason: StoreDamage.Reason {
            switch self {
            case .garbage: .corrupt
            case .truncated, .cutMidPage: .truncated
            case .directory: .unreadable
            case .newerSchema: .newerSchema
            }
        }
    }

    /// `STORE.broken-STAMP`, or `…-N` when that was taken.
    var keptName: Regex<(Substring, Substring, Substring, Substring?)> { #/^(.*)\.broken-(\d{8}T\d{6}Z)(-\d+)?$/# }

    /// A store worth losing: 150 alarms checkpointed into the database (as alarmd's checkpoint
    /// thread does once enough piled up), then one more in the WAL only, left with the WAL index as
    /// `kill -9` leaves them.
    func fillStore(_ h: Harness) throws {
        for i in 0..<150 {
            _ = try h.client.schedule([("title", .string("Alarm \(i) with a title long enough to fill pages")), ("duration", .string("\(i + 1)h"))])
        }
        h.stopDaemon(kill9: false)
        let checkpoint = try runCommand("/usr/bin/python3", ["-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)').fetchall()",
                                                             h.storePath])
        try #require(checkpoint.status == 0, "\(checkpoint.err)")
        try h.start()
        _ = try h.client.schedule([("title", .string("The latest, in the WAL only")), ("duration", .string("9h"))])
        h.stopDaemon(kill9: true)
        let size = (try FileManager.default.attributesOfItem(atPath: h.storePath)[.size] as? Int) ?? 0
        try #require(size >= 8 * 4096, "a database of several pages (\(size) bytes)")
        try #require(FileManager.default.fileExists(atPath: h.storePath + "-wal") && FileManager.default.fileExists(atPath: h.storePath + "-shm"))
    }

    func damage(_ d: Damage, _ path: String) throws {
        switch d {
        case .garbage:
            var random = SeededRandom.seeded("garbage store")
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: URL(fileURLWithPath: path))
        case .truncated:
            try #require(truncate(path, 4096) == 0)
        case .cutMidPage:
            try #require(truncate(path, 2 * 4096 + 1000) == 0)
        case .directory:
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Data("what a sync tool left".utf8).write(to: URL(fileURLWithPath: path + "/conflict"))
        case .newerSchema:
            // No close: SQLite would copy the WAL in and delete it; a crash keeps both, as alarmd found them.
            let program = """
                import os, sqlite3, sys
                c = sqlite3.connect(sys.argv[1], isolation_level=None)
                c.execute('PRAGMA user_version = 4')
                os._exit(0)
                """
            let r = try runCommand("/usr/bin/python3", ["-c", program, path])
            try #require(r.status == 0, "\(r.err)")
        }
    }

    @Test(arguments: Damage.allCases) func aDamagedStoreIsKeptAndAFreshOneServes(_ d: Damage) throws {
        let h = try Harness(notifications: true)
        try fillStore(h)
        try damage(d, h.storePath)
        let before = ["", "-wal", "-shm"].map { contents(h.storePath + $0) }
        try #require(before.allSatisfy { !$0.isEmpty })
        let started = Date()
        try h.start()

        // The property says why and where.
        let recovery = try h.storeRecovery
        #expect(recovery[Contract.StoreRecovery.reason] == d.reason.rawValue, "\(recovery)")
        let kept = recovery[Contract.StoreRecovery.keptPath] ?? ""
        let match = try #require(kept.wholeMatch(of: keptName), "\(kept)")
        #expect(String(match.output.1) == h.storePath)
        let time = try #require(ISO8601DateFormatter().date(from: recovery[Contract.StoreRecovery.time] ?? ""))
        #expect(abs(started.timeIntervalSince(time)) < 60)
        #expect(String(match.output.2) == KeptStoreName.stamp(UInt64(time.timeIntervalSince1970) * 1_000_000), "the name's stamp is the recovery's time")
        #expect(!(recovery[Contract.StoreRecovery.detail] ?? "").isEmpty)
        // Kept whole, byte for byte: the database (or what stood in its place), its WAL, its WAL index.
        #expect(["", "-wal", "-shm"].map { contents(kept + $0) } == before, "kept byte for byte")

        // One error line says what happened, where the store is and how to get it back.
        let errors = h.daemon.log.split(separator: "\n").filter { $0.hasPrefix("alarmd: error: ") }
        #expect(errors.count == 1, "\(errors)")
        let line = errors.first.map(String.init) ?? ""
        #expect(line.contains("kept as \(kept) (with its -wal and -shm beside it)") && line.contains("never deleted"), "\(line)")
        switch d.reason {
        case .newerSchema:
            #expect(line.contains("written by a newer alarmd (schema 4 > 3); kept as \(kept)"), "\(line)")
            #expect(line.lowercased().contains("reinstall the newer alarmd and rename it back"), "\(line)")
        case .unreadable:
            #expect(line.contains("cannot be read (a directory, not a file)") && line.contains("rename it back"), "\(line)")
        case .corrupt, .truncated:
            #expect(line.contains("is \(d.reason.rawValue) (") && line.contains("sqlite3 \(kept) .recover"), "\(line)")
        }

        // One notification, naming the kept file.
        let shown = try #require(h.notifier?.waitFor { !$0.filter { categoryHint(of: $0) == Contract.StoreRecovery.notificationCategory }.isEmpty })
        let notices = shown.filter { categoryHint(of: $0) == Contract.StoreRecovery.notificationCategory }
        #expect(notices.count == 1 && notices.first?.string("body").contains(kept) == true, "\(notices)")

        // A fresh store, and it works: what is scheduled now survives a restart.
        #expect(try h.client.alarms().isEmpty)
        let fresh = try h.client.schedule([("title", .string("After the recovery")), ("duration", .string("2h"))])
        h.stopDaemon(kill9: true)
        try h.start()
        #expect(try h.client.alarms().count == 1)
        #expect(try h.client.property(fresh, alarmInterface, "State") == .string("countdown"))
        #expect(try h.storeRecovery == recovery, "the store remembers how it began")
        #expect(["", "-wal", "-shm"].map { contents(kept + $0) } == before, "still kept, untouched")
        let keptNames = try FileManager.default.contentsOfDirectory(atPath: h.state.path + "/state").filter { $0.contains(".broken-") }
        #expect(keptNames.sorted() == ["", "-shm", "-wal"].map { (kept as NSString).lastPathComponent + $0 }.sorted())
        #expect(h.daemon.log.split(separator: "\n").filter { $0.hasPrefix("alarmd: error: ") }.count == 1, "a sound store this time")

        // Shown once: after the restart, an alert reaches the same server, and no second notice does.
        _ = try h.client.schedule([("title", .string("Ring")), ("duration", .uint32(1))])
        #expect(h.notifier?.waitFor { !$0.filter { categoryHint(of: $0) == "x-alarmd.alarm" }.isEmpty } != nil)
        #expect(h.shown(Contract.StoreRecovery.notificationCategory).count == 1)
    }

    /// A sound store, even one a crash left with its WAL: nothing moved, nothing said, the property empty.
    @Test func aSoundStoreIsLeftAlone() throws {
        let h = try Harness(notifications: true)
        for i in 0..<20 { _ = try h.client.schedule([("title", .string("Alarm \(i)")), ("duration", .string("\(i + 1)h"))]) }
        h.stopDaemon(kill9: true)
        let files = try FileManager.default.contentsOfDirectory(atPath: h.state.path + "/state").sorted()
        try h.start()
        #expect(try h.storeRecovery == [:])
        #expect(try h.client.alarms().count == 20)
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.state.path + "/state").sorted() == files)
        #expect(!h.daemon.log.contains("alarmd: error: "), "\(h.daemon.log)")
        #expect(h.daemon.log.contains("20 alarms loaded, checked in "))
        let status = try h.alarmctl(["status"])
        #expect(status.status == 0 && !status.out.contains("recovery"), "\(status.out)")
        // In the window in which a recovery notice would have come, an alert does.
        _ = try h.client.schedule([("title", .string("Ring")), ("duration", .uint32(1))])
        let shown = try #require(h.notifier?.waitFor { !$0.isEmpty })
        #expect(shown.map(categoryHint) == ["x-alarmd.alarm"])
    }

    /// Rows SQLite reads but alarmd cannot decode are not damage: the others load, those stay and are reported.
    @Test func undecodableRowsAreKeptNotMovedAside() throws {
        let h = try Harness()
        for t in ["a", "b", "c"] { _ = try h.client.schedule([("title", .string(t)), ("duration", .string("1h"))]) }
        h.stopDaemon(kill9: false)
        let program = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("UPDATE alarm SET state = 9 WHERE title = 'a'")
            c.execute("UPDATE alarm SET extras = x'01ff' WHERE title = 'c'")
            c.close()
            """
        let r = try runCommand("/usr/bin/python3", ["-c", program, h.storePath])
        try #require(r.status == 0, "\(r.err)")
        try h.start()
        #expect(try h.client.alarms().compactMap { $0["Presentation"]?.unwrapped.vardictEntries?.first { $0.0 == "title" }?.1.unwrapped.stringValue } == ["b"])
        #expect(try h.storeRecovery == [:])
        #expect(h.daemon.log.contains("1 alarms loaded, 2 unreadable"), "\(h.daemon.log)")
        #expect(h.daemon.log.split(separator: "\n").filter { $0.contains("is unreadable; kept in the database, not loaded") }.count == 2)
        h.stopDaemon(kill9: false)
        let count = try runCommand("/usr/bin/python3", ["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM alarm').fetchone()[0])", h.storePath])
        #expect(count.out.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "the undecodable rows are still there")
    }

    /// No notification server at start: the notice waits for one, is shown once, and a server that
    /// replaces it does not get it again. `alarmctl status` tells it meanwhile.
    @Test func theNoticeWaitsForANotificationServer() throws {
        let h = try Harness()
        try fillStore(h)
        try damage(.garbage, h.storePath)
        try h.start()
        #expect(h.daemon.logs("it will be when a notification server appears"))
        let recovery = try h.storeRecovery
        let kept = try #require(recovery[Contract.StoreRecovery.keptPath])

        let status = try h.alarmctl(["status"])
        #expect(status.status == 0, "\(status.err)")
        #expect(status.out.contains("recovery: started empty at ") && status.out.contains("the store before was corrupt ("), "\(status.out)")
        #expect(status.out.contains("kept as \(kept)") && status.out.contains("sqlite3 \(kept) .recover"), "\(status.out)")

        try h.startNotifier()
        let shown = try #require(h.notifier?.waitFor { !$0.isEmpty })
        #expect(shown.map(categoryHint) == [Contract.StoreRecovery.notificationCategory])
        #expect(shown.first?.string("body").contains(kept) == true)
        #expect(h.daemon.logs("the recovery is shown on the desktop"))

        // A new server (the desktop's restarted): an alert reaches it, the notice does not.
        try h.startNotifier()
        _ = try h.client.schedule([("title", .string("Ring")), ("duration", .uint32(1))])
        let second = try #require(h.notifier?.waitFor { !$0.isEmpty })
        #expect(second.map(categoryHint) == ["x-alarmd.alarm"])
    }
}

/// The same as another user than root, for whom file modes count: a store of mode 000 is moved
/// aside like any unreadable one, and a directory alarmd may not write to is the one case in which
/// it cannot start — it says so and what to do, and exits.
@Suite(.serialized) struct StoreRecoveryAsUserTests {
    static let nobody: uid_t = 65_534

    /// alarmd as `nobody`, its log in `log`. It may not look into root's `/proc/PID/root`, and would
    /// take the test's client for a sandbox: an empty `--proc-root` says it is none.
    func alarmdAsNobody(bus: String, stateDir: String, log: String) throws -> ChildProcess {
        let procRoot = (stateDir as NSString).deletingLastPathComponent + "/proc"
        try? FileManager.default.createDirectory(atPath: procRoot, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = stateDir
        env["PULSE_SERVER"] = "unix:/nonexistent/pulse"
        env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/system_bus_socket"
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        return try ChildProcess("/usr/bin/setpriv", ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "--",
                                                     Products.alarmd, "--bus-address", bus, "--state-dir", stateDir,
                                                     "--sounds-dir", Products.sourceRoot + "/sounds", "--proc-root", procRoot],
                                environment: env, stderrPath: log)
    }

    @Test func aStoreOfMode000IsMovedAside() throws {
        try #require(getuid() == 0, "needs root to become another user")
        let bus = try TestBus(everyUser: true)
        let top = TempDir("alarmd-as-user")
        chmod(top.path, 0o755)
        let state = top.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        chown(state, Self.nobody, Self.nobody)
        let probe = try Client(address: bus.address)

        var daemon = try alarmdAsNobody(bus: bus.address, stateDir: state, log: top.path + "/first.log")
        #expect(eventually(timeout: 20) { probe.nameHasOwner(managerName) }, "\(readText(top.path + "/first.log"))")
        _ = try probe.schedule([("title", .string("Kept")), ("duration", .string("1h"))])
        daemon.stop()
        let store = state + "/alarmd.sqlite"
        try #require(chmod(store, 0) == 0)
        let before = contents(store)

        daemon = try alarmdAsNobody(bus: bus.address, stateDir: state, log: top.path + "/second.log")
        defer { daemon.stop() }
        #expect(eventually(timeout: 20) { probe.nameHasOwner(managerName) }, "\(readText(top.path + "/second.log"))")
        guard case .dict(_, _, let entries) = try probe.property(managerPath, managerInterface, Contract.StoreRecovery.property) else {
            Issue.record("StoreRecovery is not a dictionary")
            return
        }
        let recovery = Dictionary(entries.map { ($0.key.stringValue ?? "", $0.value.stringValue ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(recovery[Contract.StoreRecovery.reason] == "unreadable" && recovery[Contract.StoreRecovery.detail] == "Permission denied", "\(recovery)")
        let kept = try #require(recovery[Contract.StoreRecovery.keptPath])
        #expect(contents(kept) == before, "kept as it was, mode and all")
        var st = stat()
        #expect(stat(kept, &st) == 0 && st.st_mode & 0o777 == 0)
        #expect(try probe.alarms().isEmpty)
        _ = try probe.schedule([("title", .string("Fresh")), ("duration", .string("1h"))])
        #expect(readText(top.path + "/second.log").contains("cannot be read (Permission denied); kept as \(kept)"))
    }

    @Test func aStoreThatCannotBeMovedStopsStartUpWithWhatToDo() throws {
        try #require(getuid() == 0, "needs root to become another user")
        let bus = try TestBus()
        let top = TempDir("alarmd-as-user")
        chmod(top.path, 0o755)
        // The user's store in a directory the user may not write to (a read-only mount, say).
        let state = top.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let store = state + "/alarmd.sqlite"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) })
        try garbage.write(to: URL(fileURLWithPath: store))
        chown(store, Self.nobody, Self.nobody)
        let daemon = try alarmdAsNobody(bus: bus.address, stateDir: state, log: top.path + "/alarmd.log")
        let status = try #require(daemon.wait(timeout: 20), "alarmd gave up instead of waiting or looping")
        #expect((status >> 8) & 0xff == 1, "exit status 1")
        let log = readText(top.path + "/alarmd.log")
        #expect(log.contains("\(store) is corrupt (file is not a database), and it cannot be moved aside"), "\(log)")
        #expect(log.contains("Permission denied") && log.contains("make \(state) writable for alarmd"), "\(log)")
        #expect(FileManager.default.contents(atPath: store) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state) == ["alarmd.sqlite"], "nothing made, nothing moved")
    }
}
