// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing
import TestSupport

/// Next occurrences over real zone data, across both DST transitions of a year.
@Suite struct TimeZoneTests {
    func zone(_ id: String) -> Zone { Zone.system(id) }

    func next(_ h: Int, _ m: Int, _ days: Set<Weekday> = [], after: String, _ z: String) -> String {
        let tz = zone(z)
        let t = ScheduleMath.nextOccurrence(hour: h, minute: m, weekdays: days, after: date(after, tz), in: tz)
        return tz.iso8601(t)
    }

    @Test func newYorkSpringForward() {
        // 2026-03-08 02:00 EST → 03:00 EDT: 02:30 does not exist and fires at 03:00, that day.
        #expect(next(2, 30, after: "2026-03-08 00:00:00", "America/New_York") == "2026-03-08T03:00:00-04:00")
        #expect(next(2, 30, after: "2026-03-08 03:30:00", "America/New_York") == "2026-03-09T02:30:00-04:00")
        #expect(next(7, 0, after: "2026-03-07 08:00:00", "America/New_York") == "2026-03-08T07:00:00-04:00")
        #expect(next(3, 0, after: "2026-03-08 00:00:00", "America/New_York") == "2026-03-08T03:00:00-04:00")
    }

    @Test func newYorkFallBack() {
        // 2026-11-01 02:00 EDT → 01:00 EST: 01:30 happens twice and fires once, at the first.
        #expect(next(1, 30, after: "2026-11-01 00:00:00", "America/New_York") == "2026-11-01T01:30:00-04:00")
        let first = date("2026-11-01 05:30:00")   // 01:30 EDT in UTC
        let tz = zone("America/New_York")
        let again = ScheduleMath.nextOccurrence(hour: 1, minute: 30, weekdays: [], after: first + 15 * 60 * usecPerSecond, in: tz)
        #expect(again == date("2026-11-02 06:30:00"), "not the second 01:30 of the same night")
        #expect(next(7, 0, after: "2026-10-31 08:00:00", "America/New_York") == "2026-11-01T07:00:00-05:00")
    }

    @Test func berlinBothTransitionsWithWeekdays() {
        // 2026-03-29 02:00 CET → 03:00 CEST (a Sunday); 2026-10-25 03:00 CEST → 02:00 CET (a Sunday).
        #expect(next(2, 30, [.sunday], after: "2026-03-28 12:00:00", "Europe/Berlin") == "2026-03-29T03:00:00+02:00")
        #expect(next(7, 0, [.monday], after: "2026-03-28 12:00:00", "Europe/Berlin") == "2026-03-30T07:00:00+02:00")
        #expect(next(2, 30, [.sunday], after: "2026-10-24 12:00:00", "Europe/Berlin") == "2026-10-25T02:30:00+02:00")
        #expect(next(7, 0, [.sunday], after: "2026-10-24 12:00:00", "Europe/Berlin") == "2026-10-25T07:00:00+01:00")
        // A weekly alarm keeps its weekday across the change.
        #expect(next(7, 0, [.monday], after: "2026-10-24 12:00:00", "Europe/Berlin") == "2026-10-26T07:00:00+01:00")
    }

    @Test func lordHoweHalfHourShift() {
        // 2026-10-04 02:00 → 02:30 (+10:30 → +11:00): 02:15 does not exist, fires 02:30 that day.
        #expect(next(2, 15, after: "2026-10-04 00:00:00", "Australia/Lord_Howe") == "2026-10-04T02:30:00+11:00")
        #expect(next(2, 45, after: "2026-10-04 00:00:00", "Australia/Lord_Howe") == "2026-10-04T02:45:00+11:00")
        // 2026-04-05 02:00 → 01:30 (+11:00 → +10:30): 01:45 happens twice, fires once.
        #expect(next(1, 45, after: "2026-04-05 00:00:00", "Australia/Lord_Howe") == "2026-04-05T01:45:00+11:00")
        #expect(next(1, 45, after: "2026-04-05 01:50:00", "Australia/Lord_Howe") == "2026-04-06T01:45:00+10:30")
    }

    @Test func kathmanduQuarterHourOffset() {
        // +05:45 all year, no DST.
        #expect(next(6, 0, after: "2026-06-01 00:00:00", "Asia/Kathmandu") == "2026-06-01T06:00:00+05:45")
        #expect(next(0, 0, [.saturday], after: "2026-06-01 00:00:00", "Asia/Kathmandu") == "2026-06-06T00:00:00+05:45")
    }

    @Test func farFromUTC() {
        // Early in the local day east of UTC and late west of it: still today's wall time.
        #expect(next(9, 0, after: "2026-06-01 01:00:00", "Pacific/Kiritimati") == "2026-06-01T09:00:00+14:00")
        #expect(next(23, 0, after: "2026-06-01 22:00:00", "Pacific/Pago_Pago") == "2026-06-01T23:00:00-11:00")
    }

    @Test func everyDayOfAYearAgreesWithTheCalendar() {
        // Away from transitions, the zone's rules and Foundation's calendar (ICU's copy of them) agree.
        let tz = zone("Europe/Berlin")
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "Europe/Berlin")!
        var t = date("2026-01-01 00:00:00", tz)
        for _ in 0..<365 {
            let ours = ScheduleMath.nextOccurrence(hour: 12, minute: 34, weekdays: [], after: t, in: tz)
            let theirs = cal.nextDate(after: Date(timeIntervalSince1970: Double(t) / 1e6), matching: DateComponents(hour: 12, minute: 34, second: 0),
                                      matchingPolicy: .nextTime)!
            #expect(ours == USec(theirs.timeIntervalSince1970) * usecPerSecond)
            t = ours
        }
    }
}
