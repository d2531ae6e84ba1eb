// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc

/// A child process spawned with an empty signal mask and default dispositions, kept and reaped by
/// its owner. (Swift Testing's threads block SIGTERM, and children inherit the mask through
/// Foundation.Process, so SIGTERM would never end them.)
public final class ChildProcess {
    public let pid: pid_t
    public let name: String
    private var reaped = false
    public private(set) var exitStatus: Int32?

    /// `stdoutPipe` receives the child's stdout when given, `stdinPipe` feeds its stdin; stderr goes
    /// to `stderrPath` (or /dev/null). `ownProcessGroup`: the child leads a new process group (as a
    /// shell job in a terminal does), so that `signalGroup` reaches it and everything it starts,
    /// and nothing of the test runner.
    public init(_ path: String, _ args: [String], environment: [String: String]? = nil,
                stdoutPipe: Int32? = nil, stdinPipe: Int32? = nil, stderrPath: String? = nil,
                ownProcessGroup: Bool = false) throws {
        name = (path as NSString).lastPathComponent
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let fd = stdinPipe {
            posix_spawn_file_actions_adddup2(&actions, fd, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let fd = stdoutPipe {
            posix_spawn_file_actions_adddup2(&actions, fd, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attr, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attr, Int16(flags))

        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([path] + args).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let r = posix_spawn(&child, path, &actions, &attr, argv, envp)
        guard r == 0 else { throw TestFailure("posix_spawn \(path): \(String(cString: strerror(r)))") }
        pid = child
    }

    public func signal(_ sig: Int32) {
        if !reaped { kill(pid, sig) }
    }

    /// Signals the child's whole process group, as a terminal does on Ctrl-C (needs `ownProcessGroup`).
    public func signalGroup(_ sig: Int32) {
        kill(-pid, sig)
    }

    /// Waits for the child to end, up to `timeout` seconds; returns its wait status or nil.
    @discardableResult
    public func wait(timeout: Double = 10) -> Int32? {
        if reaped { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                reaped = true
                exitStatus = status
                return status
            }
            usleep(5_000)
        }
        return nil
    }

    /// SIGTERM, then SIGKILL if it does not go within `grace` seconds.
    public func stop(grace: Double = 5) {
        guard !reaped else { return }
        signal(SIGTERM)
        if wait(timeout: grace) == nil {
            signal(SIGKILL)
            wait(timeout: 5)
        }
    }

    deinit {
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Where the built products live: next to the test bundle.
public enum Products {
    public static var directory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = (exe as NSString).deletingLastPathComponent
        // The test bundle may sit in a *.xctest directory.
        while dir.hasSuffix(".xctest") || dir.contains(".xctest/") { dir = (dir as NSString).deletingLastPathComponent }
        return dir
    }

    public static var alarmd: String { directory + "/alarmd" }
    public static var alarmctl: String { directory + "/alarmctl" }

    /// A tool ToolChecks runs (alarmd-bench, alarmd-crash, alarmd-fuzz-bus, alarmd-zone-oracle):
    /// Package.swift declares them, and ToolChecks, only with ALARMD_TOOLS=1, so that `swift build
    /// --build-tests` builds none of them. Throws when it is not built.
    public static func tool(_ name: String) throws -> String {
        let path = directory + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestFailure("\(name) is not built (\(path)): `make test-tools` builds it, as does `ALARMD_TOOLS=1 swift build --build-tests`")
        }
        return path
    }

    /// The repository root (for dbus/, systemd/).
    public static var sourceRoot: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }
}

/// A fresh temporary directory, removed by the owner.
public final class TempDir {
    public let path: String
    public init(root: String = "/tmp", _ label: String = "alarmd-test") {
        var template = Array("\(root)/\(label)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Polls `condition` until it holds or `timeout` seconds pass; `pumping` lets a client dispatch
/// its messages meanwhile. Returns whether it held.
public func eventually(timeout: Double = 5, pumping client: Client? = nil, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        if let client { client.pump(0.02) } else { usleep(20_000) }
    }
}

/// Writes a script the test then runs. Opened with O_CLOEXEC: a child spawned meanwhile by another
/// test must not inherit the writable descriptor, or running the script fails with ETXTBSY.
public func writeExecutable(_ text: String, to path: String) throws {
    try writeExecutable(Array(text.utf8), to: path)
}

/// Copies a program the test then runs (a shell under another name), as `writeExecutable` writes one.
public func copyExecutable(_ source: String, to path: String) throws {
    guard let data = FileManager.default.contents(atPath: source) else { throw TestFailure("read \(source)") }
    try writeExecutable(Array(data), to: path)
}

public func writeExecutable(_ bytes: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw TestFailure("open \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) == bytes.count else { throw TestFailure("write \(path)") }
    fchmod(fd, 0o755)
}
