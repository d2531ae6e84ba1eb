// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
import AlarmCore
import Foundation
import Testing
import TestSupport

@Suite struct StoreWALTests {
    func walBytes(_ dir: StoreDirectory) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: dir.database + "-wal"))?[.size] as? Int) ?? 0
    }

    /// Commits `n` single-alarm changes, as method calls do; returns the largest WAL seen.
    func commitMany(_ store: Store, _ dir: StoreDirectory, _ n: Int) throws -> Int {
        let e = AlarmEngine(clock: ManualClock(RandomAlarms.start), timeZone: Zone.utc)
        var largest = 0
        for i in 0..<n {
            let m = try e.plan(.schedule(id: "", configuration: ["title": .string("Tea \(i)"), "duration": .uint32(3_600)]), caller: .user)
            e.apply(m)
            try store.commit(m)
            if i % 2 == 0, let some = e.alarms.values.first {
                let c = try e.plan(.cancel(id: some.id), caller: .user)
                e.apply(c)
                try store.commit(c)
            }
            if i % 25 == 0 { largest = max(largest, walBytes(dir)) }
        }
        return max(largest, walBytes(dir))
    }

    /// Commits never checkpoint on their own: without the checkpoint thread the WAL only grows…
    @Test func commitsDoNotCheckpoint() throws {
        let dir = StoreDirectory()
        let store = try Store(directory: dir.path, checkpointAfter: .max)
        let largest = try commitMany(store, dir, 1_500)
        #expect(store.checkpointsStarted == 0)
        #expect(largest > 8 << 20, "\(largest) bytes of WAL")
    }

    /// …and with it, however many commits there are, the WAL stays short: each checkpoint copies it
    /// into the database and the next commit starts the WAL over.
    @Test func checkpointsKeepTheWALShort() throws {
        let dir = StoreDirectory()
        let store = try Store(directory: dir.path)
        let largest = try commitMany(store, dir, 3_000)
        store.waitForCheckpoint()
        #expect(store.checkpointsStarted >= 3)
        #expect(largest <= (Store.restartFrames + 16) * (4_096 + 24), "\(largest) bytes of WAL")
        print("checkpointsKeepTheWALShort: \(store.checkpointsStarted) checkpoints on the thread, \(store.catchUps) commits caught up, WAL at most \(largest) bytes")
        // At idle, a checkpoint of whatever is left leaves an empty WAL behind the next commit.
        store.checkpointIfNeeded(minimumFrames: 1)
        store.waitForCheckpoint()
        try store.setMeta("probe", "1")
        #expect(store.walFrames <= 4)
        #expect(try Store(directory: dir.path).loadAlarms().alarms.count == 1_500)
    }
}
