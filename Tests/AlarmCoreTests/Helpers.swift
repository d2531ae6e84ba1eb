import AlarmCore
import Foundation

/// 2026-03-02 09:00:00 UTC, a Monday.
let monday0900: USec = 1_772_442_000 * usecPerSecond
let sec = usecPerSecond

let utc = TimeZone(identifier: "UTC")!

func makeEngine(at now: USec = monday0900, zone: TimeZone = utc) -> (AlarmEngine, ManualClock) {
    let clock = ManualClock(now)
    return (AlarmEngine(clock: clock, timeZone: zone), clock)
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
        let m = try run { () throws(AlarmError) in try planSchedule(app: app, id: id, configuration: config(entries)) }
        return m.upserts.first ?? m.removals.first!.alarm
    }

    /// Moves the clock and applies whatever became due, returning what happened.
    @discardableResult
    func advance(_ clock: ManualClock, to t: USec) -> Mutation {
        clock.set(t)
        let m = planDue()
        apply(m)
        return m
    }

    func state(_ id: String) -> AlarmState? { alarms[id]?.state }
}

func expectError(_ body: () throws(AlarmError) -> Void) -> AlarmError? {
    do { try body() } catch { return error }
    return nil
}


func date(_ s: String, _ zone: TimeZone = utc) -> USec {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = zone
    f.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return USec(f.date(from: s)!.timeIntervalSince1970) * usecPerSecond
}

extension AlarmError {
    /// The key an `InvalidArgument` names, nil for any other error.
    var invalidKey: String? {
        if case .invalidArgument(let key, _) = self { return key }
        return nil
    }
}
