// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
@testable import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// Group commit: calls that arrive together are written in one transaction, answered only once it
/// is durable, and all refused together (nothing applied, nothing announced) when the write fails;
/// what time alone causes is announced before it is written, and a crash in between loses nothing.
@Suite(.serialized) struct CommitTests {
    /// Another process holding the database's write lock, as a backup tool or a second alarmd would.
    func lockStore(_ h: Harness) throws -> LiveCommand {
        let program = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN EXCLUSIVE')
            print('locked', flush=True)
            sys.stdin.read()
            """
        let lock = try LiveCommand("/usr/bin/python3", ["-c", program, h.state.path + "/state/alarmd.sqlite"])
        #expect(lock.waitFor { $0.contains("locked") }, "\(lock.stderr)")
        return lock
    }

    @Test func aFailedWriteRefusesTheWholeBatchAndChangesNothing() throws {
        let h = try Harness()
        let kept = try h.client.schedule([("title", .string("Kept")), ("duration", .string("1h"))])
        let before = stable(try h.client.alarms())
        let lock = try lockStore(h)
        let caller = try Client(address: h.bus.address)
        // Pipelined: they arrive together and share one write, which fails after SQLite's busy timeout.
        let calls = try (0..<50).map { i in
            try caller.callAsync("Schedule", [.string(""), .vardict([("title", .string("Lost \(i)")), ("duration", .uint32(600))])],
                                 timeoutSeconds: 60)
        }
        let cancel = try caller.callAsync("Cancel", [.string(AlarmID.id(fromPath: kept)!)], timeoutSeconds: 60)
        #expect(caller.waitFor(timeout: 40) { _ in calls.allSatisfy(\.done) && cancel.done },
                "answered within one busy timeout (5 s), not one per call (250 s)")
        #expect((calls + [cancel]).allSatisfy { $0.error?.name == Contract.ErrorName.ioError }, "\(calls.compactMap(\.error?.name).prefix(3))")
        #expect(calls.first?.error?.message.contains("could not be saved") == true)
        #expect(stable(try h.client.alarms()) == before, "the last durable state: the Cancel is undone too")
        lock.closeOutput()
        lock.write("\n")
        lock.process.signal(SIGTERM)
        _ = lock.process.wait(timeout: 5)

        // Once the store is writable again, calls succeed, and only they are announced.
        let fine = try h.client.schedule([("title", .string("Fine")), ("duration", .string("1h"))])
        #expect(h.client.waitFor { $0.contains { $0.member == "InterfacesAdded" && $0.args.first == .objectPath(fine) } })
        let added = h.client.signals.named("InterfacesAdded").count
        #expect(added == 2, "Kept and Fine; none of the refused ones")
        try h.restart(kill9: true)
        #expect(Set(try h.client.alarms().compactMap { $0["Id"]?.unwrapped.stringValue })
                == Set([kept, fine].compactMap(AlarmID.id(fromPath:))))
    }

    /// A list is answered from what is written: a `GetAlarms` that arrives with a `Schedule` whose
    /// write then fails does not show the alarm that never was (nor would a crash have kept it).
    @Test func aReadAnsweredWithAFailingWriteShowsOnlyWhatIsDurable() throws {
        let h = try Harness()
        let kept = try h.client.schedule([("title", .string("Kept")), ("duration", .string("1h"))])
        let lock = try lockStore(h)
        let caller = try Client(address: h.bus.address)
        // Pipelined behind Schedules: while alarmd waits for the lock, they pile up, and it reads the
        // lists in the same pass as Schedules it has applied but not written.
        let schedules = try (0..<20).map { i in
            try caller.callAsync("Schedule", [.string(""), .vardict([("title", .string("Never \(i)")), ("duration", .uint32(600))])],
                                 timeoutSeconds: 60)
        }
        let list = try caller.callAsync("GetAlarms", timeoutSeconds: 60)
        let page = try caller.callAsync("GetAlarmsPage", [.string(""), .uint32(0)], timeoutSeconds: 60)
        #expect(caller.waitFor(timeout: 40) { _ in schedules.allSatisfy(\.done) && list.done && page.done })
        #expect(schedules.allSatisfy { $0.error?.name == Contract.ErrorName.ioError }, "\(schedules.compactMap(\.error).first.map(\.description) ?? "")")
        for read in [list, page] {
            guard case .array(_, let items)? = read.values?.first else {
                Issue.record("no list: \(String(describing: read.error))")
                continue
            }
            let ids = items.compactMap { Dictionary(($0.vardictEntries ?? []), uniquingKeysWith: { a, _ in a })["Id"]?.unwrapped.stringValue }
            #expect(ids == [AlarmID.id(fromPath: kept)], "a read showed the alarm of a refused Schedule: \(ids)")
        }
        lock.closeOutput()
        lock.write("\n")
        lock.process.signal(SIGTERM)
        _ = lock.process.wait(timeout: 5)
    }

    /// A ring that cannot be written (the store locked, a full disk) is retried a second later, not
    /// at once over and over: alarmd goes on answering meanwhile, and writes it once it can.
    @Test func aRingThatCannotBeWrittenDoesNotStopAlarmdAnswering() throws {
        let h = try Harness()
        let path = try h.client.schedule([("title", .string("Egg")), ("duration", .uint32(2))])
        let lock = try lockStore(h)
        #expect(h.client.waitFor(timeout: 10) { $0.contains { $0.path == path && $0.changed["State"] == .string("alerting") } })
        #expect(h.daemon.logs("retrying in 1 s", timeout: 10), "\(h.daemon.log)")
        let caller = try Client(address: h.bus.address)
        let answer = try caller.callAsync("GetAuthorizationState", timeoutSeconds: 60)
        // One attempt holds the loop for SQLite's busy timeout (5 s); then it serves calls again.
        #expect(caller.waitFor(timeout: 12) { _ in answer.done }, "alarmd answered nothing while its store was locked")
        #expect(answer.values == [.string("authorized")])
        lock.closeOutput()
        lock.write("\n")
        lock.process.signal(SIGTERM)
        _ = lock.process.wait(timeout: 5)
        // The next change is written with it, or after it: once that is answered, the ring is durable,
        // and a kill -9 leaves nothing to announce again.
        _ = try h.client.schedule([("title", .string("After")), ("duration", .string("1h"))])
        try h.restart(kill9: true)
        #expect(try h.client.property(path, alarmInterface, "State") == .string("alerting"))
        // Stopping it shows the subscriber hears this run; the barrier, that nothing else came before.
        try h.client.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        try h.client.barrier()
        #expect(h.client.signals.contains { $0.member == "AlarmRemoved" && $0.args.last == .string("stopped") })
        #expect(!h.client.signals.contains { $0.path == path && $0.changed["State"] == .string("alerting") }, "it was not written")
    }

    @Test func pipelinedCallsAreEachDurableBeforeTheirAnswer() throws {
        let h = try Harness()
        let caller = try Client(address: h.bus.address)
        let calls = try (0..<300).map { i in
            try caller.callAsync("Schedule", [.string(""), .vardict([("title", .string("T\(i)")), ("duration", .uint32(600 + UInt32(i)))])])
        }
        #expect(caller.waitFor(timeout: 30) { _ in calls.allSatisfy(\.done) })
        #expect(calls.allSatisfy { $0.error == nil }, "\(calls.compactMap(\.error).first.map(\.description) ?? "")")
        // Everything acknowledged survives a kill -9 at once.
        try h.restart(kill9: true)
        #expect(try h.client.alarms().count == 300)
    }

    /// SIGTERM (logout, `systemctl --user stop`) in the middle of a stream of calls: alarmd exits 0,
    /// closes its store (the WAL folded into the database and removed), and what it acknowledged is
    /// there on the next start; a call it had not answered is there whole or not at all.
    @Test func sigtermClosesTheStoreAndKeepsEveryAcknowledgedCall() throws {
        let h = try Harness()
        let caller = try Client(address: h.bus.address)
        let calls = try (0..<200).map { i in
            try caller.callAsync("Schedule", [.string(""), .vardict([("title", .string("T\(i)")), ("duration", .uint32(600 + UInt32(i)))])])
        }
        // Stop as soon as some are answered, with the rest still arriving.
        #expect(caller.waitFor(timeout: 30) { _ in calls.contains(where: \.done) })
        h.daemon.process.signal(SIGTERM)
        let status = h.daemon.process.wait(timeout: 10)
        #expect(status.map { $0 & 0x7f == 0 && ($0 >> 8) & 0xff == 0 } == true, "exit code 0, not a crash: status \(String(describing: status))")
        #expect(h.daemon.logs("exiting: store closed"), "\(h.daemon.log)")
        let db = h.state.path + "/state/alarmd.sqlite"
        #expect(FileManager.default.fileExists(atPath: db))
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"), "a clean close folds the WAL into the database")
        _ = caller.waitFor(timeout: 5) { _ in calls.allSatisfy(\.done) }
        let acknowledged = Set(calls.compactMap { c -> String? in
            if case .objectPath(let p)? = c.values?.first { return p }
            return nil
        })
        #expect(!acknowledged.isEmpty)

        try h.restart(kill9: true)
        let alarms = try h.client.alarms()
        let present = Set(alarms.compactMap { $0["Id"]?.unwrapped.stringValue }.map(AlarmID.path(of:)))
        #expect(acknowledged.isSubset(of: present), "\(acknowledged.subtracting(present).count) acknowledged alarms lost")
        // Whole or not at all: every alarm that is there has the configuration it was sent with.
        for a in alarms {
            guard case .string(let title)? = a["Presentation"]?.vardictEntries?.first(where: { $0.0 == "title" })?.1.unwrapped,
                  let i = Int(title.dropFirst()) else { Issue.record("an alarm without its title: \(a)"); continue }
            #expect(uint64(a["CountdownTotalUSec"]) == UInt64(600 + i) * usec, "\(title)")
        }
    }

    @Test func aDueAlarmAnnouncedButNotYetWrittenSurvivesACrashAndRingsOnce() throws {
        let h = try Harness(extraArgs: ["--test-crash-after-announce"])
        let path = try h.client.schedule([("title", .string("Egg")), ("duration", .uint32(1))])
        let id = try #require(AlarmID.id(fromPath: path))
        let fire = uint64(try h.client.allProperties(path)["FireTimeUSec"])
        // The subscriber hears it ring before anything was written …
        #expect(h.client.waitFor { $0.contains { $0.path == path && $0.changed["State"] == .string("alerting") } })
        #expect(h.daemon.logs("crashing after the announcement"), "\(h.daemon.log)")
        // … and the crash that follows loses nothing: recomputed from the stored countdown, the
        // same alert rings on, neither missed nor moved.
        try h.startAgain(dropping: ["--test-crash-after-announce"])
        // (The restarted daemon may have rung it before this client's first look.)
        #expect(h.waitForState(id, .alerting))
        let props = try h.client.allProperties(path)
        #expect(props["State"] == .string("alerting") && uint64(props["FireTimeUSec"]) == fire, "the same occurrence")
        #expect(!h.client.signals.contains { $0.member == "AlarmRemoved" }, "not missed, not lost")
        // Stopped, it stays stopped across another crash: it does not ring twice.
        try h.client.call("Stop", [.string(id)])
        try h.restart(kill9: true)
        #expect(try h.client.alarms().isEmpty)
        // Positive control in the same window: a timer set after the restart does ring.
        let control = try h.client.schedule([("title", .string("Control")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(control, "alerting"))
        #expect(!h.client.signals.contains { $0.path == path && $0.changed["State"] == .string("alerting") },
                "after the restart nothing rang again")
    }
}
