import AlarmClient
import AlarmCore
import Foundation
import Testing

struct CommandInputTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

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
}
