// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus
import SystemFiles

/// `org.alarmd.TestClock1` at `/org/alarmd/TestClock1`, whole: exported only with `--test-clock FILE`
/// (which the systemd unit never passes), so integration tests can step the daemon's wall clock, and
/// leave it stepped across a restart (the offset is kept in FILE), without touching the machine's.
final class TestClock1: BusObject {
    private let clock: SystemClock
    private let file: String
    private unowned let committer: Committer

    init(clock: SystemClock, file: String, committer: Committer) {
        self.clock = clock
        self.file = file
        self.committer = committer
    }

    /// The offset a test left in `file`, 0 for none.
    static func savedOffset(in file: String) -> Int64 {
        readTextFile(file).flatMap { Int64($0.trimmingWhitespace()) } ?? 0
    }

    static let path = "/org/alarmd/TestClock1"

    static let interface = Interface<TestClock1>("org.alarmd.TestClock1", methods: [
        .init("SetTime", in: [("usec", "t")]) { object, call throws(BusError) in
            guard case .uint64(let t)? = call.args.first else { throw BusError(Contract.ErrorName.invalidArgument, "usec") }
            let delta = object.clock.set(t)
            do {
                try String(object.clock.offsetUSec).write(toFile: object.file, atomically: true, encoding: .utf8)
            } catch {
                Log.warning("test clock: \(object.file) not written (\(error)); a restart starts from the real time")
            }
            Log.info("test clock set to \(Log.time(t)) (step \(delta / 1_000_000) s)")
            // A step of the clock means to the daemon what a real one does: deadlines recomputed,
            // countdowns keep their remaining time.
            object.committer.clockStepped(by: delta)
            return .reply([])
        },
        .init("Now", out: [("usec", "t")]) { object, _ throws(BusError) in .reply([.uint64(object.clock.now())]) },
    ])
}
