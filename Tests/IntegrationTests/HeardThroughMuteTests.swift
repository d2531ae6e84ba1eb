// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// A muted output or one at 0 % silences an alarm that plays at 100 %: the sink governs. alarmd
/// unmutes and raises the sink while anything rings and puts it back afterwards. Measured where a
/// person would hear it — the sink's monitor — on PulseAudio and on PipeWire's pulse server.
@Suite(.serialized) struct HeardThroughMuteTests {
    static let servers = ["PulseAudio", "PipeWire"]

    func server(_ name: String) throws -> SoundServer {
        name == "PipeWire" ? try PipeWireServer() : try PulseServer()
    }

    typealias SinkState = (muted: Bool, volumes: [UInt32])

    static func same(_ a: SinkState, _ b: SinkState) -> Bool { a.muted == b.muted && a.volumes == b.volumes }

    /// Polls the sink until `condition` holds (alarmd's changes arrive asynchronously), pumping the client.
    func waitForSink(_ s: SoundServer, _ c: Client, timeout: Double = 5, _ condition: (SinkState) -> Bool) -> SinkState? {
        var last: SinkState?
        let ok = eventually(timeout: timeout, pumping: c) {
            last = try? s.sinkState()
            return last.map(condition) ?? false
        }
        return ok ? last : nil
    }

    /// What alarmd raises a quiet sink to by default (70 %), on both channels of the null sink.
    static let raised: [UInt32] = [45_875, 45_875]
    static func isRaised(_ st: SinkState) -> Bool {
        !st.muted && st.volumes.count == 2 && st.volumes.allSatisfy { $0 >= 45_875 - 328 }
    }

    func ringBeacon(_ c: Client, title: String = "Wake") throws -> (path: String, id: String) {
        let path = try c.schedule([("title", .string(title)), ("duration", .uint32(1)), ("sound", .string("beacon")), ("post_alert", .uint32(30))])
        return (path, AlarmID.id(fromPath: path)!)
    }

    @Test(arguments: servers) func aMutedSinkRingsAudiblyAndIsPutBackAfterStop(_ serverName: String) throws {
        let s = try server(serverName)
        try s.setSink(muted: true, percent: 20)
        let before = try s.sinkState()
        #expect(before.muted && before.volumes == [13_107, 13_107])
        let rec = try SinkRecorder(s)
        let h = try Harness(environment: s.clientEnvironment)
        let c = h.client!
        let (path, id) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        let alertAt = try c.fireTime(path)
        let during = waitForSink(s, c, Self.isRaised)
        #expect(during != nil, "unmuted and raised while ringing: \(String(describing: try? s.sinkState()))")
        c.pump(max(0, 2.5 - Date().timeIntervalSince(alertAt)))
        try c.call("Stop", [.string(id)])
        let stoppedAt = Date()
        let after = waitForSink(s, c) { Self.same($0, before) }
        #expect(after != nil, "exactly as before after Stop: \(String(describing: try? s.sinkState())) vs \(before)")
        c.pump(1.3)
        rec.waitUntilRecorded(Date())
        let ringing = rec.rms(from: alertAt.addingTimeInterval(0.5), to: stoppedAt.addingTimeInterval(-0.2))
        let silenceAfter = rec.rms(from: stoppedAt.addingTimeInterval(0.3), to: stoppedAt.addingTimeInterval(1.2))
        print("\(serverName): sink muted at 20 %: RMS while ringing (overridden) \(ringing), after Stop \(silenceAfter)")
        #expect(ringing > audible, "heard through the mute")
        #expect(silenceAfter < silent, "silent after Stop (muted again)")
        #expect(h.daemon.log.contains("output: sink 'alarmsink' muted at 20 %/20 % → unmuted at 70 %/70 % while ringing"), "\(h.daemon.log)")
    }

    @Test(arguments: servers) func aSinkAtZeroRingsAudiblyAndIsPutBackAfterSnooze(_ serverName: String) throws {
        let s = try server(serverName)
        try s.setSink(muted: false, percent: 0)
        let before = try s.sinkState()
        #expect(!before.muted && before.volumes == [0, 0])
        let rec = try SinkRecorder(s)
        let h = try Harness(environment: s.clientEnvironment)
        let c = h.client!
        let (path, id) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        let alertAt = try c.fireTime(path)
        #expect(waitForSink(s, c, Self.isRaised) != nil, "raised while ringing")
        c.pump(max(0, 2.5 - Date().timeIntervalSince(alertAt)))
        try c.call("Countdown", [.string(id)])
        let snoozedAt = Date()
        #expect(c.waitForState(path, "countdown"))
        #expect(waitForSink(s, c) { Self.same($0, before) } != nil, "at 0 % again while snoozed: \(String(describing: try? s.sinkState()))")
        c.pump(1.3)
        rec.waitUntilRecorded(Date())
        let ringing = rec.rms(from: alertAt.addingTimeInterval(0.5), to: snoozedAt.addingTimeInterval(-0.2))
        print("\(serverName): sink at 0 %: RMS while ringing (overridden) \(ringing)")
        #expect(ringing > audible, "heard although the sink was at 0 %")
        #expect(try c.property(path, alarmInterface, "State") == .string("countdown"))
    }

    @Test(arguments: servers) func theRingTimeoutPutsTheSinkBack(_ serverName: String) throws {
        let s = try server(serverName)
        try s.setSink(muted: true, percent: 35)
        let before = try s.sinkState()
        let h = try Harness(config: "[ringing]\nring_timeout = 2\n", environment: s.clientEnvironment)
        let c = h.client!
        let (path, id) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        #expect(waitForSink(s, c, Self.isRaised) != nil, "raised while ringing")
        #expect(c.waitFor(timeout: 6) { $0.contains { $0.member == "AlarmRemoved" && $0.args == [.string(id), .string(""), .string("timeout")] } })
        #expect(waitForSink(s, c) { Self.same($0, before) } != nil, "as before after the ring timeout: \(String(describing: try? s.sinkState()))")
    }

    @Test(arguments: servers) func aCrashWhileRingingIsRepairedAtTheNextStart(_ serverName: String) throws {
        let s = try server(serverName)
        try s.setSink(muted: true, percent: 20)
        let before = try s.sinkState()
        let h = try Harness(environment: s.clientEnvironment)
        var c = h.client!
        let (path, id) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        #expect(waitForSink(s, c, Self.isRaised) != nil, "raised while ringing")
        try h.restart(kill9: true)
        c = h.client!
        // The alarm is still alerting and rings again; the sink went back to the user first.
        #expect(h.daemon.logs("output: alarmd ended while ringing; putting sink 'alarmsink' back"))
        #expect(h.daemon.logs("output: sink 'alarmsink' put back: unmuted at 70 %/70 % → muted at 20 %/20 %"), "\(h.daemon.log)")
        #expect(h.daemon.logs("output: sink 'alarmsink' muted at 20 %/20 % → unmuted at 70 %/70 % while ringing"),
                "held anew, from the user's values")
        #expect(try c.property(path, alarmInterface, "State") == .string("alerting"))
        try c.call("Stop", [.string(id)])
        #expect(waitForSink(s, c) { Self.same($0, before) } != nil, "as before after kill -9, restart and Stop: \(String(describing: try? s.sinkState()))")
    }

    @Test(arguments: servers) func sigtermWhileRingingPutsTheSinkBack(_ serverName: String) throws {
        let s = try server(serverName)
        try s.setSink(muted: false, percent: 5)
        let before = try s.sinkState()
        let h = try Harness(environment: s.clientEnvironment)
        let c = h.client!
        let (path, _) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        #expect(waitForSink(s, c, Self.isRaised) != nil, "raised while ringing")
        h.daemon.process.stop()
        let after = try s.sinkState()
        #expect(Self.same(after, before), "put back before alarmd exited: \(after) vs \(before)")
        #expect(h.daemon.log.contains("output: sink 'alarmsink' put back"))
    }

    @Test(arguments: servers) func whatTheUserChangesWhileItRingsStands(_ serverName: String) throws {
        let s = try server(serverName)
        try s.setSink(muted: true, percent: 20)
        let h = try Harness(environment: s.clientEnvironment)
        let c = h.client!
        let (path, id) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        #expect(waitForSink(s, c, Self.isRaised) != nil, "raised while ringing")
        try s.pactl(["set-sink-volume", s.sink, "40%"])
        #expect(h.daemon.logs("changed by the user while ringing"), "alarmd saw the user's change")
        try c.call("Stop", [.string(id)])
        #expect(h.daemon.logs("keeping the user's volume"))
        // The volume is the user's (40 %); the mute, which they left alone, is put back.
        let after = waitForSink(s, c) { $0.muted }
        #expect(after.map { $0.volumes == [26_214, 26_214] } == true, "the user's 40 % stays: \(String(describing: after))")

        // Muting it themselves while it rings: muted it stays, and the volume alarmd raised goes back.
        try s.setSink(muted: false, percent: 0)
        let (path2, id2) = try ringBeacon(c, title: "Again")
        #expect(c.waitForState(path2, "alerting"))
        #expect(waitForSink(s, c, Self.isRaised) != nil, "raised while ringing")
        try s.pactl(["set-sink-mute", s.sink, "1"])
        #expect(eventually(timeout: 5, pumping: c) {
            h.daemon.log.components(separatedBy: "changed by the user while ringing").count == 3
        }, "alarmd saw the second change")
        try c.call("Stop", [.string(id2)])
        let end = waitForSink(s, c) { $0.muted && $0.volumes == [0, 0] }
        #expect(end != nil, "muted by the user, volume back to 0 %: \(String(describing: try? s.sinkState()))")
        _ = path
    }

    @Test(arguments: servers) func switchedOffAMutedSinkStaysMutedAndSilent(_ serverName: String) throws {
        let s = try server(serverName)
        try s.setSink(muted: true, percent: 20)
        let before = try s.sinkState()
        let rec = try SinkRecorder(s)
        let h = try Harness(config: "[ringing]\noverride_output_volume = false\n", environment: s.clientEnvironment)
        let c = h.client!
        let (path, id) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        let alertAt = try c.fireTime(path)
        c.pump(max(0, 2.5 - Date().timeIntervalSince(alertAt)))
        #expect(Self.same(try s.sinkState(), before), "left muted")
        #expect(try c.property(path, alarmInterface, "State") == .string("alerting"))
        // The positive control, in the same ring: the user does what alarmd would have done (70 %,
        // unmuted), and the alarm is heard.
        try s.setSink(muted: false, percent: 70)
        let unmutedAt = Date()
        c.pump(1.5)
        try c.call("Stop", [.string(id)])
        let stoppedAt = Date()
        rec.waitUntilRecorded(stoppedAt)
        let muted = rec.rms(from: alertAt.addingTimeInterval(0.5), to: unmutedAt.addingTimeInterval(-0.2))
        let control = rec.rms(from: unmutedAt.addingTimeInterval(0.3), to: stoppedAt.addingTimeInterval(-0.1))
        print("\(serverName): override off, sink muted at 20 %: RMS while ringing \(muted); unmuted at 70 % by the user \(control)")
        #expect(muted < silent, "no override: the mute holds")
        #expect(control > audible, "the alarm was ringing all along")
        #expect(h.daemon.log.contains("override_output_volume is off"))
        #expect(!h.daemon.log.contains("output: sink"), "alarmd never touched the sink")
    }

    @Test(arguments: servers) func severalAlarmsShareOneOverrideUntilTheLastStops(_ serverName: String) throws {
        let s = try server(serverName)
        try s.setSink(muted: true, percent: 20)
        let before = try s.sinkState()
        let h = try Harness(environment: s.clientEnvironment)
        let c = h.client!
        let (a, aid) = try ringBeacon(c, title: "A")
        let (b, bid) = try ringBeacon(c, title: "B")
        #expect(c.waitForState(a, "alerting") && c.waitForState(b, "alerting"))
        #expect(waitForSink(s, c, Self.isRaised) != nil, "raised while ringing")
        try c.call("Stop", [.string(aid)])
        c.pump(1.0)
        let oneLeft = try s.sinkState()
        #expect(Self.isRaised(oneLeft), "still raised while B rings: \(oneLeft)")
        #expect(try c.property(b, alarmInterface, "State") == .string("alerting"))
        try c.call("Stop", [.string(bid)])
        #expect(waitForSink(s, c) { Self.same($0, before) } != nil, "as before once the last stopped: \(String(describing: try? s.sinkState()))")
        #expect(h.daemon.log.components(separatedBy: "→ unmuted at 70 %/70 % while ringing").count == 2, "one override for both")
    }

    /// The alarm is heard where its stream plays: here not the server's default sink (alarmd's
    /// libpulse client is pointed elsewhere by PULSE_SINK, as a user's client.conf may do).
    @Test(arguments: servers) func theSinkAlarmdsStreamPlaysOnIsTheOneRaised(_ serverName: String) throws {
        let s = try server(serverName)
        try s.pactl(["load-module", "module-null-sink", "sink_name=bedroom"])
        #expect(eventually { ((try? s.pactl(["list", "short", "sinks"])) ?? "").contains("bedroom") })
        try s.setDefaultSink(s.sink)
        try s.pactl(["set-sink-mute", "bedroom", "1"])
        try s.pactl(["set-sink-volume", "bedroom", "20%"])
        try s.setSink(muted: false, percent: 100)
        let rec = try SinkRecorder(s, sink: "bedroom")
        var env = s.clientEnvironment
        env["PULSE_SINK"] = "bedroom"
        let h = try Harness(environment: env)
        let c = h.client!
        let (path, id) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        let alertAt = try c.fireTime(path)
        let raised = eventually(timeout: 5, pumping: c) {
            let out = (try? s.pactl(["get-sink-mute", "bedroom"])) ?? ""
            return out.contains("no")
        }
        #expect(raised, "the stream's sink is unmuted: \(h.daemon.log)")
        c.pump(max(0, 2.5 - Date().timeIntervalSince(alertAt)))
        try c.call("Stop", [.string(id)])
        let stoppedAt = Date()
        #expect(eventually(timeout: 5, pumping: c) { ((try? s.pactl(["get-sink-mute", "bedroom"])) ?? "").contains("yes") }, "muted again")
        #expect(try s.pactl(["get-sink-volume", "bedroom"]).contains("13107"), "at 20 % again")
        rec.waitUntilRecorded(stoppedAt)
        let ringing = rec.rms(from: alertAt.addingTimeInterval(0.7), to: stoppedAt.addingTimeInterval(-0.2))
        print("\(serverName): stream on a muted non-default sink: RMS there while ringing \(ringing)\n"
              + h.daemon.log.split(separator: "\n").filter { $0.contains("output:") }.joined(separator: "\n"))
        #expect(ringing > audible, "heard on the sink the stream plays on")
        let main = try s.sinkState()
        #expect(!main.muted && main.volumes == [65_536, 65_536], "the default sink was left alone")
    }

    /// The user moves the ringing stream to another output (pavucontrol, GNOME's sound settings):
    /// alarmd follows it, raising the new output and putting the old one back.
    /// PulseAudio only for now: on PipeWire, in a fresh-clone run under AddressSanitizer, alarmd once
    /// never saw its stream moved to the other sink (no "plays on sink" line; the old sink was held until
    /// Stop), while the same case passed in every plain run. Until that is understood, PipeWire's move is
    /// not claimed (docs/API.md, Ringing) and not tested; the cases the issue asks for run on both servers.
    @Test(arguments: ["PulseAudio"]) func movingTheStreamMovesTheOverride(_ serverName: String) throws {
        let s = try server(serverName)
        try s.pactl(["load-module", "module-null-sink", "sink_name=bedroom"])
        #expect(eventually { ((try? s.pactl(["list", "short", "sinks"])) ?? "").contains("bedroom") })
        try s.setDefaultSink(s.sink)
        try s.setSink(muted: true, percent: 20)
        try s.pactl(["set-sink-mute", "bedroom", "1"])
        try s.pactl(["set-sink-volume", "bedroom", "10%"])
        let before = try s.sinkState()
        let rec = try SinkRecorder(s, sink: "bedroom")
        let h = try Harness(environment: s.clientEnvironment)
        let c = h.client!
        // One stream, long enough to be moved while it plays (alarmd's own sounds last 1–2 s; the
        // theme's 6 s sound is out of phase between its channels, and a mono recording cancels it).
        let tone = h.state.path + "/tone.wav"
        try Self.writeTone(tone, seconds: 6)
        let path = try c.schedule([("title", .string("Long")), ("duration", .uint32(1)), ("sound", .string(tone))])
        let id = AlarmID.id(fromPath: path)!
        #expect(c.waitForState(path, "alerting"))
        #expect(waitForSink(s, c, Self.isRaised) != nil, "the default sink is raised first")
        var stream = ""
        #expect(eventually(timeout: 5, pumping: c) {
            stream = ((try? s.pactl(["list", "short", "sink-inputs"])) ?? "").split(separator: "\n").first?
                .split(separator: "\t").first.map(String.init) ?? ""
            return !stream.isEmpty
        }, "alarmd's stream is there")
        try s.pactl(["move-sink-input", stream, "bedroom"])
        let movedAt = Date()
        #expect(eventually(timeout: 5, pumping: c) { ((try? s.pactl(["get-sink-mute", "bedroom"])) ?? "").contains("no") },
                "the new output is unmuted: \(h.daemon.log)")
        #expect(waitForSink(s, c) { Self.same($0, before) } != nil, "the old one is put back: \(String(describing: try? s.sinkState()))")
        c.pump(max(0, 2 - Date().timeIntervalSince(movedAt)))
        try c.call("Stop", [.string(id)])
        let stoppedAt = Date()
        #expect(eventually(timeout: 5, pumping: c) { ((try? s.pactl(["get-sink-mute", "bedroom"])) ?? "").contains("yes") },
                "the new output muted again after Stop")
        let bedroom = try s.sinkState(of: "bedroom")
        #expect(bedroom.muted && bedroom.volumes == [6553, 6553], "at 10 % again: \(bedroom)")
        let main = try s.sinkState()
        #expect(Self.same(main, before), "\(main)")
        rec.waitUntilRecorded(stoppedAt)
        let there = rec.rms(from: movedAt.addingTimeInterval(0.7), to: stoppedAt.addingTimeInterval(-0.2))
        print("\(serverName): stream moved to a muted sink: RMS there \(there)\n"
              + h.daemon.log.split(separator: "\n").filter { $0.contains("output:") }.joined(separator: "\n"))
        #expect(there > audible, "heard where the stream went")
    }

    /// A 440 Hz sine, 16-bit mono WAV at half scale.
    static func writeTone(_ path: String, seconds: Int) throws {
        let rate = 16_000, count = rate * seconds
        var d = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("RIFF".utf8)); u32(36 + count * 2); d.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
        d.append(contentsOf: Array("data".utf8)); u32(count * 2)
        for i in 0..<count { u16(Int(UInt16(bitPattern: Int16(16_000 * sin(2 * Double.pi * 440 * Double(i) / Double(rate)))))) }
        try d.write(to: URL(fileURLWithPath: path))
    }

    @Test func theSoundServerGoingAwayWhileRingingIsSurvived() throws {
        var pulse: PulseServer? = try PulseServer()
        try pulse!.setSink(muted: true, percent: 20)
        let h = try Harness(environment: pulse!.clientEnvironment)
        let c = h.client!
        let (path, id) = try ringBeacon(c)
        #expect(c.waitForState(path, "alerting"))
        #expect(h.daemon.logs("while ringing"), "held the sink")
        pulse = nil
        #expect(h.daemon.logs("output: the sound server went away"))
        #expect(try c.property(path, alarmInterface, "State") == .string("alerting"))
        try c.call("Stop", [.string(id)])
        #expect(c.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.first == .string(id) } }, "Stop still works")
        let (again, _) = try ringBeacon(c, title: "Again")
        #expect(c.waitForState(again, "alerting"), "alarmd still serves and alerts")
    }

    @Test func withoutASoundServerAlarmsStillAlertAndItIsSaidOnce() throws {
        let h = try Harness()  // PULSE_SERVER points nowhere
        let c = h.client!
        let (a, aid) = try ringBeacon(c, title: "One")
        #expect(c.waitForState(a, "alerting"))
        #expect(h.daemon.logs("output: no sound server"))
        try c.call("Stop", [.string(aid)])
        let (b, _) = try ringBeacon(c, title: "Two")
        #expect(c.waitForState(b, "alerting"))
        c.pump(0.5)
        #expect(try c.property(b, alarmInterface, "State") == .string("alerting"))
        #expect(h.daemon.log.components(separatedBy: "output: no sound server").count == 2, "said once: \(h.daemon.log)")
    }
}
