/// A binary min-heap of keys ordered by a 64-bit priority, with a position index so that insert,
/// update and removal of any key are O(log n). The daemon keeps one per kind of deadline and arms
/// its single kernel timer for the top.
public struct IndexedHeap<Key: Hashable> {
    private var items: [(priority: UInt64, key: Key)] = []
    private var position: [Key: Int] = [:]

    public init() {}

    public var count: Int { items.count }
    public var isEmpty: Bool { items.isEmpty }
    public var min: (priority: UInt64, key: Key)? { items.first }

    public func priority(of key: Key) -> UInt64? { position[key].map { items[$0].priority } }

    /// Inserts `key`, or moves it to `priority`; nil removes it.
    public mutating func set(_ key: Key, _ priority: UInt64?) {
        guard let priority else { remove(key); return }
        if let i = position[key] {
            let old = items[i].priority
            items[i].priority = priority
            if priority < old { siftUp(i) } else { siftDown(i) }
        } else {
            items.append((priority, key))
            position[key] = items.count - 1
            siftUp(items.count - 1)
        }
    }

    public mutating func remove(_ key: Key) {
        guard let i = position.removeValue(forKey: key) else { return }
        let last = items.count - 1
        if i != last {
            items.swapAt(i, last)
            position[items[i].key] = i
        }
        items.removeLast()
        if i < items.count {
            siftUp(i)
            siftDown(i)
        }
    }

    /// Every key whose priority is at most `limit`, in no particular order; O(k) for k results.
    public func keys(atMost limit: UInt64) -> [Key] {
        var out: [Key] = []
        var stack = items.isEmpty ? [] : [0]
        while let i = stack.popLast() {
            guard items[i].priority <= limit else { continue }
            out.append(items[i].key)
            for c in [2 * i + 1, 2 * i + 2] where c < items.count { stack.append(c) }
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
        position[items[a].key] = a
        position[items[b].key] = b
    }
}
