// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import Testing
import TestSupport

/// Issue #20: alarmd's zone rules are the system's zone database, read again when a tzdata upgrade
/// replaces a zone's file. Here the database is a private copy (`TZDIR`), and "the upgrade" renames
/// a new file over Europe/Berlin, as dpkg does, carrying Tokyo's rules under Berlin's name.
@Suite(.serialized) struct ZoneFileTests {
    final class Database {
        let dir = TempDir("alarmd-tzdir")
        var root: String { dir.path + "/zoneinfo" }

        init() throws {
            try FileManager.default.createDirectory(atPath: root + "/Europe", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Europe/Berlin", toPath: root + "/Europe/Berlin")
        }

        /// A new Europe/Berlin with `zone`'s rules: written beside it, then renamed over it.
        func upgrade(berlinTo zone: String) throws {
            let new = root + "/Europe/Berlin.dpkg-new"
            try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/" + zone, toPath: new)
            guard rename(new, root + "/Europe/Berlin") == 0 else { throw TestFailure("rename") }
        }
    }

    func wallClock(_ usec: UInt64, _ zone: String) -> LocalTime { Zone.system(zone).localTime(at: Int64(usec / usecPerSecond)) }

    /// Schedules 07:00 daily, upgrades Berlin's file to Tokyo's rules, and sees the fire time follow.
    func fireTimeFollowsTheFile(_ h: Harness, _ db: Database) throws {
        #expect(h.daemon.log.contains("zone Europe/Berlin"))
        let path = try h.client.schedule([("title", .string("Wake")), ("hour", .uint32(7)), ("minute", .uint32(0)),
                                          ("weekdays", .strings(Weekday.allCases.map(\.rawValue)))])
        let before = uint64(try h.client.property(path, alarmInterface, "FireTimeUSec"))
        let berlin = wallClock(before, "Europe/Berlin")
        #expect(berlin.hour == 7 && berlin.minute == 0, "07:00 by Berlin's rules: \(berlin)")
        // An upgrade that leaves Berlin's rules as they were moves nothing. Two round trips through
        // alarmd's loop: passes in which the queued inotify event is handled (ZoneWatcher acts at once).
        try db.upgrade(berlinTo: "Europe/Berlin")
        try h.client.barrier()
        try h.client.barrier()
        #expect(!h.daemon.log.contains("rules changed") && !h.daemon.log.contains("time zone changed"))
        #expect(uint64(try h.client.property(path, alarmInterface, "FireTimeUSec")) == before)
        try db.upgrade(berlinTo: "Asia/Tokyo")
        #expect(h.client.waitFor { s in s.contains { $0.path == path && $0.changed["FireTimeUSec"] != nil } })
        let after = uint64(try h.client.property(path, alarmInterface, "FireTimeUSec"))
        let tokyo = wallClock(after, "Asia/Tokyo")
        #expect(tokyo.hour == 7 && tokyo.minute == 0, "07:00 by the new rules: \(tokyo)")
        #expect(after != before)
        #expect(h.daemon.logs("time zone Europe/Berlin: its rules changed"))
        #expect(!h.daemon.log.contains("time zone changed:"), "the same name")
    }

    @Test func localtimeLinkIntoTheDatabase() throws {
        let db = try Database()
        let files = TempDir("alarmd-tzlink")
        try FileManager.default.createSymbolicLink(atPath: files.path + "/localtime", withDestinationPath: db.root + "/Europe/Berlin")
        let h = try Harness(extraArgs: ["--localtime", files.path + "/localtime"], environment: ["TZDIR": db.root])
        try fireTimeFollowsTheFile(h, db)
    }

    @Test func tzNamesAZoneOfTZDIR() throws {
        let db = try Database()
        let h = try Harness(extraArgs: ["--localtime", "/nonexistent/localtime"], environment: ["TZDIR": db.root, "TZ": ":Europe/Berlin"])
        #expect(h.daemon.log.contains("time zone Europe/Berlin from TZ"))
        try fireTimeFollowsTheFile(h, db)
    }

    @Test func tzAsAPosixRule() throws {
        let h = try Harness(extraArgs: ["--localtime", "/nonexistent/localtime"], environment: ["TZ": "JST-9"])
        let path = try h.client.schedule([("title", .string("Wake")), ("hour", .uint32(7)), ("minute", .uint32(0))])
        let fire = uint64(try h.client.property(path, alarmInterface, "FireTimeUSec"))
        let local = wallClock(fire, "Asia/Tokyo")
        #expect(local.hour == 7 && local.minute == 0, "07:00 at +09:00: \(local)")
    }

    /// alarmctl reads and shows times by the same database: a date typed for "Europe/Berlin" whose
    /// file carries Tokyo's rules is 09:00 ahead of UTC, and is shown back as typed.
    @Test func alarmctlReadsTheSameDatabase() throws {
        let db = try Database()
        try db.upgrade(berlinTo: "Asia/Tokyo")
        let h = try Harness()
        let env = ["TZDIR": db.root, "TZ": "Europe/Berlin"]
        let r = try h.alarmctl(["alarm", "2030-12-24 18:00", "--title", "Dinner"], environment: env)
        #expect(r.status == 0, "\(r.err)")
        let id = try printedId(h, r.out)
        let dinner = try #require(try h.snapshot(id))
        #expect(dinner.schedule["fixed_date"]?.integerValue == 1_924_333_200, "18:00 at +09:00 is 09:00 UTC")
        let list = try h.alarmctl(["list"], environment: env)
        #expect(list.out.contains("2030-12-24 18:00"), "\(list.out)")
        let plain = try h.alarmctl(["list"], environment: ["TZ": "Europe/Berlin"])
        #expect(plain.out.contains("2030-12-24 10:00"), "the system's Berlin reads it at +01:00: \(plain.out)")
    }
}

/// alarmd and alarmctl link no ICU (issue #20): Foundation's zone rules and its 40 MB of ICU data are
/// not in them, only FoundationEssentials. What ld.so loads for the built binaries says so.
struct LinkageTests {
    /// What ld.so loads for the built binary `name`, as ldd lists it.
    func dependencies(_ name: String) throws -> String {
        let r = try runCommand("/usr/bin/ldd", [Products.directory + "/" + name])
        #expect(r.status == 0, "\(r.err)")
        return r.out
    }

    @Test(arguments: ["alarmd", "alarmctl"]) func noICU(_ name: String) throws {
        let out = try dependencies(name)
        #expect(out.contains("libFoundationEssentials.so") || out.contains("libswiftCore.so"), "ldd read it: \(out)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!out.contains(library), "\(name) loads \(library)")
        }
    }

    /// libpulse and libcanberra are opened when first needed, not at start (RingingTests checks when):
    /// neither they nor what they bring along (codecs, X11, libdbus) are in alarmd's dependencies.
    @Test func noSoundLibrariesAtStart() throws {
        let out = try dependencies("alarmd")
        #expect(out.contains("libsystemd.so"), "ldd read it: \(out)")
        for library in ["libpulse.so", "libpulsecommon", "libcanberra.so", "libsndfile.so", "libX11.so", "libdbus-1.so"] {
            #expect(!out.contains(library), "alarmd loads \(library) at start")
        }
    }
}
