// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// Times as a person reads them in a terminal or a panel.
///
/// In English, as alarmctl and the panels print them; the GNOME Shell extension and the Plasma
/// applet write the countdown clock the same way (Tests/cases/client-rules.json).
public enum TimeText {
    /// A countdown's remaining time, rounded up so it shows 25:00 at the start and 0:01 in the last
    /// second: `24:59`, `1:02:03`, `2d 03:04:05`.
    ///
    /// - Parameter remaining: The time left, in µs (``AlarmSnapshot/remaining(at:)``).
    /// - Returns: Minutes and seconds, with hours and days in front when there are any.
    public static func clock(_ remaining: USec) -> String {
        let total = (remaining + usecPerSecond - 1) / usecPerSecond
        let d = total / 86_400, h = total / 3600 % 24, m = total / 60 % 60, s = total % 60
        if d > 0 { return "\(d)d \(twoDigits(h)):\(twoDigits(m)):\(twoDigits(s))" }
        if h > 0 { return "\(h):\(twoDigits(m)):\(twoDigits(s))" }
        return "\(m):\(twoDigits(s))"
    }

    /// "in 7 h 12 min", "in 45 s", "in 3 d 4 h", "now", "5 min ago".
    ///
    /// - Parameters:
    ///   - t: The instant, in realtime µs.
    ///   - now: The current time, in realtime µs.
    /// - Returns: How far `t` is from `now`, to the nearest second, in its two largest units at
    ///   most (seconds only under ten minutes).
    public static func relative(_ t: USec, from now: USec) -> String {
        let future = t >= now
        // To the nearest second: a timer set just now for 25 min reads "in 25 min", not "in 24 min".
        let seconds = ((future ? t - now : now - t) + usecPerSecond / 2) / usecPerSecond
        if seconds == 0 { return "now" }
        let d = seconds / 86_400, h = seconds / 3600 % 24, m = seconds / 60 % 60, s = seconds % 60
        let text: String
        if d > 0 { text = h > 0 ? "\(d) d \(h) h" : "\(d) d" }
        else if h > 0 { text = m > 0 ? "\(h) h \(m) min" : "\(h) h" }
        else if m > 0 { text = s > 0 && m < 10 ? "\(m) min \(s) s" : "\(m) min" }
        else { text = "\(s) s" }
        return future ? "in \(text)" : "\(text) ago"
    }

    /// A wall-clock instant in `zone`: "07:30" today, "Tue 07:30" within a week, else "2026-12-24 18:00".
    ///
    /// - Parameters:
    ///   - t: The instant, in realtime µs.
    ///   - now: The current time, in realtime µs: what "today" and "within a week" are counted from.
    ///   - zone: The zone the instant is shown in.
    /// - Returns: The time of day: alone today, after the weekday in the coming week, else after
    ///   the date.
    public static func local(_ t: USec, now: USec, zone: Zone = .local) -> String {
        let seconds = Int64(t / usecPerSecond), today = Int64(now / usecPerSecond)
        let wall = zone.localTime(at: seconds), here = zone.localTime(at: today)
        let clock = twoDigits(wall.hour) + ":" + twoDigits(wall.minute)
        if (wall.year, wall.month, wall.day) == (here.year, here.month, here.day) { return clock }
        if t > now, t - now < 6 * 86_400 * usecPerSecond + 43_200 * usecPerSecond {
            return weekdayNames[wall.weekday] + " " + clock
        }
        return "\(wall.year)-\(twoDigits(wall.month))-\(twoDigits(wall.day)) " + clock
    }

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

    /// English short day names by `LocalTime.weekday` (0 = Sunday), as `EEE` in the POSIX locale.
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// English month names, January first.
    ///
    /// Index 0 is January: `monthNames[month - 1]` for a month numbered 1 to 12.
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                    "August", "September", "October", "November", "December"]

    /// Repeat days as a person writes them: "daily", "mon-fri", "weekends", "mon,wed,fri", "" (never).
    ///
    /// - Parameter names: Lowercase day names (``AlarmSnapshot/weekdays``).
    /// - Returns: The days in the shortest of those forms; names it does not know are left out.
    public static func days(_ names: [String]) -> String {
        let all = Weekday.allCases.map(\.rawValue)
        let set = Set(names)
        if set.count == 7 { return "daily" }
        if set == Set(all.prefix(5)) { return "mon-fri" }
        if set == Set(all.suffix(2)) { return "weekends" }
        return all.filter(set.contains).map { String($0.prefix(3)) }.joined(separator: ",")
    }
}
