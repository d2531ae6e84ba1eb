// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport

/// The release alarmd on a private bus with its own state directory (real SQLite on disk), hermetic
/// as the tests run it: no sound server, no system bus, no user configuration. A control
/// connection watches the name's owner, so start-up is timed from spawn to the moment the bus
/// announces alarmd as owner.
final class BenchDaemon {
    let path: String
    let bus: BenchBus
    let stateDir: String
    let control: Pipeline
    private(set) var child: Child?
    let verbose: Bool
    /// NameOwnerChanged for alarmd's name: the new owner ("" when it went) and when it arrived.
    private var ownerChanges: [(owner: String, at: UInt64)] = []

    init(_ cfg: BenchConfig, bus: BenchBus, stateDir: String) throws {
        path = cfg.alarmd
        verbose = cfg.verbose
        self.bus = bus
        self.stateDir = stateDir
        try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
        control = try Pipeline(address: bus.address)
        try control.bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(managerName)'") { [unowned self] m in
            let at = monoUSec()
            if let args = try? m.readAll(), args.count == 3, case .string(let owner) = args[2] {
                self.ownerChanges.append((owner, at))
            }
        }
        try control.sync("GetId", interface: "org.freedesktop.DBus", destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
    }

    var pid: pid_t { child?.pid ?? 0 }
    var logPath: String { stateDir + "/alarmd.log" }
    /// Where alarmd says it keeps its alarms (its `StorePath` property), once it has run.
    private(set) var storePath = ""

    /// Spawns alarmd and returns the seconds until the bus announced it as the name's owner.
    @discardableResult
    func start() throws -> Double {
        let env = hermeticEnvironment(home: stateDir)
        let seen = ownerChanges.count
        let t0 = monoUSec()
        let c = try Child(path, ["--bus-address", bus.address, "--state-dir", stateDir, "--config", stateDir + "/alarmd.conf"],
                          environment: env, stderrPath: logPath)
        child = c
        var owned: UInt64?
        try control.pump(until: {
            owned = ownerChanges.dropFirst(seen).first { !$0.owner.isEmpty }?.at
            return owned != nil || c.exited
        }, timeout: 120, what: "alarmd taking its name")
        guard let owned else { throw BenchError("alarmd exited at start:\n" + tail(of: logPath)) }
        if verbose { say("[alarmd pid \(c.pid), state \(stateDir)]") }
        let o = try control.sync("Get", [.string(managerInterface), .string("StorePath")], interface: "org.freedesktop.DBus.Properties")
        if o.error == nil, case .string(let p)? = try? o.message.readAll().first?.unwrapped { storePath = p }
        if storePath.isEmpty { storePath = stateDir + "/alarmd.sqlite" }
        return Double(owned - t0) / 1e6
    }

    /// SIGKILL (no chance to flush), then waits until the bus has seen the name go.
    func kill9() throws {
        guard let c = child else { return }
        let seen = ownerChanges.count
        c.kill9()
        child = nil
        try control.pump(until: { ownerChanges.dropFirst(seen).contains { $0.owner.isEmpty } }, timeout: 30,
                         what: "the bus noticing alarmd's death")
    }

    /// SIGTERM, as the session sends at logout, timed to the process's exit (to 5 ms), then waits
    /// until the bus has seen the name go. Returns the seconds and the exit code (nil: killed by a signal).
    func terminate() throws -> (seconds: Double, exitCode: Int32?) {
        guard let c = child else { throw BenchError("alarmd is not running") }
        let seen = ownerChanges.count
        let t0 = monoUSec()
        c.signal(SIGTERM)
        guard let status = c.wait(timeout: 30) else { throw BenchError("alarmd did not end within 30 s of SIGTERM") }
        let seconds = Double(monoUSec() - t0) / 1e6
        child = nil
        try control.pump(until: { ownerChanges.dropFirst(seen).contains { $0.owner.isEmpty } }, timeout: 30,
                         what: "the bus noticing alarmd's exit")
        return (seconds, status & 0x7f == 0 ? (status >> 8) & 0xff : nil)
    }

    /// SIGTERM, as the session would.
    func stop() {
        child?.stop()
        child = nil
    }

    /// The store's files: the database, its write-ahead log, the WAL index.
    var storeBytes: (db: Int, wal: Int, shm: Int) {
        (fileSize(storePath), fileSize(storePath + "-wal"), fileSize(storePath + "-shm"))
    }
}

func tail(of path: String, lines: Int = 20) -> String {
    procFile(path).split(separator: "\n").suffix(lines).joined(separator: "\n")
}
