// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SystemFiles

/// The kernel's clocks, read directly, in µs: realtime (the wall clock), boottime (time passed,
/// suspend included: what a wall-clock step is measured against) and monotonic (intervals).
extension SystemClock {
    static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }

    static var realtime: UInt64 { read(CLOCK_REALTIME) }

    static var boottime: UInt64 { read(CLOCK_BOOTTIME) }

    static var monotonic: UInt64 { read(CLOCK_MONOTONIC) }

    /// The boot's id never changes while the process lives: read it once.
    static let bootID: String =
        (readTextFile("/proc/sys/kernel/random/boot_id") ?? "")
            .trimmingWhitespace()
}
