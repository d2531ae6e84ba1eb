// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
import AlarmCore
import Foundation
import SystemFiles
import Testing
import TestSupport

/// Where the local zone comes from, as glibc decides it: `TZ` (a name below `TZDIR`, a path, a POSIX
/// rule, empty), else the file `/etc/localtime` is, named by its link target.
@Suite struct ZoneSourceTests {
    let dir = TempDir("alarmd-zonesource")
    let summer: Int64 = 1_782_907_200   // 2026-07-01 12:00 UTC

    func load(localtime: String? = nil, _ env: [String: String]) -> ZoneSource.Loaded? {
        ZoneSource(localtime: localtime ?? dir.path + "/localtime", environment: env).load()
    }

    @Test func localtimeIsNamedByItsLinkTarget() throws {
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/localtime", withDestinationPath: "/usr/share/zoneinfo/Europe/Berlin")
        let l = try #require(load([:]))
        #expect(l.zone.name == "Europe/Berlin" && !l.pinned)
        #expect(l.zone.offset(at: summer) == 7_200)
        #expect(l.files == [URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin").resolvingSymlinksInPath().path])
        #expect(l.zone.hasSameRules(as: Zone.system("Europe/Berlin")))
    }

    @Test func noLocaltimeIsUTCAndADamagedOneIsNoZone() throws {
        #expect(load([:])?.zone == .utc)
        try Data("TZif2 but not really".utf8).write(to: URL(fileURLWithPath: dir.path + "/localtime"))
        #expect(load([:]) == nil, "kept: the current zone stays")
        #expect(ZoneSource(localtime: dir.path + "/localtime", environment: [:]).initial().zone == .utc)
    }

    @Test func tzNamesAZoneBelowTZDIROrTheDefaultDatabase() throws {
        let tokyo = try #require(load(["TZ": ":Asia/Tokyo"]))
        #expect(tokyo.zone.name == "Asia/Tokyo" && tokyo.pinned && tokyo.zone.offset(at: summer) == 32_400)
        #expect(load(["TZ": "Asia/Tokyo"])?.zone.name == "Asia/Tokyo")
        #expect(load(["TZ": "/usr/share/zoneinfo/Asia/Tokyo"])?.zone.name == "Asia/Tokyo")
        // TZDIR: the database is elsewhere; here its Asia/Tokyo has New York's rules.
        try FileManager.default.createDirectory(atPath: dir.path + "/db/Asia", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/America/New_York", toPath: dir.path + "/db/Asia/Tokyo")
        let moved = try #require(load(["TZ": "Asia/Tokyo", "TZDIR": dir.path + "/db"]))
        #expect(moved.zone.name == "Asia/Tokyo" && moved.zone.offset(at: summer) == -14_400)
        #expect(moved.files.first == dir.path + "/db/Asia/Tokyo")
    }

    @Test func tzAsARuleEmptyOrNothing() throws {
        let rule = try #require(load(["TZ": "<+0330>-3:30"]))
        #expect(rule.zone.offset(at: summer) == 12_600 && rule.files.isEmpty && rule.pinned)
        let us = try #require(load(["TZ": "XST5XDT,M3.2.0,M11.1.0"]))
        #expect(us.zone.offset(at: summer) == -14_400)
        #expect(load(["TZ": ""])?.zone == .utc, "empty TZ: UTC")
        #expect(load(["TZ": "Nowhere/Zone"])?.zone == .utc, "no such file and no rule: UTC, as glibc")
    }
}
