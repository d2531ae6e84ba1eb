// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc

/// A sound server speaking the PulseAudio protocol with one null sink, private to a test.
public protocol SoundServer: AnyObject {
    var dir: TempDir { get }
    var sink: String { get }
    /// What a client (alarmd, parecord, pactl) needs to reach this server.
    var clientEnvironment: [String: String] { get }
    /// For test names and messages: "PulseAudio", "PipeWire".
    var name: String { get }
}

extension SoundServer {
    /// Runs `pactl` against this server.
    @discardableResult
    public func pactl(_ args: [String]) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env.merge(clientEnvironment) { _, b in b }
        let r = try runCommand("/usr/bin/pactl", args, environment: env)
        guard r.status == 0 else { throw TestFailure("pactl \(args.joined(separator: " ")): \(r.err)") }
        return r.out
    }

    /// The sink's mute and raw per-channel volumes, as `pactl` reports them (the user's view).
    public func sinkState(of name: String? = nil) throws -> (muted: Bool, volumes: [UInt32]) {
        let mute = try pactl(["get-sink-mute", name ?? sink])
        let volume = try pactl(["get-sink-volume", name ?? sink])
        // "Volume: front-left: 13107 /  20% / -41.94 dB,   front-right: 13107 /  20% / -41.94 dB"
        let first = volume.split(separator: "\n").first ?? ""
        let volumes = first.split(separator: ",").compactMap { part -> UInt32? in
            guard let colon = part.lastIndex(of: ":") else { return nil }
            return UInt32(part[part.index(after: colon)...].split(separator: "/").first?.trimmingCharacters(in: .whitespaces) ?? "")
        }
        return (mute.contains("yes"), volumes)
    }

    /// Makes `name` the server's default sink. WirePlumber refuses ("Not supported") until it has
    /// taken a new sink in, a moment after the sink is listed: retry until it holds.
    public func setDefaultSink(_ name: String) throws {
        let deadline = Date().addingTimeInterval(10)
        while true {
            if (try? pactl(["set-default-sink", name])) != nil, (try? pactl(["get-default-sink"]))?.contains(name) == true { return }
            if Date() > deadline { throw TestFailure("\(self.name): \(name) did not become the default sink") }
            usleep(50_000)
        }
    }

    /// Sets the sink as a user would.
    public func setSink(muted: Bool, percent: Int) throws {
        try pactl(["set-sink-volume", sink, "\(percent)%"])
        try pactl(["set-sink-mute", sink, muted ? "1" : "0"])
    }
}

/// A real PulseAudio server with one null sink, private to the test (its own socket, runtime dir and
/// home), so the built alarmd plays through a real audio path that the test can record.
public final class PulseServer: SoundServer {
    public let name = "PulseAudio"
    public let dir = TempDir("alarmd-pulse")
    public let sink = "alarmsink"
    private let process: ChildProcess
    public var socket: String { dir.path + "/native" }
    /// What a client (alarmd, parecord) needs to reach this server.
    public var clientEnvironment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    public init() throws {
        for sub in ["run", "home"] { try FileManager.default.createDirectory(atPath: dir.path + "/" + sub, withIntermediateDirectories: true) }
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.path + "/home"
        env["XDG_RUNTIME_DIR"] = dir.path + "/run"
        env.removeValue(forKey: "PULSE_SERVER")
        process = try ChildProcess("/usr/bin/pulseaudio", [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes",
            "-L", "module-null-sink sink_name=\(sink)",
            "-L", "module-native-protocol-unix socket=\(dir.path)/native auth-anonymous=1",
        ], environment: env, stderrPath: dir.path + "/pulseaudio.log")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) {
            if process.wait(timeout: 0.02) != nil || Date() > deadline {
                throw TestFailure("pulseaudio did not start: \(readText(dir.path + "/pulseaudio.log"))")
            }
        }
    }

    deinit { process.stop() }
}

/// PipeWire with WirePlumber and its pulse server, headless, with one null sink: the sound stack of
/// current desktops. It needs a session bus whose policy lets it receive (the test bus allows
/// eavesdropping), or WirePlumber links nothing and streams time out.
public final class PipeWireServer: SoundServer {
    public let name = "PipeWire"
    public let dir = TempDir("alarmd-pipewire")
    public let sink = "alarmsink"
    private let bus: TestBus
    private var processes: [ChildProcess] = []
    public var socket: String { dir.path + "/run/pulse/native" }
    public var clientEnvironment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    public init() throws {
        for sub in ["run", "home"] { try FileManager.default.createDirectory(atPath: dir.path + "/" + sub, withIntermediateDirectories: true) }
        chmod(dir.path + "/run", 0o700)
        bus = try TestBus()
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.path + "/home"
        env["XDG_RUNTIME_DIR"] = dir.path + "/run"
        env["XDG_CONFIG_HOME"] = dir.path + "/home/.config"
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        env.removeValue(forKey: "PULSE_SERVER")
        env.removeValue(forKey: "PIPEWIRE_REMOTE")
        func waitFor(_ what: String, _ ok: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(10)
            while !ok() {
                if Date() > deadline || processes.contains(where: { $0.wait(timeout: 0) != nil }) {
                    throw TestFailure("PipeWire: \(what) did not come up: \(readText(dir.path + "/pipewire.log"))")
                }
                usleep(20_000)
            }
        }
        processes.append(try ChildProcess("/usr/bin/pipewire", [], environment: env, stderrPath: dir.path + "/pipewire.log"))
        try waitFor("pipewire") { FileManager.default.fileExists(atPath: dir.path + "/run/pipewire-0") }
        processes.append(try ChildProcess("/usr/bin/wireplumber", [], environment: env, stderrPath: dir.path + "/wireplumber.log"))
        processes.append(try ChildProcess("/usr/bin/pipewire-pulse", [], environment: env, stderrPath: dir.path + "/pipewire-pulse.log"))
        try waitFor("pipewire-pulse") { FileManager.default.fileExists(atPath: socket) }
        try pactl(["load-module", "module-null-sink", "sink_name=\(sink)"])
        try waitFor("the null sink") { ((try? pactl(["list", "short", "sinks"])) ?? "").contains(sink) }
        try setDefaultSink(sink)
    }

    deinit {
        // The pulse server and the session manager before the graph they talk to.
        for p in processes.reversed() { p.stop() }
    }
}

/// Records the null sink's monitor as raw 16-bit mono at 8 kHz, and maps wall-clock times to samples.
public final class SinkRecorder {
    public static let rate = 8_000
    private let process: ChildProcess
    private let path: String
    /// The moment recording was known to run in real time, and how many bytes were there then.
    private var origin: (time: Date, bytes: Int)?

    /// `sink`: another sink of the server than its first one.
    public init(_ pulse: SoundServer, sink: String? = nil) throws {
        let sink = sink ?? pulse.sink
        path = pulse.dir.path + "/monitor-\(sink).raw"
        var env = ProcessInfo.processInfo.environment
        env.merge(pulse.clientEnvironment) { _, b in b }
        process = try ChildProcess("/usr/bin/parecord", ["--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=1",
                                                         "--latency-msec=20", "-d", "\(sink).monitor", path],
                                   environment: env, stderrPath: pulse.dir.path + "/parecord-\(sink).log")
        // The monitor delivers nothing for a while after connecting; wait until data flows.
        let deadline = Date().addingTimeInterval(15)
        var last = 0
        while Date() < deadline {
            usleep(100_000)
            let size = bytes()
            if size > 0 && size > last && last > 0 {
                origin = (Date(), size)
                return
            }
            last = size
        }
        throw TestFailure("parecord produced no data")
    }

    deinit { process.stop() }

    private func bytes() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// RMS amplitude (0…32767) of what the sink played between two wall-clock times.
    public func rms(from a: Date, to b: Date) -> Double {
        guard let origin, let data = FileManager.default.contents(atPath: path) else { return -1 }
        func offset(_ t: Date) -> Int {
            let samples = Int(t.timeIntervalSince(origin.time) * Double(Self.rate))
            return max(0, min(data.count / 2, origin.bytes / 2 + samples))
        }
        let (start, end) = (offset(a), offset(b))
        guard end > start else { return -1 }
        var sum = 0.0
        data.withUnsafeBytes { raw in
            let s = raw.bindMemory(to: Int16.self)
            for i in start..<end { let v = Double(Int16(littleEndian: s[i])); sum += v * v }
        }
        return (sum / Double(end - start)).squareRoot()
    }

    /// Waits until the recording covers `t` (plus the sink's latency).
    public func waitUntilRecorded(_ t: Date) {
        guard let origin else { return }
        let needed = origin.bytes + Int(t.timeIntervalSince(origin.time) * Double(Self.rate)) * 2
        let deadline = Date().addingTimeInterval(10)
        while bytes() < needed && Date() < deadline { usleep(50_000) }
    }
}

/// `alarmd-test-peer` in one of its roles (an app, logind) on a test bus.
public final class PeerProcess {
    private let process: ChildProcess
    public let client: Client
    public let name: String

    /// `environment`: the peer's whole environment (the test's own when nil); a systemd manager peer
    /// starts with it as its `Environment`.
    public init(address: String, role: [String], name: String, log: String, environment: [String: String]? = nil) throws {
        self.name = name
        process = try ChildProcess(Products.directory + "/alarmd-test-peer", ["--bus-address", address] + role,
                                   environment: environment, stderrPath: log)
        client = try Client(address: address)
        let deadline = Date().addingTimeInterval(10)
        while !client.nameHasOwner(name) {
            if Date() > deadline { throw TestFailure("test peer \(role) did not start") }
            usleep(10_000)
        }
    }

    deinit { process.stop() }
}
