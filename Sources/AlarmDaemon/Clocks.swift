import Foundation
import Glibc

/// Realtime and the clock that counts time actually passed (CLOCK_BOOTTIME, suspend included).
/// Realtime, boottime (which counts suspend) and monotonic time, in µs.
enum Clocks {
    static func get(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }

    static var boottime: UInt64 { Clocks.get(CLOCK_BOOTTIME) }

    static var monotonic: UInt64 { Clocks.get(CLOCK_MONOTONIC) }

    /// The boot's id never changes while the process lives: read it once.
    static let bootID: String =
        (readTextFile("/proc/sys/kernel/random/boot_id") ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
}
