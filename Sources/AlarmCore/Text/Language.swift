// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The language alarmd speaks to a person in: its words (a catalog) and its conventions (clock,
/// weekday names, first day of the week). The shells read both from the session's locale through
/// glibc (gettext, nl_langinfo: no ICU); the core and its tests use `English`.
public protocol Language: Sendable {
    /// `phrase`'s text in this language, before its arguments are filled in.
    func template(of phrase: Phrase) -> String
    var conventions: LocaleConventions { get }
}

extension Language {
    /// What a person reads.
    public func say(_ phrase: Phrase) -> String { phrase.filled(template(of: phrase)) }

    /// A wall-clock time as this language writes it: "06:45", "6:45 AM", "上午6:45".
    public func time(hour: Int, minute: Int) -> String { conventions.time(hour: hour, minute: minute) }
}

/// The source language: the message ids themselves, a plural for any count but one (English's rule),
/// and the C locale's conventions as alarmd always wrote them (24-hour, Monday first).
public struct English: Language {
    public init() {}
    public func template(of m: Phrase) -> String { m.plural != nil && m.count != 1 ? m.plural! : m.id }
    public var conventions: LocaleConventions { .c }
}

/// How a locale writes times and weeks (glibc's LC_TIME: `T_FMT`, `AM_STR`/`PM_STR`, `ABDAY_n`,
/// `_NL_TIME_FIRST_WEEKDAY`).
public struct LocaleConventions: Sendable, Equatable {
    public enum Clock: Sendable, Equatable {
        case twentyFourHour
        /// The locale's AM and PM words, and what stands between them and the digits: " AM" after
        /// ("6:45 AM"), or before ("上午 6:45", "오전 6:45") when the locale writes %p first.
        case twelveHour(am: String, pm: String, markerFirst: Bool, separator: String)
    }

    public var clock: Clock
    /// Abbreviated weekday names by `Weekday` (Monday first, as the contract orders them).
    public var weekdayNames: [String]
    public var firstWeekday: Weekday

    public init(clock: Clock, weekdayNames: [String], firstWeekday: Weekday) {
        self.clock = clock
        self.weekdayNames = weekdayNames.count == 7 ? weekdayNames : LocaleConventions.c.weekdayNames
        self.firstWeekday = firstWeekday
    }

    /// What alarmd wrote before it spoke any language but English: 24-hour, ISO weeks.
    public static let c = LocaleConventions(clock: .twentyFourHour, weekdayNames: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
                                            firstWeekday: .monday)

    /// The clock a C `T_FMT` describes: 12-hour when it writes the hour as %I, %l or %r
    /// (en_US's "%r"), else 24-hour (de_DE's "%T", zh_CN's "%H时%M分%S秒").
    public static func clock(timeFormat: String, am: String, pm: String) -> Clock {
        let twelve = ["%I", "%l", "%r"].contains { timeFormat.contains($0) }
        guard twelve, !am.isEmpty, !pm.isEmpty else { return .twentyFourHour }
        // %p before the hour puts the marker first (zh_TW's "%p %I時%M分%S秒", ko_KR's "%p %I시 %M분 %S초").
        let p = timeFormat.firstRange(of: "%p")?.lowerBound
        let hour = ["%I", "%l", "%r"].compactMap { timeFormat.firstRange(of: $0)?.lowerBound }.min()
        let first = p.map { p in hour.map { p < $0 } ?? false } ?? false
        return .twelveHour(am: am, pm: pm, markerFirst: first, separator: first && !timeFormat.contains("%p ") ? "" : " ")
    }

    public func time(hour: Int, minute: Int) -> String {
        switch clock {
        case .twentyFourHour:
            return twoDigits(hour) + ":" + twoDigits(minute)
        case .twelveHour(let am, let pm, let markerFirst, let separator):
            let h = hour % 12 == 0 ? 12 : hour % 12, marker = hour < 12 ? am : pm
            let digits = "\(h):" + twoDigits(minute)
            return markerFirst ? marker + separator + digits : digits + separator + marker
        }
    }

    /// The week as this locale lays it out, from its first day.
    public var week: [Weekday] {
        let start = Weekday.allCases.firstIndex(of: firstWeekday)!
        return (0..<7).map { Weekday.allCases[(start + $0) % 7] }
    }

    public func name(of day: Weekday) -> String { weekdayNames[Weekday.allCases.firstIndex(of: day)!] }
}
