// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Where each alarm is in the engine's dense slot array: an open-addressing table (linear probing,
/// at most half full) of slot numbers, hashed by the alarm's key with the process's seeded hasher
/// (ids chosen by apps cannot make it degrade). 4 bytes per entry and a half, where a
/// `[AlarmKey: Int32]` takes over 20. The keys themselves are read from the slots.
struct SlotIndex {
    /// Slot numbers; -1 = empty. The count is 0 or a power of two.
    private var table: [Int32] = []
    private(set) var count = 0

    private static func hash(_ key: AlarmKey) -> Int {
        var h = Hasher()
        h.combine(key.hi)
        h.combine(key.lo)
        return h.finalize()
    }

    /// The slot holding `key`.
    func find(_ key: AlarmKey, in slots: SlotStore) -> Int? {
        position(of: key, in: slots).map { Int(table[$0]) }
    }

    private func position(of key: AlarmKey, in slots: SlotStore) -> Int? {
        guard !table.isEmpty else { return nil }
        let mask = table.count - 1
        var i = SlotIndex.hash(key) & mask
        while table[i] >= 0 {
            if slots[Int(table[i])].key == key { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Room for `n` entries without growing.
    mutating func reserve(_ n: Int, slots: SlotStore) {
        var size = 16
        while size < 2 * n { size *= 2 }
        if size > table.count { rebuild(size: size, slots: slots) }
    }

    /// Adds `slot`, whose alarm's key is not in the index yet.
    mutating func insert(slot: Int, in slots: SlotStore) {
        if 2 * (count + 1) > table.count { rebuild(size: max(16, 2 * table.count), slots: slots) }
        place(Int32(slot), key: slots[slot].key)
        count += 1
    }

    private mutating func place(_ slot: Int32, key: AlarmKey) {
        let mask = table.count - 1
        var i = SlotIndex.hash(key) & mask
        while table[i] >= 0 { i = (i + 1) & mask }
        table[i] = slot
    }

    private mutating func rebuild(size: Int, slots: SlotStore) {
        let old = table
        table = Array(repeating: -1, count: size)
        for s in old where s >= 0 { place(s, key: slots[Int(s)].key) }
    }

    /// Removes `key` (still in its slot) and returns its slot.
    @discardableResult
    mutating func remove(_ key: AlarmKey, in slots: SlotStore) -> Int? {
        guard var hole = position(of: key, in: slots) else { return nil }
        let removed = Int(table[hole])
        let mask = table.count - 1
        table[hole] = -1
        count -= 1
        // Backward-shift deletion: entries after the hole that would not be found past it move into it.
        var j = hole
        while true {
            j = (j + 1) & mask
            guard table[j] >= 0 else { break }
            let home = SlotIndex.hash(slots[Int(table[j])].key) & mask
            let stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j)
            if stays { continue }
            table[hole] = table[j]
            table[j] = -1
            hole = j
        }
        return removed
    }

    /// The alarm with `key` moved from slot `from` to slot `to`.
    mutating func move(_ key: AlarmKey, from: Int, to: Int) {
        guard !table.isEmpty else { return }
        let mask = table.count - 1
        var i = SlotIndex.hash(key) & mask
        while table[i] >= 0 {
            if table[i] == Int32(from) {
                table[i] = Int32(to)
                return
            }
            i = (i + 1) & mask
        }
    }
}
