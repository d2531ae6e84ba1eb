// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus

/// One private bus, one state directory, the real daemon and a subscribed client.
public final class Harness {
    public let bus: TestBus
    public let state = TempDir("alarmd-state")
    /// The bus's activation file for alarmd's name, whose program never takes the name: a call to
    /// alarmd while it is down waits, as under D-Bus activation, until the daemon the test starts
    /// takes the name, and reaches it first.
    private let services = TempDir("alarmd-services")
    public private(set) var daemon: DaemonProcess!
    public private(set) var client: Client!

    private var extraArgs: [String] = []
    private var environment: [String: String] = [:]
    private var launcher: [String] = []
    /// The test notification server, when the test asked for one.
    public private(set) var notifier: NotificationPeer?

    /// `config`: the text of alarmd.conf; `notifications`: start the test notification server first;
    /// `desktopEntries`: app id → desktop file text, found through XDG_DATA_HOME; `launcher`: see DaemonProcess.
    public init(config: String? = nil, notifications: Bool = false, desktopEntries: [String: String] = [:],
         extraArgs moreArgs: [String] = [], environment env: [String: String] = [:], launcher: [String] = []) throws {
        try "[D-BUS Service]\nName=\(managerName)\nExec=/bin/sleep 60\n"
            .write(toFile: services.path + "/\(managerName).service", atomically: true, encoding: .utf8)
        bus = try TestBus(serviceDirectory: services.path)
        self.launcher = launcher
        extraArgs = moreArgs + ["--sounds-dir", Products.sourceRoot + "/sounds"]
        environment = env
        if let config {
            try config.write(toFile: state.path + "/alarmd.conf", atomically: true, encoding: .utf8)
            extraArgs += ["--config", state.path + "/alarmd.conf"]
        }
        if !desktopEntries.isEmpty {
            let apps = state.path + "/data/applications"
            try FileManager.default.createDirectory(atPath: apps, withIntermediateDirectories: true)
            for (app, text) in desktopEntries { try text.write(toFile: "\(apps)/\(app).desktop", atomically: true, encoding: .utf8) }
            environment["XDG_DATA_HOME"] = state.path + "/data"
        }
        if notifications { notifier = try NotificationPeer(bus: bus) }
        try start()
    }

    /// Starts the test notification server, or a new one in place of the running one (its
    /// notifications go with it, as when a desktop's notification daemon restarts).
    public func startNotifier() throws {
        notifier = nil
        _ = eventually { !client.nameHasOwner("org.freedesktop.Notifications") }
        notifier = try NotificationPeer(bus: bus)
    }

    /// The client watches before the daemon starts, as an applet whose `Watch` starts alarmd through
    /// D-Bus activation: it hears what the daemon signals about its own start-up (alarms missed or
    /// due while it was down).
    public func start() throws {
        client = try Client(address: bus.address)
        try client.listen()
        let watch = try client.callAsync("Watch", timeoutSeconds: 60)
        daemon = try DaemonProcess(bus: bus, stateDir: state.path + "/state", extraArgs: extraArgs, environment: environment,
                                   launcher: launcher)
        // A test whose own process alarmd cannot identify (an uninspectable root) sees nothing anyway.
        client.wait(for: watch, timeout: 10)
    }

    /// Ends the daemon (SIGKILL or SIGTERM), waits until the bus has forgotten it, and starts a new one.
    public func restart(kill9: Bool, dropping dropped: [String] = []) throws {
        if kill9 { daemon.kill9() } else { daemon.process.stop() }
        let probe = try Client(address: bus.address)
        _ = eventually { !probe.nameHasOwner(managerName) }
        extraArgs.removeAll { dropped.contains($0) }
        try start()
    }

    /// Starts the daemon again after it died by itself (a crash the test provoked).
    public func startAgain(dropping dropped: [String]) throws {
        _ = daemon.process.wait(timeout: 10)
        try restart(kill9: true, dropping: dropped)
    }

    /// A new connection that registers as `app`.
    public func app(_ app: String) throws -> Client {
        let c = try Client(address: bus.address)
        try c.call("RegisterApp", [.string(app)])
        return c
    }

    public func busctl(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try runCommand("/usr/bin/busctl", ["--address=\(bus.address)"] + args)
    }

    /// `busctl call` on the manager.
    public func busctlCall(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try busctl(["call", managerName, managerPath, managerInterface] + args)
    }
}

public let usec = usecPerSecond

/// The error a call failed with, or nil if it succeeded.
public func callError(_ body: () throws(BusError) -> Void) -> BusError? {
    do { try body() } catch { return error }
    return nil
}

/// Property maps without the clock-computed entries, for comparing snapshots taken at different times.
public func stable(_ alarms: [[String: Value]]) -> [[String: Value]] {
    alarms.map { $0.filter { $0.key != "Progress" && $0.key != "RemainingUSec" } }
        .sorted { ($0["Id"]?.stringValue ?? "") < ($1["Id"]?.stringValue ?? "") }
}

public func uint64(_ v: Value?) -> UInt64 {
    if case .uint64(let x)? = v?.unwrapped { return x }
    return 0
}

/// The shipped manual pages laid out as installed (`manN/page.N`), for `MANPATH`: systemd-analyze
/// verify runs `man` for each page a unit's `Documentation=` names.
public func shippedManPages() throws -> TempDir {
    let dir = TempDir("alarmd-man")
    for page in try FileManager.default.contentsOfDirectory(atPath: Products.sourceRoot + "/docs/man") {
        guard let section = page.split(separator: ".").last else { continue }
        try FileManager.default.createDirectory(atPath: "\(dir.path)/man\(section)", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Products.sourceRoot + "/docs/man/" + page, toPath: "\(dir.path)/man\(section)/\(page)")
    }
    return dir
}
