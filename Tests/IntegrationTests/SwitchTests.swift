// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus
import TestSupport
import Testing

/// An alarm switched off and on (`enabled`, `Enabled`) over a real bus, through a restart, with the
/// daemon's test clock: it never rings while off, while one that is on rings in the same window.
@Suite(.serialized) struct SwitchTests {
    @Test func offSurvivesARestartAndNeverRingsWhileOneThatIsOnDoes() throws {
        let t = try TimeTests.TimeHarness(zone: "UTC")
        let now = try t.now()
        let today = now / usec / 86_400 * 86_400 + 6 * 3_600 + 45 * 60
        let at = today > now / usec ? today : today + 86_400   // the next 06:45
        let days: Value = .strings(Weekday.allCases.map(\.rawValue))
        let off = try t.c.schedule([("title", .string("Holidays")), ("hour", .uint32(6)), ("minute", .uint32(45)), ("weekdays", days)])
        let on = try t.c.schedule([("title", .string("Get up")), ("hour", .uint32(6)), ("minute", .uint32(45)), ("weekdays", days)])
        #expect(uint64(try t.c.property(on, alarmInterface, "FireTimeUSec")) == at * usec)

        try t.c.call("Update", [.string(AlarmID.id(fromPath: off)!), .vardict([("enabled", .bool(false))]), .strings([])])
        #expect(t.c.waitFor { $0.contains { $0.path == off && $0.changed["Enabled"] == .bool(false) } }, "the switch is announced")
        #expect(try t.c.property(off, alarmInterface, "State") == .string("scheduled"))
        #expect(uint64(try t.c.property(off, alarmInterface, "FireTimeUSec")) == 0)
        #expect(uint64(try t.c.property(managerPath, managerInterface, "NextFireTimeUSec")) == at * usec)

        // Durable: a restart finds it off, its schedule and title kept.
        try t.h.restart(kill9: false)
        #expect(try t.c.property(off, alarmInterface, "Enabled") == .bool(false))
        let schedule = try t.c.property(off, alarmInterface, "Schedule")
        #expect("\(schedule)".contains("hour") && "\(schedule)".contains("saturday"), "\(schedule)")
        #expect(try t.h.alarmctl(["list"]).out.contains("off"))

        // 06:45 comes: the one that is on rings; the one that is off does not, in the same step.
        try t.setTime(at * usec + 5 * usec)
        #expect(t.c.waitForState(on, "alerting", timeout: 5))
        try t.c.barrier()
        #expect(!t.c.signals.contains { $0.path == off && $0.changed["State"] == .string("alerting") })
        #expect(try t.c.property(off, alarmInterface, "State") == .string("scheduled"))
        let shown = try #require(t.h.notifier!.waitFor { $0.contains { $0.string("summary") == "Get up" } })
        #expect(!shown.contains { $0.string("summary") == "Holidays" })
        #expect(shown.first { $0.string("summary") == "Get up" }!["actions"]?.unwrapped == .strings(["stop", "Stop", "secondary", "Snooze"]),
                "the user's own alarm offers Snooze in its notification")

        // Switched on after its time: its next occurrence, tomorrow, not a missed one now.
        let onAgain = try t.h.alarmctl(["on", AlarmID.id(fromPath: off)!])
        #expect(onAgain.status == 0 && onAgain.out.contains("Switched on") && onAgain.out.contains("rings"), "\(onAgain)")
        #expect(uint64(try t.c.property(off, alarmInterface, "FireTimeUSec")) == (at + 86_400) * usec)
        #expect(try t.c.property(off, alarmInterface, "State") == .string("scheduled"))
        let offAgain = try t.h.alarmctl(["off", AlarmID.id(fromPath: on)!])
        #expect(offAgain.status == 0 && offAgain.out.contains("Switched off"), "\(offAgain)")
        #expect(t.c.waitFor { $0.contains { $0.path == on && $0.changed["State"] == .string("scheduled") } }, "switching off silences it")
        #expect(try t.c.property(on, alarmInterface, "Enabled") == .bool(false))
    }

    @Test func aTimerIsPausedNotSwitchedOff() throws {
        let h = try Harness()
        let timer = try h.client.schedule([("title", .string("Tea")), ("duration", .uint32(600))])
        let r = try h.alarmctl(["off", AlarmID.id(fromPath: timer)!])
        #expect(r.status == 1 && r.err.contains("enabled") && r.err.contains("InvalidArgument"), "\(r)")
        #expect(try h.client.property(timer, alarmInterface, "State") == .string("countdown"))
        #expect(try h.client.property(timer, alarmInterface, "Enabled") == .bool(true))
    }
}
