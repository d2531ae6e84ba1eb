// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc

/// A private `dbus-daemon`, started as a child we keep and reap (never `--fork`: nothing here would
/// reap the orphan).
public final class TestBus {
    public let address: String
    public let dir: TempDir
    private let process: ChildProcess
    /// The dbus-daemon's pid (a benchmark kills it on Ctrl-C; a test never needs it).
    public var pid: pid_t { process.pid }

    /// `serviceDirectory`: a directory of D-Bus activation files this bus may use. `everyUser`: let
    /// any user connect (a session bus lets in only its own), for a daemon run as another user.
    public init(serviceDirectory: String? = nil, everyUser: Bool = false) throws {
        dir = TempDir("alarmd-bus")
        if everyUser { chmod(dir.path, 0o755) }
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(dir.path)</listen>
              \(serviceDirectory.map { "<servicedir>\($0)</servicedir>" } ?? "")
              <!-- As the standard session bus allows (session.conf). -->
              <limit name="max_replies_per_connection">50000</limit>
              <limit name="max_incoming_bytes">1000000000</limit>
              <limit name="max_outgoing_bytes">1000000000</limit>
              <limit name="max_message_size">1000000000</limit>
              <policy context="default">
                \(everyUser ? "<allow user=\"*\"/>" : "")
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configPath = dir.path + "/bus.conf"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestFailure("pipe") }
        process = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=\(configPath)", "--nofork", "--print-address=1"],
                                   stdoutPipe: fds[1], stderrPath: dir.path + "/dbus-daemon.log")
        close(fds[1])
        defer { close(fds[0]) }
        var line = [UInt8]()
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        address = String(decoding: line, as: UTF8.self)
        guard address.hasPrefix("unix:") else { throw TestFailure("dbus-daemon gave no address") }
    }

    deinit { process.stop() }
}
