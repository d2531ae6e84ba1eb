// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc

// What the tools that run alarmd outside the test runner share (the benchmark, the crash harness,
// the bus fuzzer), and what DaemonProcess itself uses.

/// Monotonic µs, for delays and durations.
public func monoUSec() -> UInt64 { microseconds(CLOCK_MONOTONIC) }

/// Realtime µs, the clock of every `…USec` property.
public func realUSec() -> UInt64 { microseconds(CLOCK_REALTIME) }

private func microseconds(_ clock: clockid_t) -> UInt64 {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
}

/// One line to stdout, written at once (under make, stdout is a pipe that C would buffer).
public func say(_ s: String = "") {
    var line = s + "\n"
    line.withUTF8 { buf in
        var off = 0
        while off < buf.count {
            let n = write(1, buf.baseAddress! + off, buf.count - off)
            if n <= 0 { break }
            off += n
        }
    }
}

/// The environment alarmd runs in when a test or tool starts it: no session bus but the one it is
/// given, no real sound server, no real system bus (logind, timedated); with `home`, its XDG config
/// and data directories there too, so nothing of the user's is read.
public func hermeticEnvironment(home: String? = nil) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
    // The lock-screen alert alarmd would start is the test's to name (a stand-in), never one from outside.
    env.removeValue(forKey: "ALARMD_LOCKSCREEN_ALERT")
    // Nor the display it would show on: a test that wants one names it (the alert takes it from alarmd's
    // environment, else from the systemd user manager's, which on a test bus is the test's peer).
    env.removeValue(forKey: "WAYLAND_DISPLAY")
    env["PULSE_SERVER"] = "unix:/nonexistent/pulse"
    env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/system_bus_socket"
    if let home {
        env["XDG_CONFIG_HOME"] = home + "/config"
        env["XDG_DATA_HOME"] = home + "/data"
    }
    return env
}
