// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing

@Suite struct StateMachineTests {
    @Test func timerCountsDownThenAlerts() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .string("5m")])
        #expect(t.kind == .timer && t.state == .countdown)
        #expect(t.countdownStart == monday0900 && t.countdownTotal == 300 * sec && t.fireTime == monday0900 + 300 * sec)
        #expect(e.nextDeadline == monday0900 + 300 * sec)
        #expect(e.nextFireTime == monday0900 + 300 * sec)
        e.advance(clock, to: monday0900 + 299 * sec)
        #expect(e.state(t.id) == .countdown)
        e.advance(clock, to: monday0900 + 300 * sec)
        #expect(e.state(t.id) == .alerting)
        #expect(e.nextFireTime == nil, "an alerting alarm is no longer pending")
    }

    @Test func pauseAndResumeKeepElapsedTime() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .uint32(100)])
        clock.set(monday0900 + 30 * sec)
        try e.run { () throws(AlarmError) in try e.plan(.pause(id: t.id), caller: .user) }
        var a = e.alarms[t.id]!
        #expect(a.state == .paused && a.elapsed == 30 * sec && a.fireTime == nil)
        #expect(a.remaining(now: clock.now()) == 70 * sec)
        #expect(e.nextDeadline == nil, "a paused timer needs no timer")
        // Time passes while paused: nothing moves.
        e.advance(clock, to: monday0900 + 1_000 * sec)
        a = e.alarms[t.id]!
        #expect(a.state == .paused && a.remaining(now: clock.now()) == 70 * sec && a.progress(now: clock.now()) == 0.3)
        try e.run { () throws(AlarmError) in try e.plan(.resume(id: t.id), caller: .user) }
        a = e.alarms[t.id]!
        #expect(a.state == .countdown && a.countdownStart == monday0900 + 1_000 * sec)
        #expect(a.fireTime == monday0900 + 1_070 * sec && a.elapsed == 30 * sec)
        // A second pause adds to the elapsed time.
        clock.set(monday0900 + 1_050 * sec)
        try e.run { () throws(AlarmError) in try e.plan(.pause(id: t.id), caller: .user) }
        #expect(e.alarms[t.id]!.elapsed == 80 * sec)
        clock.set(monday0900 + 2_000 * sec)
        try e.run { () throws(AlarmError) in try e.plan(.resume(id: t.id), caller: .user) }
        e.advance(clock, to: monday0900 + 2_019 * sec)
        #expect(e.state(t.id) == .countdown)
        e.advance(clock, to: monday0900 + 2_020 * sec)
        #expect(e.state(t.id) == .alerting)
    }

    @Test func snoozeLastsPostAlert() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .uint32(10), "post_alert": .uint32(90)])
        e.advance(clock, to: monday0900 + 12 * sec)
        #expect(e.state(t.id) == .alerting)
        try e.run { () throws(AlarmError) in try e.plan(.countdown(id: t.id), caller: .user) }
        let a = e.alarms[t.id]!
        #expect(a.state == .countdown && a.countdownTotal == 90 * sec && a.fireTime == monday0900 + 102 * sec)
        e.advance(clock, to: monday0900 + 101 * sec)
        #expect(e.state(t.id) == .countdown)
        e.advance(clock, to: monday0900 + 102 * sec)
        #expect(e.state(t.id) == .alerting)
    }

    @Test func defaultSnoozeIsFiveMinutes() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .uint32(1)])
        e.advance(clock, to: monday0900 + sec)
        try e.run { () throws(AlarmError) in try e.plan(.countdown(id: t.id), caller: .user) }
        #expect(e.alarms[t.id]!.countdownTotal == 300 * sec)
    }

    @Test func stopRemovesAOneShot() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 60)])
        #expect(t.state == .scheduled && t.fireTime == monday0900 + 60 * sec)
        e.advance(clock, to: monday0900 + 60 * sec)
        let m = try e.run { () throws(AlarmError) in try e.plan(.stop(id: t.id), caller: .user) }
        #expect(m.removals.map(\.reason) == [.stopped])
        #expect(e.alarms[t.id] == nil)
    }

    @Test func stopReschedulesARepeatingAlarm() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["hour": .uint32(10), "minute": .uint32(0), "weekdays": .strings(["monday", "friday"])])
        #expect(a.state == .scheduled && a.fireTime == date("2026-03-02 10:00:00"))
        e.advance(clock, to: date("2026-03-02 10:00:00"))
        #expect(e.state(a.id) == .alerting)
        clock.set(date("2026-03-02 10:01:00"))
        let m = try e.run { () throws(AlarmError) in try e.plan(.stop(id: a.id), caller: .user) }
        #expect(m.removals.isEmpty)
        #expect(e.state(a.id) == .scheduled)
        #expect(e.alarms[a.id]!.fireTime == date("2026-03-06 10:00:00"), "next listed day is Friday")
    }

    @Test func relativeWithoutWeekdaysIsOneShot() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["hour": .uint32(8), "minute": .uint32(15)])
        #expect(a.fireTime == date("2026-03-03 08:15:00"))
        e.advance(clock, to: try #require(a.fireTime))
        let m = try e.run { () throws(AlarmError) in try e.plan(.stop(id: a.id), caller: .user) }
        #expect(m.removals.map(\.reason) == [.stopped])
    }

    @Test func preAlertCountdownBeforeTheFireTime() throws {
        let (e, clock) = makeEngine()
        let fire = monday0900 + 3_600 * sec
        let a = try e.schedule(["fixed_date": .int64(Int64(fire / sec)), "pre_alert": .uint32(600)])
        #expect(a.state == .scheduled)
        #expect(e.nextDeadline == fire - 600 * sec)
        e.advance(clock, to: fire - 600 * sec - 1)
        #expect(e.state(a.id) == .scheduled)
        e.advance(clock, to: fire - 600 * sec)
        let c = e.alarms[a.id]!
        #expect(c.state == .countdown && c.countdownStart == fire - 600 * sec && c.countdownTotal == 600 * sec)
        #expect(c.progress(now: clock.now()) == 0)
        clock.set(fire - 300 * sec)
        #expect(e.alarms[a.id]!.progress(now: clock.now()) == 0.5)
        e.advance(clock, to: fire)
        #expect(e.state(a.id) == .alerting)
    }

    @Test func scheduledInsideThePreAlertWindowStartsCountingAtOnce() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 60), "pre_alert": .uint32(600)])
        #expect(a.state == .countdown && a.countdownTotal == 600 * sec)
        #expect(a.remaining(now: monday0900) == 60 * sec)
    }

    @Test func cancelRemovesFromAnyState() throws {
        let (e, clock) = makeEngine()
        let scheduled = try e.schedule(["hour": .uint32(10), "weekdays": .strings(["monday"])])
        let counting = try e.schedule(["duration": .uint32(100)])
        let paused = try e.schedule(["duration": .uint32(100)])
        let alerting = try e.schedule(["duration": .uint32(1)])
        try e.run { () throws(AlarmError) in try e.plan(.pause(id: paused.id), caller: .user) }
        e.advance(clock, to: monday0900 + 2 * sec)
        #expect(e.state(alerting.id) == .alerting)
        for a in [scheduled, counting, paused, alerting] {
            let m = try e.run { () throws(AlarmError) in try e.plan(.cancel(id: a.id), caller: .user) }
            #expect(m.removals.map(\.reason) == [.cancelled])
        }
        #expect(e.count == 0 && e.nextDeadline == nil && e.nextFireTime == nil)
    }

    /// Every method from every state: exactly the transitions of the contract are allowed.
    @Test func everyOtherTransitionIsInvalidState() throws {
        let allowed: Set<String> = ["alerting/Stop", "countdown/Pause", "paused/Resume", "alerting/Countdown"]
        for state in [AlarmState.scheduled, .countdown, .paused, .alerting] {
            for method in ["Stop", "Pause", "Resume", "Countdown"] {
                let (e, clock) = makeEngine()
                let a: Alarm
                switch state {
                case .scheduled: a = try e.schedule(["hour": .uint32(23), "weekdays": .strings(["sunday"])])
                case .countdown: a = try e.schedule(["duration": .uint32(100)])
                case .paused:
                    a = try e.schedule(["duration": .uint32(100)])
                    try e.run { () throws(AlarmError) in try e.plan(.pause(id: a.id), caller: .user) }
                case .alerting:
                    a = try e.schedule(["duration": .uint32(1)])
                    e.advance(clock, to: monday0900 + sec)
                }
                #expect(e.state(a.id) == state)
                let before = e.alarms[a.id]
                let err = expectError { () throws(AlarmError) in
                    switch method {
                    case "Stop": _ = try e.plan(.stop(id: a.id), caller: .user)
                    case "Pause": _ = try e.plan(.pause(id: a.id), caller: .user)
                    case "Resume": _ = try e.plan(.resume(id: a.id), caller: .user)
                    default: _ = try e.plan(.countdown(id: a.id), caller: .user)
                    }
                }
                if allowed.contains("\(state.rawValue)/\(method)") {
                    #expect(err == nil, "\(method) from \(state) must be allowed")
                } else {
                    #expect(err?.name == Contract.ErrorName.invalidState, "\(method) from \(state) must be refused")
                    #expect(e.alarms[a.id] == before, "a refused call changes nothing")
                }
            }
        }
    }

    @Test func silentCountdownCompletes() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .uint32(5), "ring": .bool(false)])
        let m = e.advance(clock, to: monday0900 + 5 * sec)
        #expect(m.removals.map(\.reason) == [.completed])
        #expect(e.alarms[t.id] == nil)
    }

    @Test func ringTimeoutEndsTheAlert() throws {
        let (e, clock) = makeEngine(ringTimeout: 600)
        let t = try e.schedule(["duration": .uint32(5)])
        let r = try e.schedule(["hour": .uint32(9), "minute": .uint32(1), "weekdays": .strings(["monday", "tuesday"])])
        e.advance(clock, to: monday0900 + 60 * sec)
        #expect(e.state(t.id) == .alerting && e.state(r.id) == .alerting)
        e.advance(clock, to: monday0900 + 604 * sec)
        #expect(e.state(t.id) == .alerting)
        let m = e.advance(clock, to: monday0900 + 660 * sec)
        #expect(m.removals.map(\.reason) == [.timeout])
        #expect(e.alarms[t.id] == nil)
        #expect(e.state(r.id) == .scheduled && e.alarms[r.id]!.fireTime == date("2026-03-03 09:01:00"))
    }

    @Test func warningPhaseOncePerRun() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .uint32(100), "warning_threshold": .uint32(20), "accent_color": .string("blue")])
        e.advance(clock, to: monday0900 + 79 * sec)
        #expect(e.alarms[t.id]!.phase == .normal)
        let m = e.advance(clock, to: monday0900 + 80 * sec)
        #expect(m.upserts.count == 1 && e.alarms[t.id]!.phase == .warning)
        #expect(e.alarms[t.id]!.effectivePresentation.accentColor == "orange")
        #expect(e.advance(clock, to: monday0900 + 90 * sec).isEmpty, "the warning happens once")
    }

    @Test func pauseDuringTheWarningWindow() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .uint32(100), "warning_threshold": .uint32(20)])
        e.advance(clock, to: monday0900 + 85 * sec)
        #expect(e.alarms[t.id]!.phase == .warning)
        try e.run { () throws(AlarmError) in try e.plan(.pause(id: t.id), caller: .user) }
        // Paused in the warning: it stays a warning, and nothing is due however long it waits.
        #expect(e.alarms[t.id]!.phase == .warning && e.nextDeadline == nil)
        e.advance(clock, to: monday0900 + 500 * sec)
        try e.run { () throws(AlarmError) in try e.plan(.resume(id: t.id), caller: .user) }
        let a = e.alarms[t.id]!
        #expect(a.phase == .warning && a.fireTime == monday0900 + 515 * sec)
        #expect(e.advance(clock, to: monday0900 + 514 * sec).isEmpty, "no second warning")
        e.advance(clock, to: monday0900 + 515 * sec)
        #expect(e.state(t.id) == .alerting)
    }

    @Test func completionWithRingThenSnoozeForPostAlert() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .uint32(60), "warning_threshold": .uint32(10), "post_alert": .uint32(120),
                                "completion_message": .string("Done")])
        e.advance(clock, to: monday0900 + 60 * sec)
        #expect(e.state(t.id) == .alerting)
        #expect(AlertText.alert(e.alarms[t.id]!, in: utc, English()).body == "Done")
        try e.run { () throws(AlarmError) in try e.plan(.countdown(id: t.id), caller: .user) }
        let a = e.alarms[t.id]!
        #expect(a.state == .countdown && a.countdownTotal == 120 * sec && a.phase == .normal)
        // The snooze run gets its own warning.
        e.advance(clock, to: monday0900 + 170 * sec)
        #expect(e.alarms[t.id]!.phase == .warning)
    }
}
