// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import TestSupport

/// The alarmd under test: the real binary on the run's bus, its store in a directory that outlives
/// every kill, hermetic as the tests run it (no sound server, no system bus).
final class DaemonUnderTest {
    let path: String
    let busAddress: String
    let stateDir: String
    var storePath: String { stateDir + "/alarmd.sqlite" }
    var logPath: String { stateDir + "/alarmd.log" }
    private var configPath: String { stateDir + "/alarmd.conf" }
    private(set) var process: ChildProcess?
    /// How much of the log earlier runs wrote (read already).
    private var logRead = 0

    /// Every client is its own app and allowed at once; calls are not rate-limited (the harness is
    /// not a flood to be slowed down). A ringing alarm never times out and a late one is never
    /// "missed" here: the harness stops every ring itself, and a restart on a loaded machine must not
    /// turn a ring into a removal the clients did not ask for.
    static let config = """
        [authorization]
        default = allow
        [limits]
        calls_burst = 0
        [ringing]
        ring_timeout = 86400
        [time]
        missed_grace = 86400
        """

    init(path: String, busAddress: String, stateDir: String) throws {
        self.path = path
        self.busAddress = busAddress
        self.stateDir = stateDir
        try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
        try DaemonUnderTest.config.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    var pid: pid_t? { process?.pid }

    /// `extraArgs`: test options of alarmd for this run of it.
    func spawn(_ extraArgs: [String] = []) throws {
        let env = hermeticEnvironment(home: stateDir)
        let p = try ChildProcess(path, ["--bus-address", busAddress, "--state-dir", stateDir, "--config", configPath] + extraArgs,
                                 environment: env, stderrPath: logPath)
        ChildRegistry.add(p.pid)
        process = p
    }

    /// SIGKILL: no chance to finish a write, flush a reply or close the store.
    func kill9() {
        guard let p = process else { return }
        p.signal(SIGKILL)
        p.wait(timeout: 30)
        ChildRegistry.remove(p.pid)
        process = nil
    }

    /// Whether it has ended by itself (reaping it if so), with its wait status.
    func exited() -> Int32? {
        guard let p = process else { return nil }
        // Only a zombie is reaped: waiting would cost a poll interval on every look.
        let stat = (try? String(contentsOfFile: "/proc/\(p.pid)/stat", encoding: .utf8)) ?? ""
        if let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].dropFirst().first != "Z" { return nil }
        let status = p.wait(timeout: 5)
        ChildRegistry.remove(p.pid)
        process = nil
        return status ?? -1
    }

    /// Waits (up to 5 s) for it to end by itself, and reaps it: its wait status, nil if it did not end.
    func waitForExit() -> Int32? {
        guard let p = process, let status = p.wait(timeout: 5) else { return nil }
        ChildRegistry.remove(p.pid)
        process = nil
        return status
    }

    /// SIGTERM, as the session ends it (SIGKILL after 5 s); its wait status.
    @discardableResult
    func stop() -> Int32? {
        guard let p = process else { return nil }
        p.stop()
        ChildRegistry.remove(p.pid)
        process = nil
        return p.exitStatus
    }

    /// Lines alarmd logged at error priority since the last look (plain lines: its stderr is a file).
    func newErrors() -> [String] {
        guard let h = FileHandle(forReadingAtPath: logPath) else { return [] }
        defer { try? h.close() }
        try? h.seek(toOffset: UInt64(logRead))
        let data = (try? h.readToEnd()) ?? Data()
        logRead += data.count
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("alarmd: error: ") }.map(String.init)
    }
}
