// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// A POSIX `TZ` rule string, as in a TZif footer (RFC 8536 §3.3, with the version 3 extensions) or
/// the `TZ` variable: `std offset [dst [offset] [,start[/time],end[/time]]]`.
///
/// Which rule is in effect follows glibc's reading (`__tz_compute`): the two changes are computed for
/// the year the instant falls in *in UTC*; the start of daylight time is a wall time of standard time,
/// its end a wall time of daylight time; when the start comes after the end in that year (southern
/// hemisphere), daylight time is in effect outside [end, start).
struct PosixTZ: Sendable, Hashable {
    enum Day: Sendable, Hashable {
        /// `Jn`: day 1…365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0…365 counting February 29.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday d (0 = Sunday) of week w (1…5, 5 = the last) of month m.
        case month(Int, week: Int, weekday: Int)
    }

    struct Change: Sendable, Hashable {
        var day: Day
        /// Seconds after local midnight of `day`: −167 h … 167 h (version 3).
        var time: Int64
    }

    var standard: LocalTimeType
    var daylight: LocalTimeType?
    var start: Change
    var end: Change

    /// The local time type in effect at `t` (seconds since the epoch).
    func type(at t: Int64) -> LocalTimeType {
        guard let daylight else { return standard }
        let (s, e) = changes(year: Civil.date(fromDays: Civil.floorDiv(t, 86_400)).year)
        let isDST = s > e ? (t < e || t >= s) : (t >= s && t < e)
        return isDST ? daylight : standard
    }

    /// The instants of the start and the end of daylight time in `year`.
    func changes(year: Int64) -> (start: Int64, end: Int64) {
        let d = daylight ?? standard
        return (instant(start, year) - Int64(standard.offset), instant(end, year) - Int64(d.offset))
    }

    private func instant(_ c: Change, _ year: Int64) -> Int64 {
        let jan1 = Civil.days(year: year, month: 1, day: 1)
        var day: Int64
        switch c.day {
        case .julian(let n):
            day = jan1 + Int64(n - 1) + (n >= 60 && Civil.isLeap(year) ? 1 : 0)
        case .zeroBased(let n):
            day = jan1 + Int64(n)
        case .month(let m, let w, let wd):
            let first = Civil.days(year: year, month: m, day: 1)
            var d = wd - Civil.weekday(fromDays: first)
            if d < 0 { d += 7 }
            let length = Civil.daysInMonth(year, m)
            for _ in 1..<max(w, 1) where d + 7 < length { d += 7 }
            day = first + Int64(d)
        }
        return day * 86_400 + c.time
    }

    /// US rules, glibc's choice for a string naming daylight time without saying when: `M3.2.0,M11.1.0`.
    static let defaultStart = Change(day: .month(3, week: 2, weekday: 0), time: 7_200)
    static let defaultEnd = Change(day: .month(11, week: 1, weekday: 0), time: 7_200)

    /// Parses a rule string; `nil` for the empty string (no rule).
    static func parse(_ text: String) throws(ZoneError) -> PosixTZ? {
        if text.isEmpty { return nil }
        var s = Scanner(Array(text.utf8))
        let stdName = try s.name()
        let stdOffset = try -s.offset(hours: 0...24, what: "standard offset")
        let std = LocalTimeType(offset: Int32(stdOffset), isDST: false, abbreviation: stdName)
        if s.atEnd { return PosixTZ(standard: std, daylight: nil, start: defaultStart, end: defaultEnd) }
        let dstName = try s.name()
        var dstOffset = stdOffset + 3_600
        if !s.atEnd && s.peek != UInt8(ascii: ",") && s.peek != UInt8(ascii: ";") {
            dstOffset = try -s.offset(hours: 0...24, what: "daylight offset")
        }
        let dst = LocalTimeType(offset: Int32(dstOffset), isDST: true, abbreviation: dstName)
        if s.atEnd { return PosixTZ(standard: std, daylight: dst, start: defaultStart, end: defaultEnd) }
        guard s.take(UInt8(ascii: ",")) else { throw .badRule(text) }
        let start = try s.change(text)
        guard s.take(UInt8(ascii: ",")) else { throw .badRule(text) }
        let end = try s.change(text)
        guard s.atEnd else { throw .badRule(text) }
        return PosixTZ(standard: std, daylight: dst, start: start, end: end)
    }

    private struct Scanner {
        let b: [UInt8]
        var i = 0
        init(_ b: [UInt8]) { self.b = b }
        var atEnd: Bool { i >= b.count }
        var peek: UInt8? { atEnd ? nil : b[i] }
        mutating func take(_ c: UInt8) -> Bool {
            guard peek == c else { return false }
            i += 1
            return true
        }
        static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
        static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

        /// `ABC` (letters) or `<+0330>` (letters, digits, signs); at least three characters.
        mutating func name() throws(ZoneError) -> String {
            let from: Int, to: Int
            if take(UInt8(ascii: "<")) {
                from = i
                while let c = peek, Self.isAlpha(c) || Self.isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { i += 1 }
                to = i
                guard take(UInt8(ascii: ">")) else { throw .badRule("unterminated <name>") }
            } else {
                from = i
                while let c = peek, Self.isAlpha(c) { i += 1 }
                to = i
            }
            guard to - from >= 3 else { throw .badRule("zone abbreviation shorter than three characters") }
            return String(decoding: b[from..<to], as: UTF8.self)
        }

        mutating func number(max digits: Int) -> Int? {
            var v = 0, n = 0
            while let c = peek, Self.isDigit(c), n < digits {
                v = v * 10 + Int(c - UInt8(ascii: "0"))
                i += 1
                n += 1
            }
            return n == 0 ? nil : v
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, the sign as written.
        mutating func offset(hours: ClosedRange<Int>, what: String) throws(ZoneError) -> Int {
            var sign = 1
            if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
            guard let h = number(max: 3), hours.contains(h) else { throw .badRule(what) }
            var v = h * 3_600
            if take(UInt8(ascii: ":")) {
                guard let m = number(max: 2), m < 60 else { throw .badRule(what) }
                v += m * 60
                if take(UInt8(ascii: ":")) {
                    guard let sec = number(max: 2), sec < 60 else { throw .badRule(what) }
                    v += sec
                }
            }
            return sign * v
        }

        mutating func change(_ text: String) throws(ZoneError) -> Change {
            let day: Day
            if take(UInt8(ascii: "J")) {
                guard let n = number(max: 3), (1...365).contains(n) else { throw .badRule(text) }
                day = .julian(n)
            } else if take(UInt8(ascii: "M")) {
                guard let m = number(max: 2), (1...12).contains(m), take(UInt8(ascii: ".")),
                      let w = number(max: 1), (1...5).contains(w), take(UInt8(ascii: ".")),
                      let d = number(max: 1), (0...6).contains(d) else { throw .badRule(text) }
                day = .month(m, week: w, weekday: d)
            } else {
                guard let n = number(max: 3), (0...365).contains(n) else { throw .badRule(text) }
                day = .zeroBased(n)
            }
            var time: Int64 = 7_200
            if take(UInt8(ascii: "/")) { time = Int64(try offset(hours: 0...167, what: "rule time")) }
            return Change(day: day, time: time)
        }
    }
}
