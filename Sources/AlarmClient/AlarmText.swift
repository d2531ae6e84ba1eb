// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// How a wake-up alarm reads in a list and a menu's heading: its time, the days it rings, and which
/// alarm is next. The GNOME Shell extension and the Plasma applet write the same
/// (Tests/cases/client-rules.json: `alarm_time`, `alarm_days`, `next_alarm`, whose cases are
/// `English()`'s), each in the locale's words: here a `Language`'s (`Translation.current` for the
/// session's).
public enum AlarmText {
    /// "06:45", or "6:45 AM" on a 12-hour desktop.
    public static func time(hour: Int, minute: Int, hour12: Bool) -> String {
        LocaleConventions(clock: hour12 ? .twelveHour(am: "AM", pm: "PM", markerFirst: false, separator: " ") : .twentyFourHour,
                          weekdayNames: [], firstWeekday: .monday).time(hour: hour, minute: minute)
    }

    /// "Mon–Fri", "Every day", "Mon, Wed, Fri"; for a one-shot "Today", "Tomorrow", its date, or
    /// "Once" while it is off (no fire time).
    ///
    /// - Parameters:
    ///   - weekdays: The Schedule's `weekdays` (lowercase English names).
    ///   - firstDay: Where the runs of days are read from; nil for the language's first day of the week.
    ///   - fire: The alarm's `FireTimeUSec` (0 while it is off).
    ///   - now: The current time, realtime µs.
    ///   - zone: The zone days are counted in.
    ///   - language: Whose words and weekday names.
    public static func days(_ weekdays: [String], firstDay: Weekday? = nil, fire: USec, now: USec,
                            zone: Zone = .local, language: any Language = English()) -> String {
        let set = Set(weekdays.compactMap(Weekday.init(rawValue:)))
        // Translators: an alarm that rings on all seven days of the week.
        if set.count == 7 { return language.say(N_("Every day")) }
        if set.isEmpty { return oneShot(fire: fire, now: now, zone: zone, language) }
        let start = Weekday.allCases.firstIndex(of: firstDay ?? language.conventions.firstWeekday)!
        let week = (0..<7).map { Weekday.allCases[(start + $0) % 7] }
        func name(_ day: Weekday) -> String {
            // Translators: a day in the list of days an alarm rings on, as the locale abbreviates it ("Mon");
            // where the abbreviation needs a word around it, add it here ("周%s" for "一").
            language.say(NC_("day", "%s", language.conventions.name(of: day)))
        }
        var parts: [String] = [], run: [Weekday] = []
        func close() {
            // Translators: three or more days in a row, as "Mon–Fri": %1$s the first, %2$s the last
            // (abbreviated weekday names).
            if run.count >= 3 { parts.append(language.say(N_("%1$s–%2$s", name(run.first!), name(run.last!)))) } else { parts += run.map(name) }
            run = []
        }
        for day in week {
            if set.contains(day) { run.append(day) } else { close() }
        }
        close()
        // Translators: what stands between the days an alarm rings on: "Mon, Wed, Fri".
        return parts.joined(separator: language.say(NC_("list of days", ", ")))
    }

    static func oneShot(fire: USec, now: USec, zone: Zone, _ language: any Language) -> String {
        // Translators: a one-shot alarm that is switched off, so has no day to ring on.
        guard fire > 0 else { return language.say(N_("Once")) }
        let at = zone.localTime(at: Int64(fire / usecPerSecond)), here = zone.localTime(at: Int64(now / usecPerSecond))
        let days = at.dayNumber - here.dayNumber
        // Translators: a one-shot alarm that rings today.
        if days == 0 { return language.say(N_("Today")) }
        // Translators: a one-shot alarm that rings tomorrow.
        if days == 1 { return language.say(N_("Tomorrow")) }
        return TimeText.date(weekday: at.weekday, day: at.day, month: at.month, language)
    }

    /// The language's abbreviated name of a `LocalTime.weekday` (0 = Sunday).
    static func weekdayName(_ weekday: Int, _ language: any Language) -> String {
        language.conventions.name(of: Weekday.allCases[(weekday + 6) % 7])
    }

    /// The alarm the applets head their menu with, and show the alarm-clock icon for: of the alarms
    /// that are on and waiting, the earliest (ties: the lowest id); nil when none is on.
    public static func next(of alarms: [AlarmSnapshot]) -> AlarmSnapshot? {
        alarms.filter { $0.kind == .alarm && $0.enabled && ($0.state == .scheduled || $0.state == .countdown) && $0.fireTime > 0 }
            .min { ($0.fireTime, $0.id) < ($1.fireTime, $1.id) }
    }

    /// "Mon 06:45": the next alarm's day and time, as the heading "Next alarm: Mon 06:45" shows it,
    /// with the English AM and PM of the shared cases.
    public static func heading(of a: AlarmSnapshot, hour12: Bool, zone: Zone = .local) -> String {
        let at = zone.localTime(at: Int64(a.fireTime / usecPerSecond))
        return weekdayName(at.weekday, English()) + " " + time(hour: at.hour, minute: at.minute, hour12: hour12)
    }

    /// "Mon 06:45", "Mo. 06:45", "周一 06:45": the next alarm's day and time in `language`, its
    /// clock the language's own.
    public static func heading(of a: AlarmSnapshot, zone: Zone = .local, language: any Language) -> String {
        let at = zone.localTime(at: Int64(a.fireTime / usecPerSecond))
        return TimeText.weekdayAndTime(weekday: at.weekday, time: language.time(hour: at.hour, minute: at.minute), language)
    }

    /// The menu's heading: "Next alarm: Mon 06:45".
    public static func nextAlarmHeading(of a: AlarmSnapshot, zone: Zone = .local, language: any Language) -> String {
        // Translators: the heading of the applets' menu; %s is the next alarm's weekday and time, "Mon 06:45".
        language.say(N_("Next alarm: %s", heading(of: a, zone: zone, language: language)))
    }
}
