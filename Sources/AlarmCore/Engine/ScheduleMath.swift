import Foundation

/// Next occurrences of wall-clock times in a time zone.
///
/// DST rule (see README): a local time that does not exist (spring forward) fires at the first valid
/// instant after it, on the same day; a local time that occurs twice (fall back) fires once, at its
/// first occurrence; weekly alarms keep their weekday. Computed from the zone's UTC offsets directly:
/// `Calendar.nextDate` skips a whole day for times inside a 30-minute gap (Lord Howe) and returns the
/// second occurrence of a repeated time when asked after the first.
public enum ScheduleMath {
    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    /// The first instant strictly after `after` whose local time is hour:minute (and, when
    /// `weekdays` is not empty, whose local day is one of them).
    public static func nextOccurrence(hour: Int, minute: Int, weekdays: Set<Weekday>, after: USec,
                                      in zone: TimeZone) -> USec {
        let afterSeconds = Double(after) / 1_000_000
        let localNow = afterSeconds + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: afterSeconds)))
        let today = utc.startOfDay(for: Date(timeIntervalSince1970: localNow))
        let wanted = Set(weekdays.map(\.calendarWeekday))
        // Yesterday too: far east of UTC "after" may still be yesterday's wall time; 9 days cover any weekday.
        for offset in -1...9 {
            guard let day = utc.date(byAdding: .day, value: offset, to: today) else { continue }
            if !wanted.isEmpty && !wanted.contains(utc.component(.weekday, from: day)) { continue }
            let wall = day.timeIntervalSince1970 + Double(hour * 3_600 + minute * 60)
            let instant = resolve(wall: wall, in: zone)
            if instant > afterSeconds { return USec((instant * 1_000_000).rounded()) }
        }
        return after.plusSaturating(86_400 * usecPerSecond)
    }

    /// The instant at which the local wall time `wall` (seconds, as if UTC) happens in `zone`: its
    /// first occurrence when it happens twice, the end of the gap when it does not happen at all.
    static func resolve(wall: Double, in zone: TimeZone) -> Double {
        func offset(_ t: Double) -> Double { Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: t))) }
        let before = offset(wall - 86_400), after = offset(wall + 86_400)
        let valid = Set([wall - before, wall - after]).filter { $0 + offset($0) == wall }
        if let first = valid.min() { return first }
        // A gap: the first valid instant after it is the transition itself. It lies between the
        // instant the wall time would have had under each offset.
        var lo = min(wall - before, wall - after), hi = max(wall - before, wall - after)
        let startOffset = offset(lo)
        while hi - lo > 1 {
            let mid = ((lo + hi) / 2).rounded(.down)
            if offset(mid) == startOffset { lo = mid } else { hi = mid }
        }
        return hi
    }
}
