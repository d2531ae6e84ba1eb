// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// A phone: alarms ring through feedbackd (vibration, LED, sound) with `important`, so that the silent
/// profile does not silence them, until Stop, Snooze or the ring timeout ends the feedback; where
/// feedbackd plays nothing for them, or is absent, libcanberra rings as on a desktop. On Phosh the
/// ringing alert names alarmd's desktop entry, whose lock-screen actions are Stop and Snooze.
/// feedbackd here is the test peer (its rule and API: `FakeFeedbackd`); the real one runs in the
/// Phosh suite (Tests/desktop/phosh).
@Suite(.serialized) struct PhoneFeedbackTests {
    /// A libcanberra that counts its plays, one line each, into a file.
    final class CountedCanberra {
        let canberra: StandInCanberra
        let plays: String
        init() throws {
            canberra = try StandInCanberra(playFull: """
                const char *path = getenv("ALARMD_TEST_CANBERRA_PLAYS");
                FILE *f = path ? fopen(path, "a") : NULL;
                if (f) { fputs("play\\n", f); fclose(f); }
                return 0;
                """)
            plays = canberra.dir.path + "/plays"
        }
        var environment: [String: String] { canberra.environment.merging(["ALARMD_TEST_CANBERRA_PLAYS": plays]) { a, _ in a } }
        var count: Int { readText(plays).split(separator: "\n").count }
    }

    func feedbacks(_ peer: PeerProcess) throws -> [[String: Value]] {
        let r = try peer.client.bus.call("org.sigxcpu.Feedback", "/org/sigxcpu/Feedback", "org.alarmd.TestFeedback", "Feedbacks")
        guard case .array(_, let items)? = r.first else { return [] }
        return items.map { Dictionary($0.vardictEntries ?? [], uniquingKeysWith: { a, _ in a }) }
    }

    func feedbackd(_ h: Harness, profile: String = "full", allowed: [String] = [PhoneFeedback.appId]) throws -> PeerProcess {
        try PeerProcess(address: h.bus.address, role: ["--feedbackd", profile, "--allow-important", allowed.joined(separator: ",")],
                        name: "org.sigxcpu.Feedback", log: h.state.path + "/feedbackd.log")
    }

    func hints(_ f: [String: Value]) -> [String: Value] {
        Dictionary(f["hints"]?.unwrapped.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
    }

    @Test func aTimerRingsThroughFeedbackdUntilStop() throws {
        let sound = try CountedCanberra()
        let h = try Harness(environment: sound.environment)
        let fbd = try feedbackd(h)
        let c = h.client!
        let path = try c.schedule([("title", .string("Eggs")), ("duration", .uint32(1))])
        #expect(c.waitForState(path, "alerting"))
        #expect(try eventually(pumping: c) { try feedbacks(fbd).count == 1 })
        let f = try #require(try feedbacks(fbd).first)
        #expect(f.string("app_id") == PhoneFeedback.appId, "alarmd's own id, the one on the allow-list")
        #expect(f.string("event") == "timeout-completed", "a timer's own event")
        #expect(hints(f)["important"]?.unwrapped == .bool(true), "important: through the silent profile")
        #expect(hints(f)["sound-file"] == nil, "the default sound: the theme's")
        #expect(f["timeout"]?.unwrapped == .int32(0), "looping until alarmd ends it")
        #expect(f["ended"]?.unwrapped == .bool(false), "it runs while the timer rings")
        #expect(h.daemon.logs("through feedbackd, event 'timeout-completed'"))

        try c.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        #expect(try eventually(pumping: c) { try feedbacks(fbd).first?["ended"]?.unwrapped == .bool(true) }, "Stop ends the feedback")
        let ended = try #require(try feedbacks(fbd).first)
        #expect(ended.uint32("end_reason") == 2 && ended.uint32("end_calls") == 1, "ended by alarmd's EndFeedback, once")
        try c.barrier()
        #expect(try feedbacks(fbd).count == 1, "one feedback for one ring")
        #expect(sound.count == 0, "feedbackd rang it: libcanberra played nothing")
    }

    @Test func anAlarmRingsItsOwnEventAndSoundUntilSnooze() throws {
        let sound = try CountedCanberra()
        let h = try Harness(environment: sound.environment)
        let fbd = try feedbackd(h)
        let c = h.client!
        let due = Int64(Date().timeIntervalSince1970) + 2
        let path = try c.schedule([("title", .string("Up")), ("fixed_date", .int64(due)), ("sound", .string("beacon")), ("post_alert", .uint32(300))])
        #expect(c.waitForState(path, "alerting", timeout: 10))
        #expect(try eventually(pumping: c) { try feedbacks(fbd).count == 1 })
        let f = try #require(try feedbacks(fbd).first)
        #expect(f.string("event") == "alarm-clock-elapsed", "an alarm's own event")
        #expect(hints(f)["sound-file"]?.unwrapped == .string(Products.sourceRoot + "/sounds/beacon.oga"), "the alarm's sound, not the theme's")
        try c.call("Countdown", [.string(AlarmID.id(fromPath: path)!)])
        #expect(c.waitForState(path, "countdown"))
        #expect(try eventually(pumping: c) { try feedbacks(fbd).first?.uint32("end_reason") == 2 }, "Snooze ends the feedback")
        #expect(sound.count == 0)
    }

    @Test func theRingTimeoutEndsTheFeedback() throws {
        let h = try Harness(config: "[ringing]\nring_timeout = 2\n")
        let fbd = try feedbackd(h)
        let c = h.client!
        let path = try c.schedule([("title", .string("Left")), ("duration", .uint32(1))])
        #expect(c.waitForState(path, "alerting"))
        #expect(try eventually(pumping: c) { try feedbacks(fbd).count == 1 })
        #expect(c.waitFor(timeout: 8) { $0.contains { $0.member == "AlarmRemoved" } }, "the ring timed out")
        #expect(try eventually(pumping: c) { try feedbacks(fbd).first?.uint32("end_reason") == 2 }, "and its feedback ended with it")
    }

    /// In the silent profile feedbackd plays nothing for an app not on its allow-list: libcanberra rings.
    @Test func whereFeedbackdPlaysNothingLibcanberraRings() throws {
        let sound = try CountedCanberra()
        let h = try Harness(environment: sound.environment)
        let fbd = try feedbackd(h, profile: "silent", allowed: ["org.gnome.clocks"])
        let c = h.client!
        let path = try c.schedule([("title", .string("Quiet")), ("duration", .uint32(1))])
        #expect(c.waitForState(path, "alerting"))
        #expect(eventually { sound.count >= 1 }, "libcanberra rings instead")
        let f = try #require(try feedbacks(fbd).first)
        #expect(f.uint32("end_reason") == UInt32.max && f.string("level") == "silent", "feedbackd had nothing to play")
        #expect(h.daemon.logs("feedbackd has nothing to play for it"))
        try c.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        #expect(h.daemon.logs("ring \(AlarmID.id(fromPath: path)!): stopped after"), "libcanberra's ring stopped")
        #expect(try feedbacks(fbd).count == 1, "not triggered again")
    }

    /// The user flips the silent switch while an alarm rings: feedbackd ends even an important
    /// feedback, and alarmd starts it again (important: it plays on in silent).
    @Test func aProfileSwitchMidRingDoesNotSilenceTheAlarm() throws {
        let h = try Harness()
        let fbd = try feedbackd(h)
        let c = h.client!
        let path = try c.schedule([("title", .string("Flip")), ("duration", .uint32(1))])
        #expect(c.waitForState(path, "alerting"))
        #expect(try eventually(pumping: c) { try feedbacks(fbd).count == 1 })
        try fbd.client.bus.call("org.sigxcpu.Feedback", "/org/sigxcpu/Feedback", "org.alarmd.TestFeedback", "SetProfile", [.string("silent")])
        #expect(try eventually(pumping: c) { try feedbacks(fbd).count == 2 }, "triggered again")
        let list = try feedbacks(fbd)
        #expect(list[0].uint32("end_reason") == 2 && list[1]["ended"]?.unwrapped == .bool(false))
        #expect(list[1].string("level") == "full", "important and allowed: the full level in the silent profile")
        try c.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        #expect(try eventually(pumping: c) { try feedbacks(fbd).last?.uint32("end_reason") == 2 })
    }

    @Test func withoutFeedbackdLibcanberraRingsAsBefore() throws {
        let sound = try CountedCanberra()
        let h = try Harness(environment: sound.environment)
        let c = h.client!
        let path = try c.schedule([("title", .string("Desk")), ("duration", .uint32(1))])
        #expect(c.waitForState(path, "alerting"))
        #expect(eventually { sound.count >= 1 })
        try c.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        #expect(h.daemon.logs("stopped after 1 loop(s)"))
        #expect(!h.daemon.log.contains("feedbackd"), "no feedbackd, not a word about it")
    }

    /// On Phosh the ringing alert names alarmd's entry (Stop and Snooze on the lock screen) and asks
    /// phosh for no feedback of its own; the app's own entry still names everything else.
    @Test func onPhoshTheRingingAlertNamesAlarmdsEntry() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n",
                            desktopEntries: ["org.example.Clock": AlertPresentationTests.clockEntry])
        let phosh = try NotificationPeer(bus: h.bus, vendor: "Phosh")
        let app = try h.app("org.example.Clock")
        let path = try app.schedule([("title", .string("Tea")), ("duration", .uint32(1))])
        let n = try #require(phosh.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Tea" } }?.first)
        let hints = Dictionary(n["hints"]?.unwrapped.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
        #expect(hints["desktop-entry"] == .string(PhoneFeedback.appId), "alarmd's entry: its X-Phosh-Lockscreen-Actions")
        #expect(hints["x-phosh-fb-profile"] == .string("none"), "alarmd rings; phosh adds no vibration of its own")
        #expect(n.string("app_name") == "Example Clock", "the app that set it is still named")
        #expect(n["actions"]?.unwrapped == .strings(["stop", "Stop"]), "the app gave no secondary button: Stop alone")
        // Snoozed: an ordinary notification, as the app's.
        try app.call("Countdown", [.string(AlarmID.id(fromPath: path)!)])
        let snoozed = try #require(phosh.waitFor(pump: [h.client]) { $0.contains { $0.uint32("updates") >= 1 } }?.first)
        let after = Dictionary(snoozed["hints"]?.unwrapped.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
        #expect(after["desktop-entry"] == .string("org.example.Clock") && after["x-phosh-fb-profile"] == nil)
    }

    /// The shipped entry puts exactly alarmd's action keys on Phosh's lock screen.
    @Test func theShippedEntryNamesTheAlertsActions() throws {
        let text = try String(contentsOfFile: Products.sourceRoot + "/data/\(PhoneFeedback.appId).desktop", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let keys = try #require(lines.first { $0.hasPrefix("X-Phosh-Lockscreen-Actions=") }).dropFirst("X-Phosh-Lockscreen-Actions=".count)
        #expect(keys.split(separator: ";").map(String.init) == [AlertAction.stop.rawValue, AlertAction.secondary.rawValue])
        #expect(lines.contains("NoDisplay=true"))
        let override = try String(contentsOfFile: Products.sourceRoot + "/data/70_alarmd.gschema.override", encoding: .utf8)
        #expect(override.contains("'\(PhoneFeedback.appId)'") && override.contains("'org.gnome.clocks'"), "alarmd added, feedbackd's own kept")
    }
}
