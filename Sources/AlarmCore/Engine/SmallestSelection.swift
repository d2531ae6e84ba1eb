// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The `k` smallest of many elements, kept as they stream past in a bounded max-heap: a page of
/// 1,000 alarms out of 100,000 needs 1,000 slots of memory and O(n log k) time, where sorting all
/// candidates held every one of them twice (some 5 MiB) for every page.
struct SmallestSelection<Element> {
    let capacity: Int
    private let less: (Element, Element) -> Bool
    /// A max-heap: the largest kept element first, the one a smaller newcomer replaces.
    private var heap: [Element] = []

    init(capacity: Int, by less: @escaping (Element, Element) -> Bool) {
        self.capacity = max(0, capacity)
        self.less = less
        heap.reserveCapacity(min(self.capacity, 1 << 16))
    }

    mutating func offer(_ e: Element) {
        if heap.count < capacity {
            heap.append(e)
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard less(heap[parent], heap[i]) else { break }
                heap.swapAt(parent, i)
                i = parent
            }
        } else if capacity > 0, less(e, heap[0]) {
            heap[0] = e
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var largest = i
                if l < heap.count, less(heap[largest], heap[l]) { largest = l }
                if r < heap.count, less(heap[largest], heap[r]) { largest = r }
                if largest == i { break }
                heap.swapAt(i, largest)
                i = largest
            }
        }
    }

    /// What was kept, smallest first.
    func sorted() -> [Element] { heap.sorted(by: less) }
}
