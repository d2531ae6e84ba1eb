// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

func date(_ usec: UInt64) -> Date { Date(timeIntervalSince1970: Double(usec) / 1e6) }

extension Client {
    func fireTime(_ path: String) throws -> Date { date(uint64(try property(path, alarmInterface, "FireTimeUSec"))) }

    /// Waits for the `nth` PropertiesChanged that puts the alarm at `path` into `state`.
    func waitForState(_ path: String, _ state: String, nth: Int = 1, timeout: Double = 8) -> Bool {
        waitFor(timeout: timeout) { s in s.filter { $0.path == path && $0.changed["State"] == .string(state) }.count >= nth }
    }
}

/// Silence is an RMS of (practically) zero; the alarm sounds play at thousands.
let audible = 300.0
let silent = 5.0

/// The real audio path: the built alarmd plays through a PulseAudio null sink whose monitor is recorded.
@Suite(.serialized) struct RingingTests {
    @Test func soundWhileAlertingSilenceAfterStopAgainAfterSnooze() throws {
        let pulse = try PulseServer()
        let rec = try SinkRecorder(pulse)
        let h = try Harness(environment: pulse.clientEnvironment)
        let c = h.client!
        let path = try c.schedule([("title", .string("Tea")), ("duration", .uint32(1)), ("sound", .string("beacon")), ("post_alert", .uint32(2))])
        let id = AlarmID.id(fromPath: path)!
        #expect(c.waitForState(path, "alerting"))
        let firstAlert = try c.fireTime(path)
        c.pump(2.0)
        try c.call("Countdown", [.string(id)])                     // snooze for 2 s
        let snoozedAt = Date()
        #expect(c.waitForState(path, "alerting", nth: 2, timeout: 4))
        let secondAlert = try c.fireTime(path)
        c.pump(2.0)
        try c.call("Stop", [.string(id)])
        let stoppedAt = Date()
        c.pump(1.5)
        rec.waitUntilRecorded(Date())

        let ringing1 = rec.rms(from: firstAlert.addingTimeInterval(0.3), to: snoozedAt.addingTimeInterval(-0.2))
        let snoozed = rec.rms(from: snoozedAt.addingTimeInterval(0.3), to: secondAlert.addingTimeInterval(-0.2))
        let ringing2 = rec.rms(from: secondAlert.addingTimeInterval(0.3), to: stoppedAt.addingTimeInterval(-0.2))
        let after = rec.rms(from: stoppedAt.addingTimeInterval(0.3), to: stoppedAt.addingTimeInterval(1.3))
        print("RMS: ringing \(ringing1), snoozed \(snoozed), ringing again \(ringing2), after stop \(after)")
        #expect(ringing1 > audible, "sound while alerting")
        #expect(snoozed < silent, "silence while snoozed")
        #expect(ringing2 > audible, "sound again after the snooze ends")
        #expect(after < silent, "silence after Stop")
        #expect(h.daemon.log.contains("loop 2 of file \(Products.sourceRoot)/sounds/beacon.oga"), "the sound loops")
    }

    @Test func concurrentAlarmsRingAndStopIndependently() throws {
        let pulse = try PulseServer()
        let rec = try SinkRecorder(pulse)
        let h = try Harness(environment: pulse.clientEnvironment)
        let c = h.client!
        let a = try c.schedule([("title", .string("A")), ("duration", .uint32(1)), ("sound", .string("beacon"))])
        let b = try c.schedule([("title", .string("B")), ("duration", .uint32(1)), ("sound", .string("chime"))])
        #expect(c.waitForState(a, "alerting") && c.waitForState(b, "alerting"))
        c.pump(1.0)
        try c.call("Stop", [.string(AlarmID.id(fromPath: a)!)])
        let oneStopped = Date()
        c.pump(2.2)
        try c.call("Cancel", [.string(AlarmID.id(fromPath: b)!)])
        let bothStopped = Date()
        c.pump(1.5)
        rec.waitUntilRecorded(Date())
        let stillRinging = rec.rms(from: oneStopped.addingTimeInterval(0.3), to: bothStopped.addingTimeInterval(-0.2))
        let after = rec.rms(from: bothStopped.addingTimeInterval(0.3), to: bothStopped.addingTimeInterval(1.3))
        print("RMS: one of two stopped \(stillRinging), both stopped \(after)")
        #expect(stillRinging > audible, "the other alarm keeps ringing")
        #expect(after < silent)
    }

    @Test func volumeRampRisesMonotonically() throws {
        let pulse = try PulseServer()
        let rec = try SinkRecorder(pulse)
        let h = try Harness(environment: pulse.clientEnvironment)
        let c = h.client!
        let path = try c.schedule([("title", .string("Gentle")), ("duration", .uint32(1)), ("sound", .string("beacon")),
                                   ("volume_ramp", .uint32(4))])
        #expect(try c.property(path, alarmInterface, "VolumeRamp") == .uint32(4))
        #expect(c.waitForState(path, "alerting"))
        let start = try c.fireTime(path)
        c.pump(6.0)
        try c.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        rec.waitUntilRecorded(Date())
        let id = AlarmID.id(fromPath: path)!
        let volumes = h.daemon.log.split(separator: "\n").filter { $0.contains("ring \(id): loop") }.compactMap { line -> Double? in
            guard let at = line.range(of: " at ") else { return nil }
            return Double(line[at.upperBound...].split(separator: " ")[0])
        }
        print("requested volumes (dB): \(volumes)")
        #expect(volumes.count >= 5)
        #expect(volumes.first == VolumeRamp.startDecibels)
        #expect(zip(volumes, volumes.dropFirst()).allSatisfy { $0 <= $1 }, "the requested volume never falls")
        #expect(volumes.last == 0, "full volume once the ramp is over")
        let early = rec.rms(from: start.addingTimeInterval(0.1), to: start.addingTimeInterval(1.0))
        let late = rec.rms(from: start.addingTimeInterval(4.5), to: start.addingTimeInterval(5.6))
        print("RMS: first loop \(early), after the ramp \(late)")
        #expect(late > audible && early < late / 4, "quiet at first, full at the end")
    }

    @Test func missingFileStillAlertsWithTheErrorVisible() throws {
        let h = try Harness()
        let c = h.client!
        let path = try c.schedule([("title", .string("Lost")), ("duration", .uint32(1)), ("sound", .string("/nonexistent/ring.oga"))])
        #expect(c.waitForState(path, "alerting"))
        #expect(c.waitFor { s in s.contains { $0.path == path && ($0.changed["SoundError"]?.stringValue ?? "").contains("/nonexistent/ring.oga") } })
        #expect(try c.property(path, alarmInterface, "State") == .string("alerting"))
        #expect(h.daemon.log.contains("alerting without sound"))
        try c.call("Countdown", [.string(AlarmID.id(fromPath: path)!)])
        #expect(try c.property(path, alarmInterface, "SoundError") == .string(""), "the error belongs to the alert that had it")
    }

    @Test func noSoundServerStillAlerts() throws {
        let h = try Harness()  // PULSE_SERVER points nowhere
        let c = h.client!
        let path = try c.schedule([("title", .string("Quiet")), ("duration", .uint32(1))])
        #expect(c.waitForState(path, "alerting"))
        #expect(c.waitFor { s in s.contains { $0.path == path && !($0.changed["SoundError"]?.stringValue ?? "").isEmpty } })
        let error = try c.property(path, alarmInterface, "SoundError").stringValue ?? ""
        print("SoundError without a sound server: \(error)")
        #expect(error.contains("alarm-clock-elapsed"))
    }

    /// libcanberra and libpulse, and all they bring along, cost an idle alarmd memory for code it uses only
    /// while something rings: alarmd opens them when the first alarm rings, and keeps them from then on.
    @Test func theSoundLibrariesAreLoadedWhenTheFirstAlarmRings() throws {
        let pulse = try PulseServer()
        let rec = try SinkRecorder(pulse)
        let h = try Harness(environment: pulse.clientEnvironment)
        let c = h.client!
        let libraries = ["libcanberra.so", "libcanberra-pulse.so", "libpulse.so", "libpulsecommon", "libsndfile.so"]
        let maps = "/proc/\(h.daemon.process.pid)/maps"
        func mapped() -> [String] {
            let text = readText(maps)
            return libraries.filter { text.contains("/" + $0) }
        }
        c.pump(0.5)
        #expect(readText(maps).contains("/libsystemd.so"), "alarmd's maps can be read")
        #expect(mapped().isEmpty, "an idle alarmd has mapped \(mapped())")

        let path = try c.schedule([("title", .string("Tea")), ("duration", .uint32(1)), ("sound", .string("beacon"))])
        #expect(c.waitForState(path, "alerting"))
        let alertAt = try c.fireTime(path)
        c.pump(max(0, 2.0 - Date().timeIntervalSince(alertAt)))
        let whileRinging = mapped()
        try c.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        let stoppedAt = Date()
        c.pump(0.5)
        rec.waitUntilRecorded(Date())
        let ringing = rec.rms(from: alertAt.addingTimeInterval(0.3), to: stoppedAt.addingTimeInterval(-0.2))
        print("RMS while the first alarm rang: \(ringing); mapped then: \(whileRinging)")
        #expect(whileRinging == libraries, "loaded for the first ring, canberra's pulse backend too")
        #expect(ringing > audible, "heard through the real sound server")
        #expect(h.daemon.log.contains("loop 1 of file \(Products.sourceRoot)/sounds/beacon.oga"))
        #expect(h.daemon.log.contains("output: sink 'alarmsink'"), "the output guard talked to the server: \(h.daemon.log)")
        #expect(mapped() == libraries, "kept once loaded, as a linked library would be")
    }

    /// Where libcanberra and libpulse cannot be loaded (here hidden from alarmd in a mount namespace of
    /// its own), alarms alert all the same, the sound error says why, and the log says it once.
    @Test(.enabled(if: geteuid() == 0, "needs root for a mount namespace")) func withoutTheSoundLibrariesAlarmsStillAlert() throws {
        let cache = try runCommand("/sbin/ldconfig", ["-p"]).out.split(separator: "\n")
        let files = try ["libcanberra.so.0", "libpulse.so.0"].map { soname in
            let line = try #require(cache.first { $0.contains(soname + " (") && $0.contains("=> ") }, "\(soname) in ld.so.cache")
            return String(line[line.range(of: "=> ")!.upperBound...])
        }
        let hide = files.map { "mount --bind /dev/null '\($0)'" }.joined(separator: " && ")
        let h = try Harness(launcher: ["/usr/bin/unshare", "--mount", "--propagation", "private",
                                       "/bin/sh", "-c", hide + " && exec \"$@\"", "sh"])
        let c = h.client!
        let a = try c.schedule([("title", .string("One")), ("duration", .uint32(1))])
        #expect(c.waitForState(a, "alerting"))
        #expect(c.waitFor { s in s.contains { $0.path == a && !($0.changed["SoundError"]?.stringValue ?? "").isEmpty } })
        let error = try c.property(a, alarmInterface, "SoundError").stringValue ?? ""
        print("SoundError without libcanberra: \(error)")
        #expect(error.hasPrefix("libcanberra is not available (") && error.contains("libcanberra.so.0"), "\(error)")
        #expect(h.daemon.logs("output: no sound server (") && h.daemon.log.contains("libpulse.so.0"), "\(h.daemon.log)")
        try c.call("Stop", [.string(AlarmID.id(fromPath: a)!)])
        let b = try c.schedule([("title", .string("Two")), ("duration", .uint32(1))])
        #expect(c.waitForState(b, "alerting"), "alarmd still alerts")
        #expect(c.waitFor { s in s.contains { $0.path == b && !($0.changed["SoundError"]?.stringValue ?? "").isEmpty } })
        #expect(try c.property(b, alarmInterface, "State") == .string("alerting"), "alarmd still answers")
        #expect(h.daemon.process.wait(timeout: 0.1) == nil, "alarmd runs")
        let log = h.daemon.log
        #expect(log.components(separatedBy: "libcanberra: cannot load it").count == 2, "said once: \(log)")
        #expect(log.components(separatedBy: "output: no sound server").count == 2, "said once: \(log)")
    }

    @Test func ringTimeoutStopsTheSoundAndReportsAMissedAlarm() throws {
        let pulse = try PulseServer()
        let rec = try SinkRecorder(pulse)
        let h = try Harness(config: "[ringing]\nring_timeout = 2\n", notifications: true, environment: pulse.clientEnvironment)
        let c = h.client!
        let path = try c.schedule([("title", .string("Bus")), ("duration", .uint32(1)), ("sound", .string("beacon"))])
        let id = AlarmID.id(fromPath: path)!
        #expect(c.waitForState(path, "alerting"))
        let alertAt = try c.fireTime(path)
        #expect(c.waitFor(timeout: 5) { $0.contains { $0.member == "AlarmRemoved" && $0.args == [.string(id), .string(""), .string("timeout")] } })
        let endedAt = Date()
        #expect(endedAt.timeIntervalSince(alertAt) >= 1.9)
        c.pump(1.5)
        rec.waitUntilRecorded(Date())
        #expect(rec.rms(from: alertAt.addingTimeInterval(0.3), to: alertAt.addingTimeInterval(1.5)) > audible)
        #expect(rec.rms(from: endedAt.addingTimeInterval(0.3), to: endedAt.addingTimeInterval(1.3)) < silent, "the sound stops")
        let shown = try #require(h.notifier!.waitFor { n in n.contains { $0.string("summary") == "Missed alarm" } })
        let alert = try #require(shown.first { $0.string("summary") == "Bus" })
        #expect(alert.uint32("closed_reason") == 3, "the alert notification is withdrawn")
        let missed = try #require(shown.first { $0.string("summary") == "Missed alarm" })
        #expect(missed.string("body").contains("Bus") && missed.uint32("closed_reason") == 0, "the missed-alarm notification stays")
    }
}
