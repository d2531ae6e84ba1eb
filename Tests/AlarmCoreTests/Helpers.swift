// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import TestSupport

/// 2026-03-02 09:00:00 UTC, a Monday.
let monday0900: USec = 1_772_442_000 * usecPerSecond
let sec = usecPerSecond

let utc = Zone.utc

func makeEngine(at now: USec = monday0900, zone: Zone = utc, limits: Limits = .init(), ringTimeout: UInt64 = 600,
                missedGrace: UInt64 = 60) -> (AlarmEngine, ManualClock) {
    let clock = ManualClock(now)
    return (AlarmEngine(clock: clock, timeZone: zone, limits: limits, ringTimeout: ringTimeout, missedGrace: missedGrace), clock)
}

func config(_ entries: [String: Value]) -> [String: Value] {
    var c = entries
    if c["title"] == nil { c["title"] = .string("Test") }
    return c
}

extension AlarmEngine {
    /// Plans and applies, like the daemon does (minus the store).
    @discardableResult
    func run(_ plan: () throws(AlarmError) -> Mutation) throws(AlarmError) -> Mutation {
        let m = try plan()
        apply(m)
        return m
    }

    func schedule(_ entries: [String: Value], app: String = "", id: String = "") throws(AlarmError) -> Alarm {
        let m = try run { () throws(AlarmError) in try plan(.schedule(id: id, configuration: config(entries)), caller: Caller(appId: app)) }
        return m.upserts.first ?? m.removals.first!.alarm
    }

    /// Moves the clock and applies whatever became due, returning what happened.
    @discardableResult
    func advance(_ clock: ManualClock, to t: USec) -> Mutation {
        clock.set(t)
        // `.due` is never refused.
        let m = try! plan(.due, caller: .user)
        apply(m)
        return m
    }

    func state(_ id: String) -> AlarmState? { alarms[id]?.state }
}

extension Alarm {
    /// The wire's countdown values (`CountdownStartUSec`, `CountdownTotalUSec`, `ElapsedUSec`): 0 without a countdown.
    var countdownStart: USec { flat.countdownStart }
    var countdownTotal: USec { flat.countdownTotal }
    var elapsed: USec { flat.elapsed }

    /// The alarm put in `state` with the fire time `fire` (none while paused), keeping its countdown:
    /// for tables of transitions that no plan needs to reach.
    func with(_ state: AlarmState, fire: USec) -> Alarm {
        var a = self
        let c = run.countdown ?? Countdown(start: fire, total: 0, measuresDuration: true)
        switch state {
        case .scheduled: a.run = .scheduled(fireTime: fire)
        case .countdown: a.run = .countdown(c, fireTime: fire)
        case .paused: a.run = .paused(c)
        case .alerting: a.run = .alerting(fireTime: fire, since: fire, countdown: run.countdown)
        }
        return a
    }
}

func expectError(_ body: () throws(AlarmError) -> Void) -> AlarmError? {
    do { try body() } catch { return error }
    return nil
}


/// "yyyy-MM-dd HH:mm:ss" on the wall in `zone`: its first occurrence, or the end of its gap.
func date(_ s: String, _ zone: Zone = utc) -> USec {
    let f = s.split(whereSeparator: { "- :".contains($0) }).map { Int($0)! }
    let wall = LocalTime(year: Int64(f[0]), month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5])
    return USec(zone.firstInstant(wall: wall.wallSeconds)) * usecPerSecond
}

extension AlarmError {
    /// The key an `InvalidArgument` names, nil for any other error.
    var invalidKey: String? {
        if case .invalidArgument(let key, _) = self { return key }
        return nil
    }
}
