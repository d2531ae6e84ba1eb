import AlarmCore
import Testing

@Suite struct IndexedHeapTests {
    @Test func agreesWithASortedModel() {
        var heap = IndexedHeap<Int>()
        var model: [Int: UInt64] = [:]
        var rng = SystemRandomNumberGenerator()
        for step in 0..<20_000 {
            let key = Int.random(in: 0..<500, using: &rng)
            if Int.random(in: 0..<4, using: &rng) == 0 {
                heap.remove(key); model.removeValue(forKey: key)
            } else {
                let p = UInt64.random(in: 0..<1_000, using: &rng)
                heap.set(key, p); model[key] = p
            }
            #expect(heap.count == model.count)
            if step % 97 == 0 {
                #expect(heap.min?.priority == model.values.min())
                let due = Set(heap.keys(atMost: 300))
                #expect(due == Set(model.filter { $0.value <= 300 }.keys))
            }
        }
        for (k, p) in model { #expect(heap.priority(of: k) == p) }
    }
}
