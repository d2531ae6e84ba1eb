// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// One alarm as a client sees it: the `org.alarmd.Alarm1` properties, typed, with remaining time
/// and progress computed from them as docs/API.md ("Drawing a live countdown") says, so nothing
/// needs to tick on the bus.
///
/// The typed properties read ``properties`` by their D-Bus names (docs/API.md, "org.alarmd.Alarm1");
/// one that is missing or of another type reads as empty, 0 or false (``ring`` as true), and
/// ``kind``, ``state`` and ``phase`` as nil. Times are realtime microseconds since the epoch,
/// durations microseconds, unless a property says seconds.
public struct AlarmSnapshot: Equatable, Sendable {
    /// Every property alarmd sent, by its D-Bus name (`Id`, `State`, `FireTimeUSec`, …), as sent:
    /// properties this library has no typed form of are here too.
    public var properties: [String: Value]

    /// A snapshot of the properties given, as they are; nothing is checked.
    ///
    /// - Parameter properties: Property values by their D-Bus names.
    public init(properties: [String: Value]) { self.properties = properties }

    /// From an `a{sv}` property map (GetAlarms, GetAll, InterfacesAdded).
    ///
    /// - Parameter dict: The property map, as the reply or signal carried it.
    /// - Returns: nil when `dict` is not an `a{sv}` or holds no `Id`.
    public init?(_ dict: Value) {
        guard let entries = dict.vardictEntries else { return nil }
        self.init(properties: Dictionary(entries, uniquingKeysWith: { _, new in new }))
        guard !id.isEmpty else { return nil }
    }

    /// Applies a PropertiesChanged: changed values replace, invalidated ones are dropped.
    ///
    /// - Parameters:
    ///   - changed: The new values by property name.
    ///   - invalidated: The names of properties whose values the signal left out.
    public mutating func apply(changed: [String: Value], invalidated: [String] = []) {
        properties.merge(changed) { _, new in new }
        for name in invalidated { properties.removeValue(forKey: name) }
    }

    /// A string property as alarmd sent it, for showing a name this library has no type for.
    ///
    /// ``state`` is nil for a state a newer alarmd added; `string("State")` still reads its name.
    ///
    /// - Parameter property: The D-Bus property name (`State`, `Kind`, …).
    /// - Returns: The value; empty when the property is missing or not a string.
    public func string(_ property: String) -> String { properties[property]?.unwrapped.stringValue ?? "" }
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

    /// The alarm's id (`Id`): a lowercase UUID, which every ``AlarmManagerProxy`` call on it takes.
    public var id: String { string("Id") }
    /// The id of the app that set it (`AppId`); empty for the user's own tools.
    public var appId: String { string("AppId") }
    /// An alarm or a timer (`Kind`).
    ///
    /// nil when the property is missing or names a kind this library does not know (one a newer
    /// alarmd added): such an alarm is neither, and ``string(_:)`` reads the name as sent.
    public var kind: AlarmKind? { AlarmKind(rawValue: string("Kind")) }
    /// Where it stands in docs/API.md's state machine (`State`): scheduled, counting down, paused
    /// or ringing.
    ///
    /// nil when the property is missing or names a state this library does not know (one a newer
    /// alarmd added). Such an alarm is none of ``isAlerting``, ``isCountingDown`` and ``isPaused``,
    /// has no time left and no progress; ``string(_:)`` reads the name as sent, to show it.
    public var state: AlarmState? { AlarmState(rawValue: string("State")) }
    /// Its countdown's phase (`Phase`): `warning` once no more than its `warning_threshold`
    /// remains, else `normal`.
    ///
    /// nil when the property is missing or names a phase this library does not know; only
    /// ``isWarning`` styles a countdown.
    public var phase: Phase? { Phase(rawValue: string("Phase")) }
    /// What it rings with (`Sound`): `default`, one of alarmd's own sounds, a sound-theme event id,
    /// or an absolute file path.
    public var sound: String { string("Sound") }
    /// Why its sound cannot be heard (`SoundError`, an extension); empty when nothing is wrong.
    public var soundError: String { string("SoundError") }
    /// When it next alerts (`FireTimeUSec`); 0 while paused.
    public var fireTime: USec { usec("FireTimeUSec") }
    /// When the current run of its countdown began (`CountdownStartUSec`).
    public var countdownStart: USec { usec("CountdownStartUSec") }
    /// The whole length of its countdown (`CountdownTotalUSec`).
    public var countdownTotal: USec { usec("CountdownTotalUSec") }
    /// The time counted before the last resume (`ElapsedUSec`), for paused countdowns.
    public var elapsed: USec { usec("ElapsedUSec") }
    /// Seconds of countdown before the alert (`PreAlert`, the `pre_alert` key); 0 for none.
    public var preAlert: UInt32 { uint("PreAlert") }
    /// Seconds a snooze counts down (`PostAlert`, the `post_alert` key).
    public var postAlert: UInt32 { uint("PostAlert") }
    /// Whether it rings when its countdown ends (`Ring`); false for a silent countdown, which ends
    /// with its completion message.
    public var ring: Bool { properties["Ring"]?.unwrapped.boolValue ?? true }
    /// Whether the alarm is on (`Enabled`; an alarmd without the switch reports none: on). One that
    /// is off reads `scheduled` with no fire time and never rings.
    public var enabled: Bool { properties["Enabled"]?.unwrapped.boolValue ?? true }
    /// Its schedule keys as alarmd accepted them (`Schedule`): ``weekdays`` reads one.
    public var schedule: [String: Value] { map("Schedule") }
    /// Its presentation keys, defaults filled in (`Presentation`): ``text(_:)`` reads one.
    public var presentation: [String: Value] { map("Presentation") }
    /// The app's own data, as it gave it (`Metadata`).
    public var metadata: [String: Value] { map("Metadata") }
    /// Its object path, `/org/alarmd/AlarmManager1/alarm/` and its id with `_` for `-`: where its
    /// properties are read and its `PropertiesChanged` come from.
    public var path: String { AlarmID.path(of: id) }

    /// Whether it is a timer rather than an alarm.
    public var isTimer: Bool { kind == .timer }
    /// Whether it is ringing now.
    public var isAlerting: Bool { state == .alerting }
    /// Whether it is a paused countdown.
    public var isPaused: Bool { state == .paused }
    /// Counting down now (a timer, a pre-alert or a snooze); paused countdowns do not move.
    public var isCountingDown: Bool { state == .countdown }
    /// Whether its countdown is in its warning phase.
    public var isWarning: Bool { phase == .warning }

    /// One text of its presentation.
    ///
    /// - Parameter key: The presentation key (`subtitle`, `status`, `stop_button`, …).
    /// - Returns: The text; empty when the key is unset or not a string.
    public func text(_ key: String) -> String { presentation[key]?.stringValue ?? "" }
    /// Its title (the `title` key); empty when the app gave none.
    public var title: String { text("title") }
    /// The short text for tiny slots (the `compact_label` key); empty when unset.
    public var compactLabel: String { text("compact_label") }
    /// Its icon (the `icon` key): a freedesktop icon name or an `mdi:` name; empty when unset.
    public var icon: String { text("icon") }
    /// The accent as the daemon reports it (it reads `orange` in the warning phase).
    public var accentColor: String { text("accent_color") }

    /// Repeat days in week order; empty for a one-shot.
    ///
    /// Lowercase English names, `monday` to `sunday`.
    public var weekdays: [String] {
        guard case .array(_, let items)? = schedule["weekdays"]?.unwrapped else { return [] }
        return items.compactMap(\.stringValue)
    }

    /// The order a person reads alarms in: ringing first, then by when they fire, paused countdowns last.
    ///
    /// Alarms that fire at the same instant are ordered by id, so the order never changes between
    /// two reads of the same alarms.
    ///
    /// - Parameter items: Alarms in any order.
    /// - Returns: The same alarms in reading order.
    public static func readingOrder(_ items: [AlarmSnapshot]) -> [AlarmSnapshot] {
        items.sorted { a, b in
            if a.isAlerting != b.isAlerting { return a.isAlerting }
            let fa = a.isPaused ? UInt64.max : a.fireTime, fb = b.isPaused ? UInt64.max : b.fireTime
            return (fa, a.id) < (fb, b.id)
        }
    }

    /// The time left at `now`, by the rule of docs/API.md ("Drawing a live countdown"): countdown →
    /// until FireTimeUSec; paused → total − elapsed, frozen; alerting → 0; scheduled → until the alert.
    ///
    /// - Parameter now: The current time, in realtime µs.
    /// - Returns: Microseconds left; 0 once the alert is due, while it rings, and in a state this
    ///   library does not know.
    public func remaining(at now: USec) -> USec {
        switch state {
        case .countdown?, .scheduled?: return fireTime > now ? fireTime - now : 0
        case .paused?: return countdownTotal > elapsed ? countdownTotal - elapsed : 0
        case .alerting?, nil: return 0
        }
    }

    /// 0…1: (total − remaining) / total while counting down or paused; 1 alerting; 0 scheduled.
    ///
    /// - Parameter now: The current time, in realtime µs.
    /// - Returns: The share of the countdown done, from 0 to 1; 0 for a countdown of no length.
    public func progress(at now: USec) -> Double {
        switch state {
        case .alerting?: return 1
        case .countdown?, .paused?:
            guard countdownTotal > 0 else { return 0 }
            let r = min(remaining(at: now), countdownTotal)
            return Double(countdownTotal - r) / Double(countdownTotal)
        case .scheduled?, nil: return 0
        }
    }
}
