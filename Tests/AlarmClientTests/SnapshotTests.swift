// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Foundation
import Testing
import TestSupport

/// AlarmSnapshot and TimeText beyond the shared client rules (remaining time, progress and the
/// countdown clock are ClientRulesTests', from Tests/cases/client-rules.json).
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

    @Test func propertiesChangedMerges() {
        var a = Self.snapshot("countdown", fire: 10, total: 10)
        a.apply(changed: ["State": .string("alerting"), "Phase": .string("warning")])
        #expect(a.isAlerting && a.isWarning && a.title == "Tea")
        #expect(AlarmSnapshot(.vardict([("Id", .string(""))])) == nil, "a map without an id is no alarm")
    }

    /// The typed kind, state and phase are the core's; a name a newer alarmd might send reads as
    /// nil, acts as none of the known states, and can still be shown as sent.
    @Test func kindStateAndPhaseAreTyped() {
        let a = Self.snapshot("paused", total: 60 * Self.s, elapsed: 20 * Self.s, phase: "warning")
        #expect(a.kind == .timer && a.state == .paused && a.phase == .warning && a.isPaused && a.isTimer)
        let future = Self.snapshot("snoozing", fire: 90 * Self.s, total: 60 * Self.s, phase: "late", kind: "stopwatch")
        #expect(future.state == nil && future.kind == nil && future.phase == nil)
        #expect(!future.isAlerting && !future.isPaused && !future.isCountingDown && !future.isWarning && !future.isTimer)
        #expect(future.remaining(at: 30 * Self.s) == 0 && future.progress(at: 30 * Self.s) == 0)
        #expect(future.string("State") == "snoozing" && future.string("Kind") == "stopwatch")
        #expect(AlarmSnapshot(properties: ["Id": .string("x")]).state == nil, "a missing State is no state")
        #expect(PanelClick(line: "{\"name\":\"alarmd\",\"instance\":\"x\",\"button\":1}")?.action(forState: future.state) == nil)
    }

    @Test func timeText() {
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
