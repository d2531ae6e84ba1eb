// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing
import TestSupport

/// The engine's chunked storage behaves as the array it replaces, across chunk boundaries, and a
/// copy taken before a change keeps what it held.
struct SlotStoreTests {
    func alarm(_ n: Int) -> Alarm {
        let a = Alarm(key: AlarmKey(hi: UInt64(n), lo: 7), appId: "org.example.App",
                      config: AlarmConfiguration(schedule: .fixed(date: 1_000)), run: .scheduled(fireTime: UInt64(n)))
        return a
    }

    @Test func behavesAsAnArray() {
        var rng = SeededRandom.seeded("SlotStoreTests")
        var store = SlotStore(), model: [Alarm] = []
        var next = 0
        for _ in 0..<30_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<6:
                store.append(alarm(next)); model.append(alarm(next)); next += 1
            case 6..<8 where !model.isEmpty:
                #expect(store.removeLast() == model.removeLast())
            case 8 where !model.isEmpty:
                let i = Int.random(in: 0..<model.count, using: &rng), j = Int.random(in: 0..<model.count, using: &rng)
                store.swapAt(i, j); model.swapAt(i, j)
            default:
                if !model.isEmpty {
                    let i = Int.random(in: 0..<model.count, using: &rng)
                    store[i].run = .scheduled(fireTime: 1); model[i].run = .scheduled(fireTime: 1)
                }
            }
        }
        #expect(store.count == model.count && Array(store) == model)
        #expect(store.count > SlotStore.chunk, "crossed chunk boundaries: \(store.count)")
    }

    @Test func aCopyKeepsWhatItHeld() {
        var store = SlotStore((0..<10_000).map(alarm))
        let before = store
        store[5_000].run = .scheduled(fireTime: 99)
        store.append(alarm(10_000))
        store.removeLast()
        store.removeLast()
        #expect(before.count == 10_000 && before[5_000].fireTime == 5_000 && before[9_999] == alarm(9_999))
        #expect(store.count == 9_999 && store[5_000].fireTime == 99)
        #expect(SlotStore(Array(before)) == before)
    }
}
