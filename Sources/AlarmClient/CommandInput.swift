// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// What a person types for alarms, parsed before anything is sent, so a typo is a usage error that
/// names itself rather than a round trip.
///
/// alarmctl reads its arguments with it; an app that takes times, days or durations as text can
/// too, and its results are what the configuration keys of ``AlarmManagerProxy/schedule(id:_:)``
/// take.
public enum CommandInput {
    /// When an alarm is to ring, as a person typed it: a time of day, or a date and time.
    ///
    /// The first is the `hour` and `minute` keys, the second `fixed_date`.
    public enum When: Equatable, Sendable {
        /// Local wall clock (`07:30`): follows the time zone, repeats on `--days`.
        case wallClock(hour: Int, minute: Int)
        /// An absolute instant in Unix seconds (`2026-12-24 18:00`, read in the local zone).
        case fixed(Int64)
    }

    /// Why typed input cannot be used: not in any form the command reads, or read but outside
    /// what it may be. A person needs to know which: "cannot read 0s" sends them to the grammar
    /// when the grammar was never the problem.
    public enum Problem: Error, Equatable, Sendable {
        /// Not in any form the command reads.
        case unreadable
        /// The reason, in words for the person who typed it.
        case invalid(String)
    }

    /// `HH:MM`, or `YYYY-MM-DD HH:MM` (also with `T`) in `zone`.
    ///
    /// - Parameters:
    ///   - text: What the person typed; whitespace around it is ignored.
    ///   - zone: The zone a date and time is read in.
    /// - Returns: The time; nil when it is unreadable or invalid (``readTime(_:zone:language:)`` says which).
    public static func time(_ text: String, zone: Zone = .local) -> When? {
        try? readTime(text, zone: zone).get()
    }

    /// ``time(_:zone:)``, saying why not (in `language`): an hour past 23, a minute past 59, a month or a day the
    /// calendar does not have are read, and invalid.
    ///
    /// A time the clocks skip in `zone` reads as the instant they skip to; one they show twice, the
    /// first: the rule alarmd rings wall-clock alarms by (docs/API.md).
    ///
    /// - Parameters:
    ///   - text: What the person typed; whitespace around it is ignored.
    ///   - zone: The zone a date and time is read in.
    ///   - language: The language its problems are told in (`English` by default).
    /// - Returns: The time, or the ``Problem`` with it.
    public static func readTime(_ text: String, zone: Zone = .local, language: any Language = English()) -> Result<When, Problem> {
        let s = text.trimmingWhitespace()
        if let hm = hourMinute(s, language) {
            return hm.map { .wallClock(hour: $0.0, minute: $0.1) }
        }
        let parts = s.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        guard parts.count == 2, let hm = hourMinute(parts[1], language) else { return .failure(.unreadable) }
        let ymd = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard ymd.count == 3, ymd[0].count == 4, ymd[1].count == 2, ymd[2].count == 2,
              let y = Int(ymd[0]), let mo = Int(ymd[1]), let d = Int(ymd[2]) else { return .failure(.unreadable) }
        let (h, m): (Int, Int)
        switch hm {
        case .success(let v): (h, m) = v
        case .failure(let p): return .failure(p)
        }
        // Translators: why a typed date is refused; %s is the month as typed.
        guard (1...12).contains(mo) else { return .failure(.invalid(language.say(N_("there is no month %s (months are 01 to 12)", String(ymd[1]))))) }
        let days = LocalTime.daysIn(year: Int64(y), month: mo)
        guard (1...days).contains(d) else {
            // Translators: why a typed date is refused: %1$s the month's name, %2$s the year, %3$s the day as
            // typed, %4$s the month's last day ("February 2027 has no day 30 (it has days 01 to 28)").
            return .failure(.invalid(language.say(N_("%1$s %2$s has no day %3$s (it has days 01 to %4$s)", language.say(TimeText.months[mo - 1]),
                                                     String(y), String(ymd[2]), String(days)))))
        }
        let wall = LocalTime(year: Int64(y), month: mo, day: d, hour: h, minute: m, second: 0).wallSeconds
        return .success(.fixed(zone.firstInstant(wall: wall)))
    }

    /// nil when `s` is not `H:MM`/`HH:MM` at all; invalid when it is, with an hour or minute the
    /// clock does not have.
    private static func hourMinute(_ s: String, _ language: any Language) -> Result<(Int, Int), Problem>? {
        let p = s.split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 2, (1...2).contains(p[0].count), p[1].count == 2,
              let h = Int(p[0]), let m = Int(p[1]), h >= 0, m >= 0 else { return nil }
        // Translators: why a typed time is refused; %s is the hour as typed.
        if h > 23 { return .failure(.invalid(language.say(N_("there is no hour %s in a day (hours are 00 to 23)", String(p[0]))))) }
        // Translators: why a typed time is refused; %s is the minute as typed.
        if m > 59 { return .failure(.invalid(language.say(N_("there is no minute %s in an hour (minutes are 00 to 59)", String(p[1]))))) }
        return .success((h, m))
    }

    /// `mon-fri`, `weekdays`, `weekends`, `daily`, `mon,wed,fri`, full names, ranges that wrap
    /// (`fri-mon`); `never` is no repeat. nil when anything is not understood.
    ///
    /// Day names may be cut to three letters or more, or to two (`mo`, `tu`, …), in any case.
    ///
    /// - Parameter text: What the person typed.
    /// - Returns: The days in week order, each once, as the `weekdays` key takes their raw values;
    ///   empty for no repeat.
    public static func days(_ text: String) -> [Weekday]? {
        let s = text.lowercased().trimmingWhitespace()
        switch s {
        case "daily", "everyday", "every-day", "all": return Weekday.allCases
        case "weekdays", "workdays": return Array(Weekday.allCases.prefix(5))
        case "weekends", "weekend": return [.saturday, .sunday]
        case "never", "none", "once": return []
        default: break
        }
        var out: Set<Weekday> = []
        for item in s.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { day(String($0)) }
            switch ends.count {
            case 1:
                guard let d = ends[0] else { return nil }
                out.insert(d)
            case 2:
                guard let a = ends[0], let b = ends[1] else { return nil }
                let all = Weekday.allCases
                var i = all.firstIndex(of: a)!
                while true {
                    out.insert(all[i])
                    if all[i] == b { break }
                    i = (i + 1) % all.count
                }
            default: return nil
            }
        }
        return out.isEmpty ? nil : out.sorted()
    }

    private static func day(_ s: String) -> Weekday? {
        guard s.count >= 2 else { return nil }
        return Weekday.allCases.first { $0.rawValue.hasPrefix(s) && (s.count >= 3 || ["mo", "tu", "we", "th", "fr", "sa", "su"].contains(s)) }
    }

    /// A duration in the daemon's grammar (`90`, `30s`, `5m`, `1h30m`, `1d12h`), in seconds.
    ///
    /// - Parameter text: What the person typed.
    /// - Returns: Seconds, from 1 to five years; nil otherwise (``readDuration(_:zero:range:language:)``
    ///   says why).
    public static func duration(_ text: String) -> UInt64? {
        try? readDuration(text).get()
    }

    /// ``duration(_:)``, saying why not. `zero` allows 0 (`0`, `0s`, `0m`…), which options such as
    /// a warning or a pre-alert take for "none"; `range` bounds it further, as the contract bounds
    /// the key the option sets.
    ///
    /// - Parameters:
    ///   - text: What the person typed.
    ///   - zero: Whether 0 is allowed, meaning "none".
    ///   - range: The seconds allowed (besides 0 when `zero`); the grammar reads no more than five
    ///     years, whatever the range.
    ///   - language: The language its problems are told in (`English` by default).
    /// - Returns: Seconds, or the ``Problem`` with them.
    public static func readDuration(_ text: String, zero: Bool = false, range: ClosedRange<UInt64> = 1...DurationGrammar.maximumSeconds,
                                    language: any Language = English()) -> Result<UInt64, Problem> {
        // Translators: why a typed duration is refused, after the option and what was typed
        // ("--snooze '2d' is longer than 1 day, the most it may be"); %s is a duration in words.
        let tooLong = Problem.invalid(language.say(N_("is longer than %s, the most it may be", spoken(range.upperBound, language: language))))
        let seconds: UInt64
        switch DurationGrammar.parse(text) {
        case .success(let s): seconds = s
        case .failure(.zero): seconds = 0
        case .failure(.tooLong): return .failure(tooLong)
        case .failure(.empty), .failure(.malformed): return .failure(.unreadable)
        }
        if seconds == 0, zero { return .success(0) }
        if seconds < range.lowerBound {
            // Translators: why a typed duration is refused, after the option and what was typed; %s is a duration in words.
            return .failure(.invalid(language.say(N_("is no time at all: it must be at least %s", spoken(range.lowerBound, language: language)))))
        }
        if seconds > range.upperBound { return .failure(tooLong) }
        return .success(seconds)
    }

    /// "1 second", "1 day", "7 days", "five years": a bound as a person says it.
    ///
    /// - Parameters:
    ///   - seconds: The bound.
    ///   - language: The language it speaks in (`English` by default: the C locale's words and clock).
    /// - Returns: The bound in the largest unit it is a whole number of.
    public static func spoken(_ seconds: UInt64, language: any Language = English()) -> String {
        // Translators: the longest duration alarmd takes, in words.
        if seconds == DurationGrammar.maximumSeconds { return language.say(N_("five years")) }
        let n = Int(clamping: seconds)
        if seconds % 86_400 == 0 { return language.say(NP_("%d day", "%d days", n / 86_400, String(n / 86_400))) }
        if seconds % 3_600 == 0 { return language.say(NP_("%d hour", "%d hours", n / 3_600, String(n / 3_600))) }
        if seconds % 60 == 0 { return language.say(NP_("%d minute", "%d minutes", n / 60, String(n / 60))) }
        return language.say(NP_("%d second", "%d seconds", n, String(n)))
    }

    /// A human form of a duration for default titles: "25 min", "1 h 30 min", "45 s".
    ///
    /// - Parameters:
    ///   - seconds: The duration; days show as hours ("36 h").
    ///   - language: The language it speaks in (`English` by default: the C locale's words and clock).
    /// - Returns: Hours, minutes and seconds, leaving out those that are 0 ("0 s" for none).
    public static func durationText(_ seconds: UInt64, language: any Language = English()) -> String {
        let h = Int(clamping: seconds / 3600), m = Int(seconds / 60 % 60), s = Int(seconds % 60)
        var parts: [String] = []
        if h > 0 { parts.append(TimeText.hourCount(h, language)) }
        if m > 0 { parts.append(TimeText.minuteCount(m, language)) }
        if s > 0 || parts.isEmpty { parts.append(TimeText.secondCount(s, language)) }
        return parts.dropFirst().reduce(parts[0]) { TimeText.twoUnits($0, $1, language) }
    }
}
