import Foundation

/// Next occurrences of wall-clock times in a time zone.
///
/// DST rule (see README): a local time that does not exist (spring forward) fires at the first valid
/// instant after it; a local time that occurs twice (fall back) fires once, at its first occurrence.
/// `Calendar.nextDate` with `.nextTime` and `.first` implements exactly that on Linux.
public enum ScheduleMath {
    public static func calendar(in zone: TimeZone) -> Calendar {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        return cal
    }

    /// The first instant strictly after `after` whose local time is hour:minute (and, when
    /// `weekdays` is not empty, whose local weekday is one of them).
    public static func nextOccurrence(hour: Int, minute: Int, weekdays: Set<Weekday>, after: USec,
                                      in zone: TimeZone) -> USec {
        let cal = calendar(in: zone)
        let start = Date(timeIntervalSince1970: Double(after) / 1_000_000)
        func next(_ components: DateComponents) -> Date? {
            cal.nextDate(after: start, matching: components, matchingPolicy: .nextTime,
                         repeatedTimePolicy: .first, direction: .forward)
        }
        var candidates: [Date] = []
        if weekdays.isEmpty {
            if let d = next(DateComponents(hour: hour, minute: minute, second: 0)) { candidates.append(d) }
        } else {
            for day in weekdays {
                if let d = next(DateComponents(hour: hour, minute: minute, second: 0, weekday: day.calendarWeekday)) {
                    candidates.append(d)
                }
            }
        }
        guard let best = candidates.min() else { return after.plusSaturating(86_400 * usecPerSecond) }
        let us = best.timeIntervalSince1970 * 1_000_000
        return us <= 0 ? 0 : USec(us.rounded())
    }
}
