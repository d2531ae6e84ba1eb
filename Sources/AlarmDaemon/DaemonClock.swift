import AlarmCore
import Foundation
import SDBus

/// "Now" for the daemon: the system's realtime clock, plus — only with `--test-clock FILE`, which the
/// systemd unit never passes — an offset kept in FILE, so integration tests can step time, and leave
/// it stepped across a restart, without touching the machine's clock.
final class DaemonClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var offset: Int64 = 0
    let file: String?

    init(testClockFile: String?) {
        file = testClockFile
        if let file, let text = readTextFile(file), let v = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            offset = v
        }
    }

    var currentOffset: Int64 { lock.withLock { offset } }

    func now() -> USec { Clocks.get(CLOCK_REALTIME).shifted(by: currentOffset) }

    /// The real realtime instant at which the daemon's clock shows `usec`.
    func real(_ usec: UInt64?) -> UInt64? { usec.map { $0.shifted(by: -currentOffset) } }

    /// Test clock: makes now = `usec`; returns the step.
    func set(_ usec: UInt64) -> Int64 {
        let newOffset = Int64(bitPattern: usec &- Clocks.get(CLOCK_REALTIME))
        let delta = lock.withLock { () -> Int64 in
            let d = newOffset &- offset
            offset = newOffset
            return d
        }
        if let file { try? String(newOffset).write(toFile: file, atomically: true, encoding: .utf8) }
        return delta
    }
}
