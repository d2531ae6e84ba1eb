// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// A binary min-heap of the engine's slot numbers ordered by a 64-bit priority (a deadline), with
/// positions kept in an array indexed by slot, so that insert, update and removal of any entry are
/// O(log n) and an entry costs 16 bytes plus 4 per slot. The engine keeps one per kind of deadline
/// and the daemon arms its single kernel timer for the top. When the engine moves an alarm
/// to another slot, `move` carries its entry along.
struct SlotHeap {
    private var items: [(priority: UInt64, slot: Int32)] = []
    /// Where each slot's entry is in `items`; -1 when it has none.
    private var position: [Int32] = []

    init() {}

    /// Every slot with its priority (nil = none) at once, in O(n).
    init(priorities: [UInt64?]) {
        position = Array(repeating: -1, count: priorities.count)
        items.reserveCapacity(priorities.lazy.filter { $0 != nil }.count)
        for (slot, p) in priorities.enumerated() {
            guard let p else { continue }
            position[slot] = Int32(items.count)
            items.append((p, Int32(slot)))
        }
        var i = items.count / 2
        while i > 0 {
            i -= 1
            siftDown(i)
        }
    }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
    var min: (priority: UInt64, slot: Int)? { items.first.map { ($0.priority, Int($0.slot)) } }

    func priority(of slot: Int) -> UInt64? {
        guard slot < position.count, position[slot] >= 0 else { return nil }
        return items[Int(position[slot])].priority
    }

    /// Inserts `slot`, or moves it to `priority`; nil removes it.
    mutating func set(_ slot: Int, _ priority: UInt64?) {
        guard let priority else { remove(slot); return }
        if slot < position.count, position[slot] >= 0 {
            let i = Int(position[slot])
            let old = items[i].priority
            items[i].priority = priority
            if priority < old { siftUp(i) } else { siftDown(i) }
        } else {
            if slot >= position.count { position.append(contentsOf: repeatElement(-1, count: slot + 1 - position.count)) }
            items.append((priority, Int32(slot)))
            position[slot] = Int32(items.count - 1)
            siftUp(items.count - 1)
        }
    }

    mutating func remove(_ slot: Int) {
        guard slot < position.count, position[slot] >= 0 else { return }
        let i = Int(position[slot])
        position[slot] = -1
        let last = items.count - 1
        if i != last {
            items.swapAt(i, last)
            position[Int(items[i].slot)] = Int32(i)
        }
        items.removeLast()
        if i < items.count {
            siftUp(i)
            siftDown(i)
        }
    }

    /// The entry of slot `from` (if any) now belongs to slot `to`, which has none.
    mutating func move(from: Int, to: Int) {
        guard from < position.count, position[from] >= 0 else { return }
        if to >= position.count { position.append(contentsOf: repeatElement(-1, count: to + 1 - position.count)) }
        let i = position[from]
        position[from] = -1
        position[to] = i
        items[Int(i)].slot = Int32(to)
    }

    /// Forgets slots from `count` on, which hold no entries.
    mutating func truncate(slots count: Int) {
        if position.count > count { position.removeLast(position.count - count) }
    }

    /// Every slot whose priority is at most `limit`, in no particular order; O(k) for k results.
    func slots(atMost limit: UInt64) -> [Int] {
        var out: [Int] = []
        guard let first = items.first, first.priority <= limit else { return out }
        var stack = [0]
        while let i = stack.popLast() {
            guard items[i].priority <= limit else { continue }
            out.append(Int(items[i].slot))
            let l = 2 * i + 1
            if l < items.count { stack.append(l) }
            if l + 1 < items.count { stack.append(l + 1) }
        }
        return out
    }

    /// What is wrong with the heap's own bookkeeping, for a table of `count` slots: entries that are
    /// out of order, positions that do not point back, entries for slots that do not exist.
    func violations(slots count: Int) -> [String] {
        var out: [String] = []
        for (i, item) in items.enumerated() {
            if i > 0, items[(i - 1) / 2].priority > item.priority { out.append("heap order broken at \(i)") }
            if Int(item.slot) >= count { out.append("an entry for slot \(item.slot) of \(count)") }
            if Int(item.slot) >= position.count || position[Int(item.slot)] != Int32(i) {
                out.append("slot \(item.slot)'s position does not point to its entry \(i)")
            }
        }
        for (slot, p) in position.enumerated() where p >= 0 {
            if Int(p) >= items.count || items[Int(p)].slot != Int32(slot) { out.append("slot \(slot) points to a foreign entry \(p)") }
        }
        return out
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].priority < items[parent].priority else { break }
            swapItems(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < items.count && items[l].priority < items[smallest].priority { smallest = l }
            if r < items.count && items[r].priority < items[smallest].priority { smallest = r }
            if smallest == i { return }
            swapItems(i, smallest)
            i = smallest
        }
    }

    private mutating func swapItems(_ a: Int, _ b: Int) {
        items.swapAt(a, b)
        position[Int(items[a].slot)] = Int32(a)
        position[Int(items[b].slot)] = Int32(b)
    }
}
