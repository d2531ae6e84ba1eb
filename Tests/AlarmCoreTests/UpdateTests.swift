// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing

/// `Update`'s merge-patch: replace, clear, keep; re-arm on new timing; refusals change nothing.
@Suite struct UpdateTests {
    func update(_ e: AlarmEngine, _ id: String, _ changes: [String: Value], clear: [String] = []) throws(AlarmError) {
        try e.run { () throws(AlarmError) in try e.plan(.update(id: id, changes: changes, clear: clear), caller: .user) }
    }

    @Test func replaceClearKeep() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["duration": .uint32(600), "subtitle": .string("old"), "status": .string("Baking"),
                                "completion_message": .string("Done!")])
        try update(e, a.id, ["subtitle": .string("new")], clear: ["completion_message"])
        let b = e.alarms[a.id]!
        #expect(b.config.presentation.subtitle == "new")
        #expect(b.config.presentation.status == "Baking", "untouched keys are kept")
        #expect(b.config.presentation.completionMessage == "Completed", "cleared keys fall back to their default")
        #expect(b.fireTime == a.fireTime && b.countdownStart == a.countdownStart, "presentation changes do not re-arm")
    }

    @Test func newDurationReArms() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["duration": .uint32(600)])
        clock.set(monday0900 + 100 * sec)
        try update(e, a.id, ["duration": .string("2m")])
        let b = e.alarms[a.id]!
        #expect(b.state == .countdown && b.countdownStart == monday0900 + 100 * sec && b.countdownTotal == 120 * sec)
        #expect(b.fireTime == monday0900 + 220 * sec)
    }

    @Test func newEndDateReArmsAndWins() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["duration": .uint32(600)])
        clock.set(monday0900 + 100 * sec)
        let end = Int64(monday0900 / sec) + 1_000
        try update(e, a.id, ["end_date": .int64(end), "duration": .uint32(5)])
        #expect(e.alarms[a.id]!.fireTime == USec(end) * sec)
        #expect(e.alarms[a.id]!.countdownTotal == 900 * sec)
        // A later duration alone supersedes the end date.
        try update(e, a.id, ["duration": .uint32(50)])
        #expect(e.alarms[a.id]!.fireTime == monday0900 + 150 * sec)
    }

    @Test func refusalsChangeNothing() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["duration": .uint32(600), "subtitle": .string("keep me")])
        let before = e.alarms[a.id]
        let past = Int64(monday0900 / sec) - 5
        let cases: [([String: Value], [String], String)] = [
            (["end_date": .int64(past)], [], "end_date"),
            (["accent_color": .string("#12")], [], "accent_color"),
            (["compact_label": .string("toolong")], [], "compact_label"),
            (["tap_action": .string("javascript:x")], [], "tap_action"),
            (["subtitle": .string("x")], ["subtitle"], "subtitle"),
            ([:], ["nonsense"], "nonsense"),
            ([:], ["title"], "title"),
            ([:], ["duration"], "schedule"),
            (["hour": .uint32(7)], [], "hour"),
        ]
        for (changes, clear, key) in cases {
            let err = expectError { () throws(AlarmError) in try update(e, a.id, changes, clear: clear) }
            #expect(err?.invalidKey == key, "\(changes) \(clear): \(err?.message ?? "accepted")")
            #expect(e.alarms[a.id] == before)
        }
    }

    @Test func alarmScheduleChangeReschedules() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["hour": .uint32(10), "minute": .uint32(0)])
        try update(e, a.id, ["hour": .uint32(11), "weekdays": .strings(["tuesday"])])
        #expect(e.alarms[a.id]!.fireTime == date("2026-03-03 11:00:00"))
        // Switching family needs the old keys cleared.
        let fixed = Int64(monday0900 / sec) + 7_200
        try update(e, a.id, ["fixed_date": .int64(fixed)], clear: ["hour", "minute", "weekdays"])
        #expect(e.alarms[a.id]!.fireTime == USec(fixed) * sec)
        let err = expectError { () throws(AlarmError) in try update(e, a.id, ["duration": .uint32(5)], clear: ["fixed_date"]) }
        #expect(err?.invalidKey == "duration", "an alarm cannot become a timer")
    }

    @Test func extensionLeavesTheWarningPhase() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["duration": .uint32(100), "warning_threshold": .uint32(30)])
        e.advance(clock, to: monday0900 + 75 * sec)
        #expect(e.alarms[a.id]!.phase == .warning)
        try update(e, a.id, ["duration": .uint32(200)])
        #expect(e.alarms[a.id]!.phase == .normal)
        e.advance(clock, to: monday0900 + 75 * sec + 170 * sec)
        #expect(e.alarms[a.id]!.phase == .warning, "the warning is re-armed for the new end")
    }
}
