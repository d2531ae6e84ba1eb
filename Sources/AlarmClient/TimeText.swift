// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// Times as a person reads them in a terminal or a panel.
///
/// In a `Language` (`English()` unless given, as Tests/cases/client-rules.json has them); the GNOME
/// Shell extension and the Plasma applet write the countdown clock the same way.
public enum TimeText {
    /// A countdown's remaining time, rounded up so it shows 25:00 at the start and 0:01 in the last
    /// second: `24:59`, `1:02:03`, `2d 03:04:05`.
    ///
    /// - Parameters:
    ///   - remaining: The time left, in µs (``AlarmSnapshot/remaining(at:)``).
    ///   - language: The language it speaks in (`English` by default: the C locale's words and clock).
    /// - Returns: Minutes and seconds, with hours and days in front when there are any.
    public static func clock(_ remaining: USec, language: any Language = English()) -> String {
        let total = (remaining + usecPerSecond - 1) / usecPerSecond
        let d = total / 86_400, h = total / 3600 % 24, m = total / 60 % 60, s = total % 60
        if d > 0 {
            // Translators: a countdown of more than a day, "2d 03:04:05": %1$d the days, %2$s hours, minutes and seconds.
            let rest = "\(twoDigits(h)):\(twoDigits(m)):\(twoDigits(s))"
            return language.say(NP_("%1$dd %2$s", "%1$dd %2$s", Int(d), String(d), rest))
        }
        if h > 0 { return "\(h):\(twoDigits(m)):\(twoDigits(s))" }
        return "\(m):\(twoDigits(s))"
    }

    /// "in 7 h 12 min", "in 45 s", "in 3 d 4 h", "now", "5 min ago".
    ///
    /// - Parameters:
    ///   - t: The instant, in realtime µs.
    ///   - now: The current time, in realtime µs.
    ///   - language: The language it speaks in (`English` by default: the C locale's words and clock).
    /// - Returns: How far `t` is from `now`, to the nearest second, in its two largest units at
    ///   most (seconds only under ten minutes).
    public static func relative(_ t: USec, from now: USec, language: any Language = English()) -> String {
        let future = t >= now
        // To the nearest second: a timer set just now for 25 min reads "in 25 min", not "in 24 min".
        let seconds = ((future ? t - now : now - t) + usecPerSecond / 2) / usecPerSecond
        // Translators: how far off something is when it is this very second.
        if seconds == 0 { return language.say(NC_("time", "now")) }
        let d = Int(seconds / 86_400), h = Int(seconds / 3600 % 24), m = Int(seconds / 60 % 60), s = Int(seconds % 60)
        let days = dayCount(d, language), hours = hourCount(h, language), minutes = minuteCount(m, language), secs = secondCount(s, language)
        func two(_ a: String, _ b: String) -> String { twoUnits(a, b, language) }
        let text: String
        if d > 0 { text = h > 0 ? two(days, hours) : days }
        else if h > 0 { text = m > 0 ? two(hours, minutes) : hours }
        else if m > 0 { text = s > 0 && m < 10 ? two(minutes, secs) : minutes }
        else { text = secs }
        // Translators: %s is a duration, "7 h 12 min": how long until something happens.
        return future ? language.say(N_("in %s", text))
            // Translators: %s is a duration, "5 min": how long since something happened.
            : language.say(N_("%s ago", text))
    }

    // The units of a duration, abbreviated: "7 h", "12 min".
    // Translators: a number of days, abbreviated as in "in 3 d 4 h".
    static func dayCount(_ n: Int, _ language: any Language) -> String { language.say(NP_("%d d", "%d d", n, String(n))) }
    // Translators: a number of hours, abbreviated as in "in 7 h 12 min".
    static func hourCount(_ n: Int, _ language: any Language) -> String { language.say(NP_("%d h", "%d h", n, String(n))) }
    // Translators: a number of minutes, abbreviated as in "in 7 h 12 min".
    static func minuteCount(_ n: Int, _ language: any Language) -> String { language.say(NP_("%d min", "%d min", n, String(n))) }
    // Translators: a number of seconds, abbreviated as in "in 1 min 30 s".
    static func secondCount(_ n: Int, _ language: any Language) -> String { language.say(NP_("%d s", "%d s", n, String(n))) }
    static func twoUnits(_ larger: String, _ smaller: String, _ language: any Language) -> String {
        // Translators: a duration in two units, the larger first: "7 h 12 min", "3 d 4 h".
        language.say(NC_("duration", "%1$s %2$s", larger, smaller))
    }

    /// A wall-clock instant in `zone`: "07:30" today, "Tue 07:30" within a week, else "2026-12-24 18:00".
    ///
    /// - Parameters:
    ///   - t: The instant, in realtime µs.
    ///   - now: The current time, in realtime µs: what "today" and "within a week" are counted from.
    ///   - zone: The zone the instant is shown in.
    ///   - language: The language it speaks in (`English` by default: the C locale's words and clock).
    /// - Returns: The time of day: alone today, after the weekday in the coming week, else after
    ///   the date.
    public static func local(_ t: USec, now: USec, zone: Zone = .local, language: any Language = English()) -> String {
        let seconds = Int64(t / usecPerSecond), today = Int64(now / usecPerSecond)
        let wall = zone.localTime(at: seconds), here = zone.localTime(at: today)
        let clock = language.time(hour: wall.hour, minute: wall.minute)
        if (wall.year, wall.month, wall.day) == (here.year, here.month, here.day) { return clock }
        if t > now, t - now < 6 * 86_400 * usecPerSecond + 43_200 * usecPerSecond {
            return weekdayAndTime(weekday: wall.weekday, time: clock, language)
        }
        // Translators: a date further off than a week and a time: %1$s the date as 2026-12-24, %2$s the time.
        let date = "\(wall.year)-\(twoDigits(wall.month))-\(twoDigits(wall.day))"
        return language.say(NC_("date and time", "%1$s %2$s", date, clock))
    }

    /// "Tue 07:30": a `LocalTime.weekday` (0 = Sunday) with a time already written.
    static func weekdayAndTime(weekday: Int, time: String, _ language: any Language) -> String {
        // Translators: a time within the coming week: %1$s the abbreviated weekday, %2$s the time ("Tue 07:30").
        language.say(NC_("weekday and time", "%1$s %2$s", AlarmText.weekdayName(weekday, language), time))
    }

    /// "Fri 25 Dec": a one-shot alarm's day further off than tomorrow.
    static func date(weekday: Int, day: Int, month: Int, _ language: any Language) -> String {
        // Translators: a day within the year: %1$s the abbreviated weekday, %2$s the day of the month,
        // %3$s the abbreviated month ("Fri 25 Dec").
        language.say(NC_("date", "%1$s %2$s %3$s", AlarmText.weekdayName(weekday, language), String(day),
                         language.say(monthAbbreviations[month - 1])))
    }

    // Translators: abbreviated month names, as in "Fri 25 Dec".
    static let monthAbbreviations = [
        NC_("month", "Jan"), NC_("month", "Feb"), NC_("month", "Mar"), NC_("month", "Apr"), NC_("month", "May"), NC_("month", "Jun"),
        NC_("month", "Jul"), NC_("month", "Aug"), NC_("month", "Sep"), NC_("month", "Oct"), NC_("month", "Nov"), NC_("month", "Dec"),
    ]

    // Translators: month names, as in "February 2027 has no day 30".
    static let months = [
        N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"), N_("July"),
        N_("August"), N_("September"), N_("October"), N_("November"), N_("December"),
    ]

    /// A time of day to the second, "07:30:05", in `zone`.
    ///
    /// - Parameters:
    ///   - t: The instant, in realtime µs.
    ///   - zone: The zone the instant is shown in.
    /// - Returns: Hours, minutes and seconds, two digits each.
    public static func seconds(_ t: USec, zone: Zone = .local) -> String {
        let wall = zone.localTime(at: Int64(t / usecPerSecond))
        return twoDigits(wall.hour) + ":" + twoDigits(wall.minute) + ":" + twoDigits(wall.second)
    }

    /// English month names, January first.
    ///
    /// Index 0 is January: `monthNames[month - 1]` for a month numbered 1 to 12.
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                    "August", "September", "October", "November", "December"]

    /// Repeat days as a person writes them: "daily", "mon-fri", "weekends", "mon,wed,fri", "" (never),
    /// what `--days` reads; in a locale other than C, as ``AlarmText/days(_:firstDay:fire:now:zone:language:)``
    /// writes them ("Mo–Fr").
    ///
    /// - Parameters:
    ///   - names: Lowercase day names (``AlarmSnapshot/weekdays``).
    ///   - language: The language it speaks in (`English` by default: the C locale's words and clock).
    /// - Returns: The days in the shortest of those forms; names it does not know are left out.
    public static func days(_ names: [String], language: any Language = English()) -> String {
        // Any other locale writes the days in its own names (AlarmText.days), which --days does not read.
        if language.conventions != .c {
            // Names it does not know are left out here too: none known is no repeat, not a one-shot's day.
            let known = names.filter { Weekday(rawValue: $0) != nil }
            return known.isEmpty ? "" : AlarmText.days(known, fire: 0, now: 0, zone: .utc, language: language)
        }
        let all = Weekday.allCases.map(\.rawValue)
        let set = Set(names)
        if set.count == 7 { return "daily" }
        if set == Set(all.prefix(5)) { return "mon-fri" }
        if set == Set(all.suffix(2)) { return "weekends" }
        return all.filter(set.contains).map { String($0.prefix(3)) }.joined(separator: ",")
    }
}
