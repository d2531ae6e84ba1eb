// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing
import TestSupport

@Suite struct SlotHeapTests {
    /// Checked against a sorted model, with alarms moving between slots as the engine moves them.
    @Test func agreesWithASortedModel() {
        var heap = SlotHeap()
        var model: [Int: UInt64] = [:]
        var rng = SeededRandom.seeded("SlotHeapTests")
        for step in 0..<20_000 {
            let slot = Int.random(in: 0..<500, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0:
                heap.remove(slot); model.removeValue(forKey: slot)
            case 1:
                // The engine's removal: the last slot's entry moves into the freed one.
                let last = (model.keys.max() ?? 0)
                heap.remove(slot); model.removeValue(forKey: slot)
                if last != slot, let p = model.removeValue(forKey: last) {
                    heap.move(from: last, to: slot)
                    model[slot] = p
                }
                heap.truncate(slots: (model.keys.max() ?? -1) + 1)
            default:
                let p = UInt64.random(in: 0..<1_000, using: &rng)
                heap.set(slot, p); model[slot] = p
            }
            #expect(heap.count == model.count)
            if step % 97 == 0 {
                #expect(heap.min?.priority == model.values.min())
                #expect(Set(heap.slots(atMost: 300)) == Set(model.filter { $0.value <= 300 }.keys))
            }
        }
        for (k, p) in model { #expect(heap.priority(of: k) == p) }
        let built = SlotHeap(priorities: (0..<500).map { model[$0] })
        #expect(built.count == model.count && built.min?.priority == model.values.min())
        for (k, p) in model { #expect(built.priority(of: k) == p) }
    }
}
