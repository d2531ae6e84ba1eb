// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// One local time type of a zone: its offset from UTC, whether it is daylight time, its abbreviation.
public struct LocalTimeType: Sendable, Hashable {
    /// Seconds east of UTC.
    public var offset: Int32
    public var isDST: Bool
    public var abbreviation: String

    init(offset: Int32, isDST: Bool, abbreviation: String) {
        self.offset = offset
        self.isDST = isDST
        self.abbreviation = abbreviation
    }
}

/// A local date and time: what an instant reads on the wall in a zone.
public struct LocalTime: Sendable, Hashable, CustomStringConvertible {
    public var year: Int64
    /// 1…12
    public var month: Int
    /// 1…31
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int

    public init(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        weekday = Civil.weekday(fromDays: Civil.days(year: year, month: month, day: day))
    }

    /// The date as days since 1970-01-01: how many days apart two wall-clock dates are.
    public var dayNumber: Int64 { Civil.days(year: year, month: month, day: day) }

    /// How many days `month` (1…12) of `year` has.
    public static func daysIn(year: Int64, month: Int) -> Int { Civil.daysInMonth(year, month) }

    /// The wall time as seconds since 1970-01-01 00:00 read as if it were UTC.
    public var wallSeconds: Int64 {
        Civil.days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    }

    public init(wallSeconds w: Int64) {
        let days = Civil.floorDiv(w, 86_400)
        let (y, m, d) = Civil.date(fromDays: days)
        let s = Int(w - days * 86_400)
        self.init(year: y, month: m, day: d, hour: s / 3_600, minute: s / 60 % 60, second: s % 60)
    }

    public var description: String {
        "\(year)-\(twoDigits(month))-\(twoDigits(day)) \(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))"
    }
}

/// A time zone as data: the rules of one TZif file (RFC 8536) — its transitions and, past the last
/// of them, its footer's POSIX rule — and the name it goes by. Pure: the shell reads the file and
/// hands the bytes to `Zone.parse`; everything here is arithmetic on seconds since the epoch.
///
/// Readings follow glibc's, so that alarmd and `date` agree: before the first transition (or with
/// none) the first standard-time type applies (RFC 8536 says type 0; they differ only for a file
/// whose type 0 is daylight time); from the last transition on, the footer's rule when there is one.
public struct Zone: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    /// Transition instants, ascending.
    let transitions: [Int64]
    /// For each transition, the index in `types` of the type it begins.
    let transitionTypes: [Int]
    let types: [LocalTimeType]
    /// What applies after the last transition; `nil` keeps the last transition's type.
    let rule: PosixTZ?

    init(name: String, transitions: [Int64], transitionTypes: [Int], types: [LocalTimeType], rule: PosixTZ?) {
        precondition(!types.isEmpty && transitions.count == transitionTypes.count && transitionTypes.allSatisfy(types.indices.contains))
        self.name = name
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        self.rule = rule
        initial = types.first { !$0.isDST } ?? types[0]
    }

    private let initial: LocalTimeType

    /// A zone with one type and no transitions.
    static func fixed(name: String, offset: Int32, abbreviation: String) -> Zone {
        Zone(name: name, transitions: [], transitionTypes: [], types: [LocalTimeType(offset: offset, isDST: false, abbreviation: abbreviation)],
             rule: nil)
    }

    public static let utc = Zone.fixed(name: "UTC", offset: 0, abbreviation: "UTC")

    /// The zone of a POSIX `TZ` string alone (`TZ=EST5EDT,M3.2.0,M11.1.0`), named by it.
    public static func posix(_ text: String) throws(ZoneError) -> Zone {
        guard let rule = try PosixTZ.parse(text) else { throw .badRule("empty") }
        return Zone(name: text, transitions: [], transitionTypes: [], types: [rule.standard], rule: rule)
    }

    /// Same rules, whatever the names: what decides whether a zone change moves alarms.
    public func hasSameRules(as other: Zone) -> Bool {
        transitions == other.transitions && transitionTypes.map { types[$0] } == other.transitionTypes.map { other.types[$0] }
            && initial == other.initial && rule == other.rule
    }

    public var description: String { name }

    // MARK: instant → local

    /// The local time type in effect at `t` (seconds since the epoch).
    public func type(at t: Int64) -> LocalTimeType {
        guard let last = transitions.last else { return rule.map { $0.type(at: t) } ?? initial }
        if t < transitions[0] { return initial }
        if t >= last { return rule.map { $0.type(at: t) } ?? types[transitionTypes[transitions.count - 1]] }
        var lo = 0, hi = transitions.count - 1   // transitions[lo] <= t < transitions[hi]
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if transitions[mid] <= t { lo = mid } else { hi = mid }
        }
        return types[transitionTypes[lo]]
    }

    /// Seconds east of UTC at `t`.
    public func offset(at t: Int64) -> Int64 { Int64(type(at: t).offset) }

    /// The wall time at `t`, as seconds read as if UTC.
    public func wallSeconds(at t: Int64) -> Int64 { t + offset(at: t) }

    /// What the wall reads at `t`.
    public func localTime(at t: Int64) -> LocalTime { LocalTime(wallSeconds: wallSeconds(at: t)) }

    // MARK: local → instants

    /// Offsets differ by at most this much (RFC 8536 bounds them to −25 h … +26 h).
    static let window: Int64 = 26 * 3_600 + 1

    /// Every instant in (from, to] at which the offset may change, ascending.
    public func changes(from: Int64, to: Int64) -> [Int64] {
        var lo = 0, hi = transitions.count   // the first transition after `from`
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid] <= from { lo = mid + 1 } else { hi = mid }
        }
        var out: [Int64] = []
        while lo < transitions.count && transitions[lo] <= to {
            out.append(transitions[lo])
            lo += 1
        }
        guard let rule, rule.daylight != nil, to >= (transitions.last ?? Int64.min) else { return out }
        // Past the table: each year's two changes, and each new year (the rule is read per UTC year).
        let floor = max(from, transitions.last ?? Int64.min)
        var year = Civil.date(fromDays: Civil.floorDiv(floor, 86_400)).year
        let last = Civil.date(fromDays: Civil.floorDiv(to, 86_400)).year
        var ruled: [Int64] = []
        while year <= last {
            let (s, e) = rule.changes(year: year)
            ruled += [s, e, Civil.days(year: year, month: 1, day: 1) * 86_400]
            year += 1
        }
        return Array(Set(out + ruled.filter { $0 > floor && $0 <= to })).sorted()
    }

    /// Every instant whose wall time is `wall` (seconds read as if UTC), ascending: none in a gap,
    /// one, or two (or more, for odd histories) in an overlap.
    public func instants(wall: Int64) -> [Int64] {
        var offsets: Set<Int64> = [offset(at: wall - Zone.window)]
        for c in changes(from: wall - Zone.window, to: wall + Zone.window) { offsets.insert(offset(at: c)) }
        return offsets.map { wall - $0 }.filter { wallSeconds(at: $0) == wall }.sorted()
    }

    func instants(_ local: LocalTime) -> [Int64] { instants(wall: local.wallSeconds) }

    /// The instant an alarm set for wall time `wall` rings (docs/API.md): its first occurrence when it
    /// happens twice; in a gap, the first valid instant after it — the transition that skipped it.
    public func firstInstant(wall: Int64) -> Int64 {
        if let first = instants(wall: wall).first { return first }
        for c in changes(from: wall - Zone.window, to: wall + Zone.window)
        where wallSeconds(at: c - 1) < wall && wallSeconds(at: c) > wall {
            return c
        }
        return wall - offset(at: wall)   // unreachable for a wall time with no instant
    }
}
