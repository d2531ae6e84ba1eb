// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Foundation
import Testing
import TestSupport

struct CommandInputTests {
    let berlin = Zone.system("Europe/Berlin")

    @Test func times() {
        #expect(CommandInput.time("07:30") == .wallClock(hour: 7, minute: 30))
        #expect(CommandInput.time("7:05") == .wallClock(hour: 7, minute: 5))
        #expect(CommandInput.time("23:59") == .wallClock(hour: 23, minute: 59))
        // 2026-12-24 18:00 in Berlin (UTC+1) is 17:00 UTC.
        #expect(CommandInput.time("2026-12-24 18:00", zone: berlin) == .fixed(1_798_131_600))
        #expect(CommandInput.time("2026-12-24T18:00", zone: berlin) == .fixed(1_798_131_600))
        for bad in ["24:00", "7:60", "0730", "7", "", "2026-02-30 10:00", "2026-13-01 10:00", "26-12-24 18:00", "tomorrow", "07:30pm"] {
            #expect(CommandInput.time(bad, zone: berlin) == nil, "\(bad)")
        }
    }

    @Test func days() {
        #expect(CommandInput.days("mon-fri") == [.monday, .tuesday, .wednesday, .thursday, .friday])
        #expect(CommandInput.days("weekdays") == CommandInput.days("mon-fri"))
        #expect(CommandInput.days("weekends") == [.saturday, .sunday])
        #expect(CommandInput.days("daily") == Weekday.allCases)
        #expect(CommandInput.days("mon,wed") == [.monday, .wednesday])
        #expect(CommandInput.days("Friday,monday") == [.monday, .friday], "full names, any case, week order")
        #expect(CommandInput.days("fri-mon") == [.monday, .friday, .saturday, .sunday], "a range may wrap")
        #expect(CommandInput.days("never") == [])
        for bad in ["", "funday", "mon-", "m", "mon,,", "mon-tue-wed"] { #expect(CommandInput.days(bad) == nil, "\(bad)") }
    }

    @Test func durations() {
        #expect(CommandInput.duration("25m") == 1500)
        #expect(CommandInput.duration("1h30m") == 5400)
        #expect(CommandInput.duration("90") == 90)
        #expect(CommandInput.duration("0") == nil)
        #expect(CommandInput.duration("5 minutes") == nil)
        #expect(CommandInput.durationText(5400) == "1 h 30 min")
        #expect(CommandInput.durationText(45) == "45 s")
    }

    /// Readable but impossible input says why, rather than that it cannot be read.
    @Test func invalidTimesSayWhy() {
        func reason(_ text: String) -> String? {
            if case .failure(.invalid(let r)) = CommandInput.readTime(text, zone: berlin) { return r }
            return nil
        }
        #expect(reason("25:00") == "there is no hour 25 in a day (hours are 00 to 23)")
        #expect(reason("7:60") == "there is no minute 60 in an hour (minutes are 00 to 59)")
        #expect(reason("2026-02-30 10:00") == "February 2026 has no day 30 (it has days 01 to 28)")
        #expect(reason("2028-02-30 10:00") == "February 2028 has no day 30 (it has days 01 to 29)", "a leap year")
        #expect(reason("2026-13-01 10:00") == "there is no month 13 (months are 01 to 12)")
        #expect(reason("2026-12-24 24:00") == "there is no hour 24 in a day (hours are 00 to 23)")
        for unreadable in ["0730", "7", "", "26-12-24 18:00", "tomorrow", "07:30pm", "7h30"] {
            #expect(CommandInput.readTime(unreadable, zone: berlin) == .failure(.unreadable), "\(unreadable)")
        }
    }

    @Test func durationBounds() {
        #expect(CommandInput.readDuration("0s") == .failure(.invalid("is no time at all: it must be at least 1 second")))
        #expect(CommandInput.readDuration("0") == .failure(.invalid("is no time at all: it must be at least 1 second")))
        #expect(CommandInput.readDuration("0m", zero: true) == .success(0), "0 turns a warning off")
        #expect(CommandInput.readDuration("2d", range: 1...86_400) == .failure(.invalid("is longer than 1 day, the most it may be")))
        #expect(CommandInput.readDuration("1d", range: 1...86_400) == .success(86_400))
        #expect(CommandInput.readDuration("6000d") == .failure(.invalid("is longer than five years, the most it may be")))
        #expect(CommandInput.readDuration("5 minutes") == .failure(.unreadable))
        #expect(CommandInput.readDuration("1h30m") == .success(5_400))
        #expect(CommandInput.spoken(7 * 86_400) == "7 days" && CommandInput.spoken(1) == "1 second" && CommandInput.spoken(90) == "90 seconds")
    }
}
