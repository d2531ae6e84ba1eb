// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// One alarm as a client sees it: the `org.alarmd.Alarm1` properties, typed, with remaining time
/// and progress computed from them as docs/API.md and the README's applet rule say, so nothing
/// needs to tick on the bus.
public struct AlarmSnapshot: Equatable, Sendable {
    public var properties: [String: Value]

    public init(properties: [String: Value]) { self.properties = properties }

    /// From an `a{sv}` property map (GetAlarms, GetAll, InterfacesAdded).
    public init?(_ dict: Value) {
        guard let entries = dict.vardictEntries else { return nil }
        self.init(properties: Dictionary(entries, uniquingKeysWith: { _, new in new }))
        guard !id.isEmpty else { return nil }
    }

    /// Applies a PropertiesChanged: changed values replace, invalidated ones are dropped.
    public mutating func apply(changed: [String: Value], invalidated: [String] = []) {
        properties.merge(changed) { _, new in new }
        for name in invalidated { properties.removeValue(forKey: name) }
    }

    private func string(_ key: String) -> String { properties[key]?.unwrapped.stringValue ?? "" }
    private func usec(_ key: String) -> USec {
        if case .uint64(let v)? = properties[key]?.unwrapped { return v }
        return 0
    }
    private func uint(_ key: String) -> UInt32 {
        if case .uint32(let v)? = properties[key]?.unwrapped { return v }
        return 0
    }
    private func map(_ key: String) -> [String: Value] {
        Dictionary(properties[key]?.unwrapped.vardictEntries ?? [], uniquingKeysWith: { _, new in new })
    }

    public var id: String { string("Id") }
    public var appId: String { string("AppId") }
    public var kind: String { string("Kind") }
    public var state: String { string("State") }
    public var phase: String { string("Phase") }
    public var sound: String { string("Sound") }
    public var soundError: String { string("SoundError") }
    public var fireTime: USec { usec("FireTimeUSec") }
    public var countdownStart: USec { usec("CountdownStartUSec") }
    public var countdownTotal: USec { usec("CountdownTotalUSec") }
    public var elapsed: USec { usec("ElapsedUSec") }
    public var preAlert: UInt32 { uint("PreAlert") }
    public var postAlert: UInt32 { uint("PostAlert") }
    public var ring: Bool { properties["Ring"]?.unwrapped.boolValue ?? true }
    public var schedule: [String: Value] { map("Schedule") }
    public var presentation: [String: Value] { map("Presentation") }
    public var metadata: [String: Value] { map("Metadata") }
    public var path: String { AlarmID.path(of: id) }

    public var isTimer: Bool { kind == "timer" }
    public var isAlerting: Bool { state == "alerting" }
    public var isPaused: Bool { state == "paused" }
    /// Counting down now (a timer, a pre-alert or a snooze); paused countdowns do not move.
    public var isCountingDown: Bool { state == "countdown" }
    public var isWarning: Bool { phase == "warning" }

    public func text(_ key: String) -> String { presentation[key]?.stringValue ?? "" }
    public var title: String { text("title") }
    public var compactLabel: String { text("compact_label") }
    public var icon: String { text("icon") }
    /// The accent as the daemon reports it (it reads `orange` in the warning phase).
    public var accentColor: String { text("accent_color") }

    /// Repeat days in week order; empty for a one-shot.
    public var weekdays: [String] {
        guard case .array(_, let items)? = schedule["weekdays"]?.unwrapped else { return [] }
        return items.compactMap(\.stringValue)
    }

    /// The order a person reads alarms in: ringing first, then by when they fire, paused countdowns last.
    public static func readingOrder(_ items: [AlarmSnapshot]) -> [AlarmSnapshot] {
        items.sorted { a, b in
            if a.isAlerting != b.isAlerting { return a.isAlerting }
            let fa = a.isPaused ? UInt64.max : a.fireTime, fb = b.isPaused ? UInt64.max : b.fireTime
            return (fa, a.id) < (fb, b.id)
        }
    }

    /// The README's applet rule: countdown → until FireTimeUSec; paused → total − elapsed, frozen;
    /// alerting → 0; scheduled → until the alert.
    public func remaining(at now: USec) -> USec {
        switch state {
        case "countdown", "scheduled": return fireTime > now ? fireTime - now : 0
        case "paused": return countdownTotal > elapsed ? countdownTotal - elapsed : 0
        default: return 0
        }
    }

    /// 0…1: (total − remaining) / total while counting down or paused; 1 alerting; 0 scheduled.
    public func progress(at now: USec) -> Double {
        switch state {
        case "alerting": return 1
        case "countdown", "paused":
            guard countdownTotal > 0 else { return 0 }
            let r = min(remaining(at: now), countdownTotal)
            return Double(countdownTotal - r) / Double(countdownTotal)
        default: return 0
        }
    }
}
