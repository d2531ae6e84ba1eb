// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing
import TestSupport

@Suite struct RingingCoreTests {
    @Test func soundChoices() {
        let dirs = ["/usr/share/alarmd/sounds", "/home/u/.local/share/alarmd/sounds"]
        let exists: (String) -> Bool = { $0 == "/home/u/.local/share/alarmd/sounds/chime.oga" }
        #expect(SoundChoice.resolve("default", soundDirectories: dirs, exists: exists) == .event("alarm-clock-elapsed"))
        #expect(SoundChoice.resolve("chime", soundDirectories: dirs, exists: exists) == .file("/home/u/.local/share/alarmd/sounds/chime.oga"))
        #expect(SoundChoice.resolve("bell", soundDirectories: dirs, exists: exists) == .event("bell"))
        #expect(SoundChoice.resolve("/tmp/x.ogg", soundDirectories: dirs, exists: exists) == .file("/tmp/x.ogg"))
    }

    @Test func volumeRamp() {
        #expect(VolumeRamp.decibels(elapsed: 0, ramp: 0) == 0)
        #expect(VolumeRamp.decibels(elapsed: 0, ramp: 30) == -30)
        #expect(VolumeRamp.decibels(elapsed: 15, ramp: 30) == -15)
        #expect(VolumeRamp.decibels(elapsed: 45, ramp: 30) == 0)
        let steps = stride(from: 0.0, through: 40, by: 0.7).map { VolumeRamp.decibels(elapsed: $0, ramp: 30) }
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func alertTexts() throws {
        let (e, clock) = makeEngine()
        let t = try e.schedule(["duration": .uint32(60), "secondary_button": .string("Snooze"), "tap_action": .string("https://x.org"),
                                "subtitle": .string("Oven"), "stop_button": .string("Done")])
        #expect(AlertText.actions(t, English()).map(\.0) == ["stop", "secondary", "default"])
        #expect(AlertText.actions(t, English()).map(\.1) == ["Done", "Snooze", "Open"])
        e.advance(clock, to: monday0900 + 60 * sec)
        try e.run { () throws(AlarmError) in try e.plan(.countdown(id: t.id), caller: .user) }
        #expect(AlertText.snoozed(e.alarms[t.id]!, in: utc, English()).body == "Snoozed until 09:06")
        let berlin = Zone.system("Europe/Berlin")
        #expect(AlertText.snoozed(e.alarms[t.id]!, in: berlin, English()).body == "Snoozed until 10:06")
        let a = try e.schedule(["hour": .uint32(7), "minute": .uint32(5), "subtitle": .string("Gym")])
        #expect(AlertText.alert(a, in: utc, English()) == ("Test", "Gym\n07:05"))
        #expect(AlertText.completed(t, English()).body == "Completed\nOven")
    }
}

@Suite struct AlertClockTests {
    @Test func clockInTheZoneOfTheAlarm() {
        // 2026-03-08 07:30 UTC: 02:30 in New York would not exist (DST starts at 02:00 → 03:00), so it is 03:30 EDT.
        let t: USec = 1_772_955_000 * usecPerSecond
        #expect(AlertText.clock(t, in: Zone.utc, English()) == "07:30")
        #expect(AlertText.clock(t, in: Zone.system("America/New_York"), English()) == "03:30")
        #expect(AlertText.clock(t, in: Zone.system("Asia/Kathmandu"), English()) == "13:15", "+05:45")
        #expect(AlertText.clock(t, in: Zone.system("Pacific/Kiritimati"), English()) == "21:30", "+14:00, the next day")
        #expect(AlertText.clock(1_772_946_000 * usecPerSecond, in: Zone.system("America/New_York"), English()) == "00:00")
    }
}
