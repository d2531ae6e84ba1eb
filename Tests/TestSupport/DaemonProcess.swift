// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc

/// The real `alarmd` binary on a test bus, with its own state directory.
public final class DaemonProcess {
    public let process: ChildProcess
    public let logPath: String

    /// `launcher`: a command that ends by exec'ing its arguments (alarmd and its own), so that the
    /// process is alarmd's all the same; for a test that changes what alarmd finds on the machine.
    public init(bus: TestBus, stateDir: String, extraArgs: [String] = [], environment: [String: String] = [:],
                launcher: [String] = []) throws {
        logPath = stateDir + "/alarmd.log"
        try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
        // Hermetic by default: no real sound server, no real logind; tests that want them pass their own.
        var env = hermeticEnvironment()
        env.merge(environment) { _, new in new }
        let command = launcher + [Products.alarmd, "--bus-address", bus.address, "--state-dir", stateDir] + extraArgs
        process = try ChildProcess(command[0], Array(command.dropFirst()), environment: env, stderrPath: logPath)
        let probe = try Client(address: bus.address)
        let deadline = Date().addingTimeInterval(20)
        while !probe.nameHasOwner(managerName) {
            if process.wait(timeout: 0.01) != nil { throw TestFailure("alarmd exited at start:\n\(log)") }
            if Date() > deadline { throw TestFailure("alarmd did not take its name:\n\(log)") }
        }
    }

    public var log: String { readText(logPath) }

    /// SIGKILL: no chance to flush or clean up.
    public func kill9() {
        process.signal(SIGKILL)
        process.wait()
    }

    deinit { process.stop() }
}

/// Runs a command to completion (at most `timeout` seconds) and returns its exit status and output.
public func runCommand(_ path: String, _ args: [String], environment: [String: String]? = nil,
                       timeout: Double = 60) throws -> (status: Int32, out: String, err: String) {
    let dir = TempDir("alarmd-cmd")
    let outPath = dir.path + "/out", errPath = dir.path + "/err"
    let fd = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { close(fd) }
    let child = try ChildProcess(path, args, environment: environment, stdoutPipe: fd, stderrPath: errPath)
    guard let status = child.wait(timeout: timeout) else { throw TestFailure("\(path) did not finish") }
    return ((status >> 8) & 0xff, readText(outPath), readText(errPath))
}

/// A file's text, "" when it cannot be read. Not `String(contentsOfFile:)`: Foundation (Swift 6.3)
/// leaks a 4 KiB buffer each time that reads an empty file, and command output is often empty.
public func readText(_ path: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? handle.close() }
    return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
}

extension DaemonProcess {
    /// Waits until the daemon's log says `text`.
    public func logs(_ text: String, timeout: Double = 5) -> Bool {
        eventually(timeout: timeout) { log.contains(text) }
    }
}
