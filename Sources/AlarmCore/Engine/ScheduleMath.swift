// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Next occurrences of wall-clock times in a time zone.
///
/// DST rule (see README): a local time that does not exist (spring forward) fires at the first valid
/// instant after it, on the same day; a local time that occurs twice (fall back) fires once, at its
/// first occurrence; weekly alarms keep their weekday. Computed from the zone's rules directly
/// (`Zone.firstInstant`), in whole seconds: alarms are set to the minute.
enum ScheduleMath {
    /// The first instant strictly after `after` whose local time is hour:minute (and, when
    /// `weekdays` is not empty, whose local day is one of them).
    static func nextOccurrence(hour: Int, minute: Int, weekdays: Set<Weekday>, after: USec,
                                      in zone: Zone) -> USec {
        let today = Civil.floorDiv(zone.wallSeconds(at: Int64(after / usecPerSecond)), 86_400)
        let wanted = Set(weekdays.map(\.calendarWeekday))
        // Yesterday too: far east of UTC "after" may still be yesterday's wall time; 9 days cover any weekday.
        for offset in Int64(-1)...9 {
            let day = today + offset
            if !wanted.isEmpty && !wanted.contains(Civil.weekday(fromDays: day) + 1) { continue }
            let instant = zone.firstInstant(wall: day * 86_400 + Int64(hour * 3_600 + minute * 60))
            if instant >= 0 && USec(instant) * usecPerSecond > after { return USec(instant) * usecPerSecond }
        }
        return after.plusSaturating(86_400 * usecPerSecond)
    }
}
