// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus
import TestSupport
import Testing

/// A dark screen lights up when an alarm starts ringing: alarmd calls the session bus's screensaver's
/// `SimulateUserActivity` (`org.freedesktop.ScreenSaver`: KDE; `org.xfce.ScreenSaver`: XFCE) once,
/// and only then.
@Suite(.serialized) struct ScreenWakeTests {
    func activity(_ peer: PeerProcess) throws -> [Value] {
        let r = try peer.client.bus.call(peer.name, "/org/alarmd/TestScreenSaver", "org.alarmd.TestScreenSaver", "Activity")
        if case .array(_, let items)? = r.first { return items }
        return []
    }

    @Test func ringingWakesTheScreenOnceAndNothingElseDoes() throws {
        let h = try Harness()
        let saver = try PeerProcess(address: h.bus.address, role: ["--screensaver"], name: "org.freedesktop.ScreenSaver",
                                    log: h.state.path + "/screensaver.log")
        let c = h.client!
        // Nothing rings: a countdown starts, pauses and resumes, an alarm is set for later.
        let tea = try c.schedule([("title", .string("Tea")), ("duration", .uint32(600))])
        let teaId = AlarmID.id(fromPath: tea)!
        _ = try c.schedule([("title", .string("Later")), ("fixed_date", .int64(Int64(Date().timeIntervalSince1970) + 3600))])
        try c.call("Pause", [.string(teaId)])
        #expect(c.waitForState(tea, "paused"))
        try c.call("Resume", [.string(teaId)])
        #expect(c.waitForState(tea, "countdown"), "positive control: alarmd acted on every change of this window")
        try c.barrier()
        #expect(try activity(saver).isEmpty, "no screen wake-up while nothing rings")
        // An alarm starts ringing: one wake-up.
        let wake = try c.schedule([("title", .string("Wake")), ("duration", .uint32(1))])
        #expect(c.waitForState(wake, "alerting"))
        #expect(try eventually(pumping: c) { try !activity(saver).isEmpty })
        #expect(try activity(saver) == [.string("/org/freedesktop/ScreenSaver")])
        #expect(h.daemon.logs("woke the screen (org.freedesktop.ScreenSaver at /org/freedesktop/ScreenSaver)"))
        // Still ringing, updated, then stopped: no further wake-up.
        try c.call("Update", [.string(AlarmID.id(fromPath: wake)!), .vardict([("title", .string("Wake up!"))]), .strings([])])
        try c.call("Stop", [.string(AlarmID.id(fromPath: wake)!)])
        try c.barrier()
        #expect(try activity(saver) == [.string("/org/freedesktop/ScreenSaver")], "once per alarm that starts ringing")
    }

    @Test func kdeStylePathOnlyIsFoundToo() throws {
        let h = try Harness()
        let saver = try PeerProcess(address: h.bus.address, role: ["--screensaver", "/ScreenSaver"], name: "org.freedesktop.ScreenSaver",
                                    log: h.state.path + "/screensaver.log")
        let path = try h.client.schedule([("title", .string("Kde")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(path, "alerting"))
        #expect(try eventually(pumping: h.client) { try !activity(saver).isEmpty })
        #expect(try activity(saver) == [.string("/ScreenSaver")])
    }

    @Test func xfceScreenSaverIsWokenToo() throws {
        let h = try Harness()
        let saver = try PeerProcess(address: h.bus.address, role: ["--screensaver", "/org/xfce/ScreenSaver", "--screensaver-name", "org.xfce.ScreenSaver"],
                                    name: "org.xfce.ScreenSaver", log: h.state.path + "/screensaver.log")
        let path = try h.client.schedule([("title", .string("Xfce")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(path, "alerting"))
        #expect(try eventually(pumping: h.client) { try !activity(saver).isEmpty })
        #expect(try activity(saver) == [.string("/org/xfce/ScreenSaver")])
        #expect(h.daemon.logs("woke the screen (org.xfce.ScreenSaver at /org/xfce/ScreenSaver)"))
    }

    @Test func noScreenSaverIsNoError() throws {
        let h = try Harness()
        let path = try h.client.schedule([("title", .string("Alone")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(path, "alerting"))
        try h.client.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        try h.client.barrier()
        #expect(h.daemon.logs("is alerting, due"), "positive control: it rang")
        #expect(!h.daemon.logs("SimulateUserActivity", timeout: 1), "an absent screensaver is not worth a log line")
        #expect(!h.daemon.logs("woke the screen", timeout: 0.2))
    }
}
