// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// Clock steps, zone changes, downtime and suspend over a real bus, with the daemon's test clock
/// (`--test-clock`): the machine's own clock is never touched.
@Suite(.serialized) struct TimeTests {
    final class TimeHarness {
        let files = TempDir("alarmd-time")
        let h: Harness
        var clockFile: String { files.path + "/clock" }
        var localtime: String { files.path + "/localtime" }

        init(zone: String = "Europe/Berlin", config: String? = nil, notifications: Bool = true, environment: [String: String] = [:]) throws {
            try FileManager.default.createSymbolicLink(atPath: files.path + "/localtime", withDestinationPath: "/usr/share/zoneinfo/\(zone)")
            h = try Harness(config: config, notifications: notifications,
                            extraArgs: ["--test-clock", files.path + "/clock", "--localtime", files.path + "/localtime"],
                            environment: environment)
        }

        var c: Client { h.client }

        func now() throws -> UInt64 {
            uint64(try c.bus.call(managerName, "/org/alarmd/TestClock1", "org.alarmd.TestClock1", "Now").first)
        }

        func setTime(_ t: UInt64) throws {
            try c.bus.call(managerName, "/org/alarmd/TestClock1", "org.alarmd.TestClock1", "SetTime", [.uint64(t)])
        }

        func relink(_ zone: String) throws {
            // Replaced atomically, as timedated does: a new link renamed over the old one.
            let tmp = files.path + "/localtime.new"
            try FileManager.default.createSymbolicLink(atPath: tmp, withDestinationPath: "/usr/share/zoneinfo/\(zone)")
            guard rename(tmp, localtime) == 0 else { throw TestFailure("rename") }
        }
    }

    @Test func stepForwardWithinTheGraceRings() throws {
        let t = try TimeHarness()
        let now = try t.now()
        let path = try t.c.schedule([("title", .string("Soon")), ("fixed_date", .int64(Int64(now / usec) + 3_600))])
        try t.setTime(now + 3_630 * usec)   // 30 s late: within the 60 s grace
        #expect(t.c.waitForState(path, "alerting", timeout: 3))
    }

    @Test func stepForwardBeyondTheGraceIsMissedOnce() throws {
        let t = try TimeHarness()
        let now = try t.now()
        let oneShot = try t.c.schedule([("title", .string("Dentist")), ("fixed_date", .int64(Int64(now / usec) + 3_600))])
        let daily = try t.c.schedule([("title", .string("Pills")), ("hour", .uint32(9)), ("minute", .uint32(0)),
                                      ("weekdays", .strings(Weekday.allCases.map(\.rawValue)))])
        try t.setTime(now + 3 * 86_400 * usec)   // three days later
        #expect(t.c.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.first == .string(AlarmID.id(fromPath: oneShot)!) && $0.args.last == .string("missed") } })
        // Positive control in the same window: an alarm due now, within the grace, does ring.
        let later = now + 3 * 86_400 * usec
        let control = try t.c.schedule([("title", .string("Control")), ("fixed_date", .int64(Int64(later / usec) + 10))])
        try t.setTime(later + 20 * usec)
        #expect(t.c.waitForState(control, "alerting", timeout: 3))
        #expect(!t.c.signals.contains { $0.path != control && $0.changed["State"] == .string("alerting") }, "nothing rings a backlog")
        #expect(try t.c.property(daily, alarmInterface, "State") == .string("scheduled"))
        #expect(uint64(try t.c.property(daily, alarmInterface, "FireTimeUSec")) > now + 3 * 86_400 * usec, "on to its next occurrence")
        let shown = try #require(t.h.notifier!.waitFor { $0.contains { $0.string("summary") == "Missed alarms" } })
        let missed = shown.first { $0.string("summary") == "Missed alarms" }!
        #expect(missed.string("body").contains("Dentist") && missed.string("body").contains("Pills"), "one notification lists both")
        #expect(shown.filter { $0.string("summary").hasPrefix("Missed") }.count == 1, "\(shown.map { $0.string("summary") })")
    }

    @Test func stepBackwardKeepsInstantsAndRemainingTime() throws {
        let t = try TimeHarness()
        let now = try t.now()
        let fixed = try t.c.schedule([("title", .string("Fixed")), ("fixed_date", .int64(Int64(now / usec) + 600))])
        let timer = try t.c.schedule([("title", .string("Eggs")), ("duration", .uint32(300))])
        let fireBefore = uint64(try t.c.property(fixed, alarmInterface, "FireTimeUSec"))
        let remainingBefore = uint64(try t.c.property(timer, alarmInterface, "RemainingUSec"))
        try t.setTime(now - 7_200 * usec)   // two hours back
        try t.c.barrier()
        #expect(uint64(try t.c.property(fixed, alarmInterface, "FireTimeUSec")) == fireBefore, "a fixed date keeps its instant")
        let remaining = uint64(try t.c.property(timer, alarmInterface, "RemainingUSec"))
        #expect(remaining <= remainingBefore && remainingBefore - remaining < 1_000_000, "a timer keeps its remaining time (\(remaining))")
        // And forward again by an hour: still the same remaining time, and nothing rings.
        try t.setTime(now + 3_600 * usec)
        try t.c.barrier()
        let after = uint64(try t.c.property(timer, alarmInterface, "RemainingUSec"))
        #expect(after <= remaining && remaining - after < 1_000_000)
        #expect(try t.c.property(timer, alarmInterface, "State") == .string("countdown"))
        #expect(t.h.daemon.log.contains("wall clock stepped by"))
    }

    @Test func zoneChangeMovesRelativeAlarmsNotFixedOnes() throws {
        let t = try TimeHarness(zone: "Europe/Berlin")
        let relative = try t.c.schedule([("title", .string("Wake")), ("hour", .uint32(7)), ("minute", .uint32(0)),
                                         ("weekdays", .strings(Weekday.allCases.map(\.rawValue)))])
        let fixed = try t.c.schedule([("title", .string("Call")), ("fixed_date", .int64(Int64(try t.now() / usec) + 86_400))])
        let relBefore = uint64(try t.c.property(relative, alarmInterface, "FireTimeUSec"))
        let fixedBefore = uint64(try t.c.property(fixed, alarmInterface, "FireTimeUSec"))
        try t.relink("America/New_York")
        #expect(t.c.waitFor { s in s.contains { $0.path == relative && $0.changed["FireTimeUSec"] != nil } })
        let relAfter = uint64(try t.c.property(relative, alarmInterface, "FireTimeUSec"))
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "America/New_York")!
        let local = cal.dateComponents([.hour, .minute], from: date(relAfter))
        #expect(local.hour == 7 && local.minute == 0, "07:00 in the new zone")
        #expect(relAfter != relBefore)
        #expect(uint64(try t.c.property(fixed, alarmInterface, "FireTimeUSec")) == fixedBefore, "a fixed date does not move")
        #expect(t.h.daemon.log.contains("time zone changed: Europe/Berlin → America/New_York"))
    }

    @Test func daemonDownAcrossAnAlarmReportsItMissed() throws {
        let t = try TimeHarness()
        let now = try t.now()
        let path = try t.c.schedule([("title", .string("Train")), ("fixed_date", .int64(Int64(now / usec) + 600))])
        let soon = try t.c.schedule([("title", .string("Kettle")), ("fixed_date", .int64(Int64(now / usec) + 680))])
        let id = AlarmID.id(fromPath: path)!
        t.h.daemon.kill9()
        // While it is down, 700 s pass: Train is 100 s late (missed), Kettle 20 s (within the grace).
        let offset = Int64((try? String(contentsOfFile: t.clockFile, encoding: .utf8)) ?? "0") ?? 0
        try String(offset + 700 * Int64(usec)).write(toFile: t.clockFile, atomically: true, encoding: .utf8)
        try t.h.restart(kill9: true)
        #expect(t.c.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args == [.string(id), .string(""), .string("missed")] } },
                "the missed-alarm signal comes after the daemon owns its name")
        let shown = try #require(t.h.notifier!.waitFor { $0.contains { $0.string("summary").hasPrefix("Missed alarm") } })
        #expect(shown.contains { $0.string("body").contains("Train") })
        // Due 20 s before the restart: within the grace, so it rings instead.
        #expect(t.c.waitForState(soon, "alerting"))
    }

    @Test func suspendAndResume() throws {
        let system = try TestBus()
        let logind = try PeerProcess(address: system.address, role: ["--logind"], name: "org.freedesktop.login1",
                                     log: system.dir.path + "/logind.log")
        let t = try TimeHarness(environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        func delayHeld() throws -> [Bool] {
            guard case .array(_, let items)? = try logind.client.bus.call("org.freedesktop.login1", "/org/freedesktop/login1",
                                                                          "org.alarmd.TestLogind", "Inhibitors").first else { return [] }
            return items.compactMap { if case .structure(let f) = $0, f[3] == .string("delay") { f[4] == .bool(true) } else { nil } }
        }
        func wait(_ p: ([Bool]) -> Bool) throws -> Bool { try eventually { p(try delayHeld()) } }
        #expect(try wait { $0 == [true] }, "a delay inhibitor while awake")
        let now = try t.now()
        let path = try t.c.schedule([("title", .string("Nap over")), ("fixed_date", .int64(Int64(now / usec) + 1_800))])
        try logind.client.bus.call("org.freedesktop.login1", "/org/freedesktop/login1", "org.alarmd.TestLogind", "Sleep", [.bool(true)])
        #expect(try wait { $0 == [false] }, "released so the machine may sleep")
        // Asleep for half an hour and 20 s: the alarm came due 20 s ago, within the grace.
        try t.setTime(now + 1_820 * usec)
        try logind.client.bus.call("org.freedesktop.login1", "/org/freedesktop/login1", "org.alarmd.TestLogind", "Sleep", [.bool(false)])
        #expect(t.c.waitForState(path, "alerting", timeout: 3), "rings on return")
        #expect(try wait { $0 == [false, true] }, "a new delay inhibitor after resume")
        #expect(t.h.daemon.log.contains("the machine woke up"))
    }

    /// timedated's announcement alone makes alarmd look again: here /etc/localtime is a link to a
    /// link in a directory alarmd does not watch, so no inotify event comes.
    @Test func timedatedAnnouncementMovesRelativeAlarms() throws {
        let system = try TestBus()
        let timedated = try PeerProcess(address: system.address, role: ["--timedated"], name: "org.freedesktop.timedate1",
                                        log: system.dir.path + "/timedated.log")
        let zones = TempDir("alarmd-zones")
        try FileManager.default.createSymbolicLink(atPath: zones.path + "/current", withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
        let files = TempDir("alarmd-link")
        try FileManager.default.createSymbolicLink(atPath: files.path + "/localtime", withDestinationPath: zones.path + "/current")
        let h = try Harness(extraArgs: ["--localtime", files.path + "/localtime"],
                            environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        #expect(h.daemon.logs("zone Asia/Tokyo"), "its ready line names the zone (written just after it takes its name)")
        let path = try h.client.schedule([("title", .string("Wake")), ("hour", .uint32(7)), ("minute", .uint32(0))])
        // Relinked where inotify does not look.
        try FileManager.default.removeItem(atPath: zones.path + "/current")
        try FileManager.default.createSymbolicLink(atPath: zones.path + "/current", withDestinationPath: "/usr/share/zoneinfo/Europe/Lisbon")
        // Positive control: two round trips through alarmd's loop, each a pass in which an inotify
        // event already queued would have been handled (ZoneWatcher acts on the event at once).
        try h.client.barrier()
        try h.client.barrier()
        #expect(!h.daemon.log.contains("time zone changed"), "nothing noticed it yet")
        try timedated.client.bus.call("org.freedesktop.timedate1", "/org/freedesktop/timedate1", "org.alarmd.TestTimedated",
                                      "Announce", [.string("Europe/Lisbon")])
        #expect(h.client.waitFor { s in s.contains { $0.path == path && $0.changed["FireTimeUSec"] != nil } })
        #expect(h.daemon.logs("time zone changed: Asia/Tokyo → Europe/Lisbon"))
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "Europe/Lisbon")!
        let fire = date(uint64(try h.client.property(path, alarmInterface, "FireTimeUSec")))
        #expect(cal.component(.hour, from: fire) == 7)
    }
}
