// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing
import TestSupport

@Suite struct ScheduleMathTests {
    func next(_ h: Int, _ m: Int, _ days: Set<Weekday> = [], after: String, zone: Zone = utc) -> USec {
        ScheduleMath.nextOccurrence(hour: h, minute: m, weekdays: days, after: date(after, zone), in: zone)
    }

    @Test func laterTodayWithoutWeekdays() {
        #expect(next(10, 30, after: "2026-03-02 09:00:00") == date("2026-03-02 10:30:00"))
    }

    @Test func tomorrowWhenTodaysHasPassed() {
        #expect(next(7, 0, after: "2026-03-02 09:00:00") == date("2026-03-03 07:00:00"))
        // Exactly at the time counts as passed: the next one is a day later.
        #expect(next(9, 0, after: "2026-03-02 09:00:00") == date("2026-03-03 09:00:00"))
    }

    @Test func acrossMonthAndYearEnds() {
        #expect(next(6, 15, after: "2026-12-31 23:59:00") == date("2027-01-01 06:15:00"))
        #expect(next(0, 0, after: "2026-02-28 12:00:00") == date("2026-03-01 00:00:00"))
    }

    @Test func weekdaysPickTheNearestListedDay() {
        // Monday 09:00 → Wednesday is the next listed day.
        #expect(next(7, 0, [.wednesday, .friday], after: "2026-03-02 09:00:00") == date("2026-03-04 07:00:00"))
        // Today is listed and still ahead.
        #expect(next(18, 0, [.monday], after: "2026-03-02 09:00:00") == date("2026-03-02 18:00:00"))
        // Today is listed but has passed: a week later.
        #expect(next(8, 0, [.monday], after: "2026-03-02 09:00:00") == date("2026-03-09 08:00:00"))
    }

    @Test func weekdaysAcrossTheWeekBoundary() {
        // Saturday 2026-03-07 22:00 → next Monday.
        #expect(next(6, 30, [.monday, .tuesday], after: "2026-03-07 22:00:00") == date("2026-03-09 06:30:00"))
        // Sunday evening → Sunday next week when only Sunday is listed.
        #expect(next(7, 0, [.sunday], after: "2026-03-08 08:00:00") == date("2026-03-15 07:00:00"))
    }

    @Test func followsTheZone() {
        let berlin = Zone.system("Europe/Berlin")
        // 07:00 in Berlin in winter is 06:00 UTC.
        #expect(next(7, 0, after: "2026-01-10 12:00:00", zone: berlin) == date("2026-01-11 06:00:00"))
        #expect(next(7, 0, after: "2026-01-10 12:00:00", zone: berlin) == date("2026-01-11 07:00:00", berlin))
    }

    @Test func weekdayOrderAndNames() {
        #expect(Weekday.allCases.map(\.rawValue) == ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
        #expect(Weekday.sunday.calendarWeekday == 1 && Weekday.saturday.calendarWeekday == 7)
    }
}
