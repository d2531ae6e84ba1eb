// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing

/// An alarm switched off (`enabled: false`) and on: kept whole, never rings, never counts as next;
/// on again, it rings at its next occurrence from then, never a missed one.
@Suite struct SwitchTests {
    func update(_ e: AlarmEngine, _ id: String, _ changes: [String: Value], clear: [String] = []) throws(AlarmError) {
        try e.run { () throws(AlarmError) in try e.plan(.update(id: id, changes: changes, clear: clear), caller: .user) }
    }

    let weekdays: Value = .strings(["monday", "tuesday", "wednesday", "thursday", "friday"])

    @Test func offKeepsEverythingAndNeverRings() throws {
        let (e, clock) = makeEngine()
        let off = try e.schedule(["hour": .uint32(9), "minute": .uint32(30), "weekdays": weekdays,
                                  "title": .string("Get up"), "post_alert": .uint32(600)])
        let on = try e.schedule(["hour": .uint32(9), "minute": .uint32(30), "weekdays": weekdays])
        try update(e, off.id, ["enabled": .bool(false)])
        let a = e.alarms[off.id]!
        #expect(!a.config.enabled && a.run == .off)
        #expect(a.state == .scheduled && a.flat.fireTime == 0, "an old client sees a scheduled alarm with no fire time")
        #expect(a.config.schedule == off.config.schedule && a.config.presentation.title == "Get up" && a.config.postAlert == 600)
        #expect(e.nextFireTime == on.fireTime, "only the alarm that is on counts for NextFireTimeUSec")
        // Its time comes: the one that is on rings, the one that is off does not, in the same step.
        let m = e.advance(clock, to: monday0900 + 30 * 60 * sec)
        #expect(e.state(on.id) == .alerting)
        #expect(e.alarms[off.id]!.run == .off && !m.upserts.contains { $0.id == off.id })
        #expect(m.missed.isEmpty, "an alarm that is off is not missed either")
    }

    @Test func onAgainRingsAtTheNextOccurrenceNotAMissedOne() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["hour": .uint32(9), "minute": .uint32(30), "weekdays": weekdays])
        try update(e, a.id, ["enabled": .bool(false)])
        // Off past Monday's 09:30 and switched on at 10:00: Tuesday 09:30, not Monday's.
        e.advance(clock, to: monday0900 + 60 * 60 * sec)
        try update(e, a.id, ["enabled": .bool(true)])
        #expect(e.alarms[a.id]!.run == .scheduled(fireTime: monday0900 + (24 * 60 + 30) * 60 * sec))
        #expect(e.nextFireTime == monday0900 + (24 * 60 + 30) * 60 * sec)
        // Clearing the key is switching on as well (its default).
        try update(e, a.id, ["enabled": .bool(false)])
        try update(e, a.id, [:], clear: ["enabled"])
        #expect(e.alarms[a.id]!.config.enabled && e.alarms[a.id]!.fireTime != nil)
    }

    @Test func changedWhileOffStaysOff() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["hour": .uint32(6), "minute": .uint32(45), "weekdays": weekdays])
        try update(e, a.id, ["enabled": .bool(false)])
        try update(e, a.id, ["hour": .uint32(7), "minute": .uint32(0), "title": .string("Later")])
        let b = e.alarms[a.id]!
        #expect(b.run == .off && b.config.schedule == .relative(hour: 7, minute: 0, weekdays: [.monday, .tuesday, .wednesday, .thursday, .friday]))
        try update(e, a.id, ["enabled": .bool(true)])
        #expect(e.alarms[a.id]!.fireTime == monday0900 + 22 * 60 * 60 * sec, "Tuesday 07:00")
    }

    @Test func scheduledOff() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["hour": .uint32(6), "enabled": .bool(false)])
        #expect(a.run == .off && e.nextFireTime == nil && e.nextDeadline == nil)
    }

    @Test func switchingOffARingingOrSnoozedAlarmEndsItsAlertAndKeepsIt() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["hour": .uint32(9), "minute": .uint32(30)])
        e.advance(clock, to: monday0900 + 30 * 60 * sec)
        #expect(e.state(a.id) == .alerting)
        let m = try e.run { () throws(AlarmError) in try e.plan(.update(id: a.id, changes: ["enabled": .bool(false)], clear: []), caller: .user) }
        #expect(m.removals.isEmpty && e.alarms[a.id]!.run == .off, "a one-shot that is off is kept, not removed")
        let effects = AlertPlan.effects(old: a.with(.alerting, fire: monday0900 + 30 * 60 * sec), new: e.alarms[a.id]!, timedOut: false,
                                        snoozed: false, notificationShown: true)
        #expect(effects == [.silence(a.id), .withdraw(a.id)], "the sound stops and the notification goes")
        // On again: tomorrow's 09:30 (the next occurrence), not a ring now.
        try update(e, a.id, ["enabled": .bool(true)])
        #expect(e.alarms[a.id]!.run == .scheduled(fireTime: monday0900 + (24 * 60 + 30) * 60 * sec))
    }

    @Test func switchingOnWhatIsOnKeepsItsRun() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["hour": .uint32(9), "minute": .uint32(30), "weekdays": weekdays])
        e.advance(clock, to: monday0900 + 30 * 60 * sec)
        try e.run { () throws(AlarmError) in try e.plan(.countdown(id: a.id), caller: .user) }
        let snoozed = e.alarms[a.id]!.run
        try update(e, a.id, ["enabled": .bool(true)])
        #expect(e.alarms[a.id]!.run == snoozed, "a snooze goes on")
    }

    @Test func refusals() throws {
        let (e, clock) = makeEngine()
        let timer = try e.schedule(["duration": .uint32(600)])
        let err = expectError { () throws(AlarmError) in try update(e, timer.id, ["enabled": .bool(false)]) }
        #expect(err?.name == Contract.ErrorName.invalidArgument && err?.message.contains("enabled") == true)
        #expect(e.alarms[timer.id] == timer)
        let typed = expectError { () throws(AlarmError) in _ = try e.schedule(["hour": .uint32(6), "enabled": .string("no")]) }
        #expect(typed?.name == Contract.ErrorName.invalidArgument && typed?.message.contains("enabled") == true)
        // A fixed date that passed while off has no next occurrence: switching on is refused, and
        // with a new date it is not.
        let fixed = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 60)])
        try update(e, fixed.id, ["enabled": .bool(false)])
        e.advance(clock, to: monday0900 + 120 * sec)
        let past = expectError { () throws(AlarmError) in try update(e, fixed.id, ["enabled": .bool(true)]) }
        #expect(past?.name == Contract.ErrorName.invalidArgument && past?.message.contains("fixed_date") == true)
        #expect(e.alarms[fixed.id]!.run == .off)
        try update(e, fixed.id, ["enabled": .bool(true), "fixed_date": .int64(Int64(monday0900 / sec) + 600)])
        #expect(e.alarms[fixed.id]!.run == .scheduled(fireTime: monday0900 + 600 * sec))
    }

    @Test func theStoresRecordKeepsIt() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["hour": .uint32(6), "minute": .uint32(45), "weekdays": weekdays])
        try update(e, a.id, ["enabled": .bool(false)])
        let off = e.alarms[a.id]!
        #expect(Alarm(record: off.record) == off)
        var bad = off.record
        bad.state = 1 // countdown: an alarm that is off waits for nothing
        #expect(Alarm(record: bad) == nil)
        #expect(try AlarmConfiguration.parse(off.config.raw, now: monday0900).enabled == false, "Update's merge-patch keeps it off")
    }

    @Test func theUsersOwnAlarmsAreSnoozedWhereverTheyRing() throws {
        let (e, _) = makeEngine()
        let mine = try e.schedule(["hour": .uint32(6)])
        #expect(mine.config.presentation.secondaryButton == AlarmEngine.userSnoozeButton)
        #expect(mine.config.presentation.secondaryButtonBehavior == .countdown)
        let named = try e.schedule(["hour": .uint32(6), "secondary_button": .string("Later")])
        #expect(named.config.presentation.secondaryButton == "Later")
        try e.run { () throws(AlarmError) in try e.plan(.setAuthorization(app: "org.example.Clock", state: .authorized), caller: .user) }
        let apps = try e.schedule(["hour": .uint32(6)], app: "org.example.Clock")
        #expect(apps.config.presentation.secondaryButton == "", "an app decides for its own alarms")
    }
}
