// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus
import TestSupport
import Testing

/// The countdown template's server-run lifecycle, over a real bus: one start request, no further client traffic.
@Suite(.serialized) struct CountdownActivityTests {
    @Test func silentCountdownWarnsThenCompletes() throws {
        let h = try Harness(notifications: true)
        let c = h.client!
        let path = try c.schedule([("title", .string("Printing")), ("duration", .string("3s")), ("warning_threshold", .uint32(2)),
                                   ("ring", .bool(false)), ("completion_message", .string("Print done")), ("status", .string("Printing")),
                                   ("accent_color", .string("blue"))])
        let id = AlarmID.id(fromPath: path)!
        let props = try c.allProperties(path)
        let start = uint64(props["CountdownStartUSec"]), total = uint64(props["CountdownTotalUSec"]), fire = uint64(props["FireTimeUSec"])
        #expect(total == 3 * usec && fire == start + total)

        // An applet computing progress from the properties alone, sampling as it draws.
        var samples: [Double] = []
        let done = c.waitFor(timeout: 6) { signals in
            let now = SystemClock().now()
            samples.append(min(1, Double(now.minusClamped(start)) / Double(total)))
            return signals.contains { $0.member == "AlarmRemoved" }
        }
        #expect(done)
        let warning = c.signals.firstIndex { $0.path == path && $0.changed["Phase"] == .string("warning") }
        let removed = c.signals.firstIndex { $0.member == "AlarmRemoved" }
        #expect(warning != nil && removed != nil && warning! < removed!, "warning first, then completion")
        let w = c.signals[warning!]
        #expect(w.changed["Presentation"]?.vardictEntries?.first { $0.0 == "accent_color" }?.1 == .string("orange"))
        let lateness = Int64(w.receivedUSec) - Int64(fire - 2 * usec)
        #expect(lateness >= 0 && lateness < 100_000, "the warning comes when 2 s remain (\(lateness) µs late)")
        #expect(c.signals[removed!].args == [.string(id), .string(""), .string("completed")])
        #expect(c.signals.filter { $0.path == path && $0.changed["Phase"] != nil }.count == 1, "the warning happens once")
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 }, "progress never goes back")
        #expect(samples.last == 1.0)
        let shown = try #require(h.notifier!.waitFor { !$0.isEmpty })
        #expect(shown.count == 1 && shown[0].string("summary") == "Printing" && shown[0].string("body") == "Print done")
        #expect(!h.daemon.log.contains("ring \(id)"), "a silent countdown never rings")
    }

    @Test func ringingCountdownAlertsWithItsCompletionMessage() throws {
        let h = try Harness(notifications: true)
        let path = try h.client.schedule([("title", .string("Pizza")), ("duration", .uint32(1)), ("completion_message", .string("Done baking!"))])
        #expect(h.client.waitForState(path, "alerting"))
        let n = try #require(h.notifier!.waitFor { !$0.isEmpty })[0]
        #expect(n.string("summary") == "Pizza" && n.string("body") == "Done baking!")
    }

    @Test func progressPropertiesDuringPauseAndResume() throws {
        let h = try Harness()
        let c = h.client!
        let path = try c.schedule([("title", .string("Bread")), ("duration", .uint32(100))])
        let id = AlarmID.id(fromPath: path)!
        c.pump(0.5)
        try c.call("Pause", [.string(id)])
        let paused = try c.allProperties(path)
        let elapsed = uint64(paused["ElapsedUSec"])
        #expect(uint64(paused["FireTimeUSec"]) == 0 && elapsed >= 500_000 && elapsed < 2 * usec)
        guard case .double(let p1)? = paused["Progress"] else { Issue.record("no progress"); return }
        #expect(abs(p1 - Double(elapsed) / 100e6) < 1e-9, "paused progress is elapsed / total")
        #expect(uint64(paused["RemainingUSec"]) == 100 * usec - elapsed)
        // Countdowns run on the monotonic clock (a wall-clock step must not move them), so this
        // window is real time; a timer running beside it is the control that the time did pass.
        let control = try c.schedule([("title", .string("Control")), ("duration", .uint32(100))])
        let controlBefore = uint64(try c.property(control, alarmInterface, "RemainingUSec"))
        c.pump(0.5)
        #expect(uint64(try c.property(control, alarmInterface, "RemainingUSec")) <= controlBefore - 500_000, "time passed for a running timer")
        #expect(try c.property(path, alarmInterface, "Progress") == .double(p1), "frozen while paused")
        try c.call("Resume", [.string(id)])
        let resumed = try c.allProperties(path)
        #expect(uint64(resumed["ElapsedUSec"]) == elapsed, "previously elapsed time is kept")
        #expect(uint64(resumed["FireTimeUSec"]) == uint64(resumed["CountdownStartUSec"]) + 100 * usec - elapsed)
    }

    @Test func updateEmitsOnePropertiesChangedAndKeepsWhatItDoesNotName() throws {
        let h = try Harness()
        let c = h.client!
        let path = try c.schedule([("title", .string("Oven")), ("duration", .uint32(600)), ("ring", .bool(false)),
                                   ("warning_threshold", .uint32(30)), ("status", .string("Preheating"))])
        let id = AlarmID.id(fromPath: path)!
        try c.barrier()
        let before = c.signals.filter { $0.path == path && $0.member == "PropertiesChanged" }.count
        try c.call("Update", [.string(id), .vardict([("status", .string("Baking")), ("duration", .string("25m"))]), .strings([])])
        // Every signal of the Update is in before the barrier's reply: the count below is final.
        try c.barrier()
        let changes = c.signals.filter { $0.path == path && $0.member == "PropertiesChanged" }
        #expect(changes.count == before + 1, "one PropertiesChanged per Update")
        let changed = try #require(changes.last).changed
        #expect(Set(changed.keys) == ["Presentation", "Schedule", "FireTimeUSec", "CountdownStartUSec", "CountdownTotalUSec"])
        let props = try c.allProperties(path)
        #expect(props["Ring"] == .bool(false), "ring persists until cleared")
        #expect(props["Presentation"]?.vardictEntries?.first { $0.0 == "warning_threshold" }?.1 == .uint32(30))
        try c.call("Update", [.string(id), .vardict([]), .strings(["ring", "status"])])
        let cleared = try c.allProperties(path)
        #expect(cleared["Ring"] == .bool(true))
        #expect(cleared["Presentation"]?.vardictEntries?.first { $0.0 == "status" }?.1 == .string(""))
        let past = Int64(Date().timeIntervalSince1970) - 10
        let e = callError { () throws(BusError) in try c.call("Update", [.string(id), .vardict([("end_date", .int64(past))]), .strings([])]) }
        #expect(e?.name == Contract.ErrorName.invalidArgument && e?.message.hasPrefix("end_date:") == true)
    }
}

extension UInt64 {
    func minusClamped(_ o: UInt64) -> UInt64 { self > o ? self - o : 0 }
}
