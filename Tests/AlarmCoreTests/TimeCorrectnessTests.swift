// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing
import TestSupport

/// Missed alarms, clock steps and zone changes in the state machine.
@Suite struct TimeCorrectnessTests {
    @Test func lateWithinTheGraceRings() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 60)])
        let m = e.advance(clock, to: monday0900 + 60 * sec + 59 * sec)
        #expect(e.state(a.id) == .alerting && m.missed.isEmpty)
    }

    @Test func lateBeyondTheGraceIsMissed() throws {
        let (e, clock) = makeEngine()
        let oneShot = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 60)])
        let daily = try e.schedule(["hour": .uint32(9), "minute": .uint32(1), "weekdays": .strings(Weekday.allCases.map(\.rawValue))])
        let timer = try e.schedule(["duration": .uint32(60)])
        let forced = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 60), "trigger_if_missed": .bool(true)])
        // Asleep for three days: one ring at most, never a backlog.
        let m = e.advance(clock, to: monday0900 + 3 * 86_400 * sec)
        #expect(Set(m.missed.map(\.id)) == [oneShot.id, daily.id, timer.id])
        #expect(Set(m.removals.filter { $0.reason == .missed }.map(\.alarm.id)) == [oneShot.id, timer.id])
        #expect(e.state(daily.id) == .scheduled && e.alarms[daily.id]!.fireTime == date("2026-03-05 09:01:00"))
        #expect(e.state(forced.id) == .alerting, "trigger_if_missed rings however late")
    }

    @Test func graceIsConfigurable() throws {
        let (e, clock) = makeEngine(missedGrace: 0)
        let a = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 60)])
        e.advance(clock, to: monday0900 + 61 * sec)
        #expect(e.alarms[a.id] == nil)
    }

    @Test func clockStepKeepsTimersRemainingTimeAndInstantsWhereTheyAre() throws {
        let (e, clock) = makeEngine()
        let timer = try e.schedule(["duration": .uint32(600)])
        let byEnd = try e.schedule(["end_date": .int64(Int64(monday0900 / sec) + 600)])
        let fixed = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 7_200)])
        clock.set(monday0900 + 100 * sec)
        // NTP steps the clock an hour forward.
        clock.set(monday0900 + 3_700 * sec)
        let m = try e.plan(.clockStep(delta: 3_600 * Int64(sec)), caller: .user)
        e.apply(m)
        let t = e.alarms[timer.id]!
        #expect(t.state == .countdown && t.remaining(now: clock.now()) == 500 * sec, "a timer keeps its remaining time")
        #expect(e.alarms[byEnd.id] == nil && m.missed.map(\.id) == [byEnd.id], "an end date is an instant: long past now")
        #expect(e.alarms[fixed.id]!.fireTime == monday0900 + 7_200 * sec, "fixed dates keep their instant")
        // And back again.
        clock.set(monday0900 + 200 * sec)
        e.apply(try e.plan(.clockStep(delta: -3_500 * Int64(sec)), caller: .user))
        #expect(e.alarms[timer.id]!.remaining(now: clock.now()) == 500 * sec)
        #expect(e.state(fixed.id) == .scheduled)
    }

    @Test func snoozeIsADuration() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 10), "post_alert": .uint32(300)])
        e.advance(clock, to: monday0900 + 10 * sec)
        try e.run { () throws(AlarmError) in try e.plan(.countdown(id: a.id), caller: .user) }
        clock.set(monday0900 + 10 * sec + 3_600 * sec)
        e.apply(try e.plan(.clockStep(delta: 3_600 * Int64(sec)), caller: .user))
        #expect(e.alarms[a.id]!.remaining(now: clock.now()) == 300 * sec)
    }

    @Test func zoneChangeMovesRelativeAlarmsOnly() throws {
        let (e, _) = makeEngine(at: date("2026-06-01 12:00:00"))
        let relative = try e.schedule(["hour": .uint32(7), "minute": .uint32(0), "weekdays": .strings(["tuesday"])])
        let fixed = try e.schedule(["fixed_date": .int64(Int64(date("2026-06-02 07:00:00") / sec))])
        let timer = try e.schedule(["duration": .uint32(3_600)])
        #expect(relative.fireTime == date("2026-06-02 07:00:00"))
        let tokyo = Zone.system("Asia/Tokyo")
        let m = try e.plan(.timeZoneChange(tokyo), caller: .user)
        #expect(e.timeZone == utc && e.alarms[relative.id]!.fireTime == relative.fireTime, "planning changes nothing")
        e.apply(m)
        #expect(m.upserts.map(\.id) == [relative.id])
        #expect(e.alarms[relative.id]!.fireTime == date("2026-06-02 07:00:00", tokyo), "07:00 in the new zone")
        #expect(e.alarms[fixed.id]!.fireTime == fixed.fireTime && e.alarms[timer.id]!.fireTime == timer.fireTime)
        #expect(e.timeZone == tokyo)
    }
}
