// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc

/// A long-running command (`alarmctl panel`, `monitor`, `watch`) whose stdout the test reads line
/// by line as it comes, and whose stdin the test may write (i3bar's click events).
public final class LiveCommand {
    public let process: ChildProcess
    private var readFD: Int32
    private let writeFD: Int32
    private var buffer = Data()
    public private(set) var lines: [String] = []
    public let stderrPath: String
    private let dir = TempDir("alarmd-live")

    public init(_ path: String, _ args: [String], environment: [String: String]? = nil) throws {
        var out: [Int32] = [0, 0], input: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&input) == 0 else { throw TestFailure("pipe") }
        // Only the dup2'ed copies may reach the child: a read end left open there would keep the
        // pipe alive after the test closes its own.
        for fd in out + input { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        stderrPath = dir.path + "/stderr"
        process = try ChildProcess(path, args, environment: environment, stdoutPipe: out[1], stdinPipe: input[0], stderrPath: stderrPath)
        close(out[1])
        close(input[0])
        readFD = out[0]
        writeFD = input[1]
        _ = fcntl(readFD, F_SETFL, fcntl(readFD, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        process.stop()
        if readFD >= 0 { close(readFD) }
        close(writeFD)
    }

    public var stderr: String { readText(stderrPath) }

    /// Reads whatever the command printed so far.
    @discardableResult
    public func drain() -> [String] {
        guard readFD >= 0 else { return lines }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(readFD, &chunk, chunk.count)
            if n <= 0 { break }
            buffer.append(contentsOf: chunk[0..<n])
        }
        while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...nl)
        }
        return lines
    }

    /// Waits until the lines printed so far satisfy `predicate`, up to `timeout` seconds.
    @discardableResult
    public func waitFor(timeout: Double = 5, _ predicate: ([String]) -> Bool) -> Bool {
        eventually(timeout: timeout) { predicate(drain()) }
    }

    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(writeFD, $0.baseAddress!, $0.count) }
    }

    /// Closes the reading end, as a panel that restarts does.
    public func closeOutput() {
        close(readFD)
        readFD = -1
    }
}
