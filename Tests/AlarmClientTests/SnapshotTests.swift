// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Foundation
import Testing
import TestSupport

/// The applet rule of docs/API.md (Drawing a live countdown), computed from properties alone.
struct SnapshotTests {
    static let s = usecPerSecond

    static func snapshot(_ state: String, fire: USec = 0, total: USec = 0, elapsed: USec = 0, phase: String = "normal",
                         presentation: [(String, Value)] = [("title", .string("Tea"))], id: String = "3f8f8e00-a75c-4163-9b08-b277213fb980",
                         kind: String = "timer", weekdays: [String] = []) -> AlarmSnapshot {
        var schedule: [(String, Value)] = []
        if !weekdays.isEmpty { schedule.append(("weekdays", .strings(weekdays))) }
        return AlarmSnapshot(properties: ["Id": .string(id), "Kind": .string(kind), "State": .string(state),
                                          "FireTimeUSec": .uint64(fire), "CountdownTotalUSec": .uint64(total),
                                          "ElapsedUSec": .uint64(elapsed), "Phase": .string(phase),
                                          "Presentation": .vardict(presentation), "Schedule": .vardict(schedule)])
    }

    @Test func remainingAndProgress() {
        let now: USec = 1_000_000 * Self.s
        let running = Self.snapshot("countdown", fire: now + 150 * Self.s, total: 600 * Self.s)
        #expect(running.remaining(at: now) == 150 * Self.s)
        #expect(running.progress(at: now) == 0.75)
        #expect(running.remaining(at: now + 200 * Self.s) == 0, "never negative past the end")
        let paused = Self.snapshot("paused", fire: 0, total: 600 * Self.s, elapsed: 120 * Self.s)
        #expect(paused.remaining(at: now) == 480 * Self.s && paused.remaining(at: now + 99 * Self.s) == 480 * Self.s, "frozen")
        #expect(paused.progress(at: now) == 0.2)
        #expect(Self.snapshot("alerting").progress(at: now) == 1)
        let scheduled = Self.snapshot("scheduled", fire: now + 3600 * Self.s, kind: "alarm")
        #expect(scheduled.progress(at: now) == 0 && scheduled.remaining(at: now) == 3600 * Self.s)
    }

    @Test func propertiesChangedMerges() {
        var a = Self.snapshot("countdown", fire: 10, total: 10)
        a.apply(changed: ["State": .string("alerting"), "Phase": .string("warning")])
        #expect(a.isAlerting && a.isWarning && a.title == "Tea")
        #expect(AlarmSnapshot(.vardict([("Id", .string(""))])) == nil, "a map without an id is no alarm")
    }

    @Test func timeText() {
        #expect(TimeText.clock(1_499 * Self.s) == "24:59")
        #expect(TimeText.clock(1_499 * Self.s + 1) == "25:00", "rounded up: a fresh 25 min timer shows 25:00")
        #expect(TimeText.clock(1) == "0:01")
        #expect(TimeText.clock(3723 * Self.s) == "1:02:03")
        #expect(TimeText.clock(90_061 * Self.s) == "1d 01:01:01")
        let now: USec = 1_000_000 * Self.s
        #expect(TimeText.relative(now + (7 * 3600 + 12 * 60) * Self.s, from: now) == "in 7 h 12 min")
        #expect(TimeText.relative(now + 45 * Self.s, from: now) == "in 45 s")
        #expect(TimeText.relative(now - 300 * Self.s, from: now) == "5 min ago")
        #expect(TimeText.relative(now, from: now) == "now")
        #expect(TimeText.days(["monday", "tuesday", "wednesday", "thursday", "friday"]) == "mon-fri")
        #expect(TimeText.days(["monday", "wednesday"]) == "mon,wed")
        let utc = Zone.utc
        // 2026-12-01 00:00 UTC is a Tuesday.
        let day: USec = 1_796_083_200 * Self.s
        #expect(TimeText.local(day + 7 * 3600 * Self.s, now: day, zone: utc) == "07:00")
        #expect(TimeText.local(day + (86_400 + 7 * 3600) * Self.s, now: day, zone: utc) == "Wed 07:00")
        #expect(TimeText.local(day + 30 * 86_400 * Self.s, now: day, zone: utc) == "2026-12-31 00:00")
    }
}
