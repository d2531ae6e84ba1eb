// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// How a wake-up alarm reads in a list and a menu's heading: its time, the days it rings, and which
/// alarm is next. The GNOME Shell extension and the Plasma applet write the same
/// (Tests/cases/client-rules.json: `alarm_time`, `alarm_days`, `next_alarm`), in the locale's words;
/// these are the English ones.
public enum AlarmText {
    /// "06:45", or "6:45 AM" on a 12-hour desktop.
    public static func time(hour: Int, minute: Int, hour12: Bool) -> String {
        guard hour12 else { return twoDigits(hour) + ":" + twoDigits(minute) }
        let h = hour % 12 == 0 ? 12 : hour % 12
        return "\(h):\(twoDigits(minute)) \(hour < 12 ? "AM" : "PM")"
    }

    /// "Mon–Fri", "Every day", "Mon, Wed, Fri"; for a one-shot "Today", "Tomorrow", its date, or
    /// "Once" while it is off (no fire time).
    ///
    /// - Parameters:
    ///   - weekdays: The Schedule's `weekdays` (lowercase English names).
    ///   - firstDay: The locale's first day of the week, where the runs of days are read from.
    ///   - fire: The alarm's `FireTimeUSec` (0 while it is off).
    ///   - now: The current time, realtime µs.
    ///   - zone: The zone days are counted in.
    public static func days(_ weekdays: [String], firstDay: Weekday = .monday, fire: USec, now: USec,
                            zone: Zone = .local) -> String {
        let set = Set(weekdays.compactMap(Weekday.init(rawValue:)))
        if set.count == 7 { return "Every day" }
        if set.isEmpty { return oneShot(fire: fire, now: now, zone: zone) }
        let start = Weekday.allCases.firstIndex(of: firstDay)!
        let week = (0..<7).map { Weekday.allCases[(start + $0) % 7] }
        var parts: [String] = [], run: [Weekday] = []
        func close() {
            if run.count >= 3 { parts.append(short(run.first!) + "–" + short(run.last!)) } else { parts += run.map(short) }
            run = []
        }
        for day in week {
            if set.contains(day) { run.append(day) } else { close() }
        }
        close()
        return parts.joined(separator: ", ")
    }

    static func oneShot(fire: USec, now: USec, zone: Zone) -> String {
        guard fire > 0 else { return "Once" }
        let at = zone.localTime(at: Int64(fire / usecPerSecond)), here = zone.localTime(at: Int64(now / usecPerSecond))
        let days = at.dayNumber - here.dayNumber
        if days == 0 { return "Today" }
        if days == 1 { return "Tomorrow" }
        return TimeText.weekdayNames[at.weekday] + " \(at.day) " + String(TimeText.monthNames[at.month - 1].prefix(3))
    }

    static func short(_ d: Weekday) -> String { TimeText.weekdayNames[(Weekday.allCases.firstIndex(of: d)! + 1) % 7] }

    /// The alarm the applets head their menu with, and show the alarm-clock icon for: of the alarms
    /// that are on and waiting, the earliest (ties: the lowest id); nil when none is on.
    public static func next(of alarms: [AlarmSnapshot]) -> AlarmSnapshot? {
        alarms.filter { $0.kind == .alarm && $0.enabled && ($0.state == .scheduled || $0.state == .countdown) && $0.fireTime > 0 }
            .min { ($0.fireTime, $0.id) < ($1.fireTime, $1.id) }
    }

    /// "Mon 06:45": the next alarm's day and time, as the heading "Next alarm: Mon 06:45" shows it.
    public static func heading(of a: AlarmSnapshot, hour12: Bool, zone: Zone = .local) -> String {
        let at = zone.localTime(at: Int64(a.fireTime / usecPerSecond))
        return TimeText.weekdayNames[at.weekday] + " " + time(hour: at.hour, minute: at.minute, hour12: hour12)
    }
}
