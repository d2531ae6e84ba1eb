// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing
import TestSupport

struct SmallestSelectionTests {
    /// Whatever the order they come in, what is kept is what sorting all of them would give first.
    @Test func keepsTheSmallestInOrder() {
        var rng = SeededRandom.seeded("SmallestSelectionTests")
        for _ in 0..<300 {
            let n = Int.random(in: 0...400, using: &rng), k = Int.random(in: 0...450, using: &rng)
            let values = (0..<n).map { _ in Int.random(in: -50...50, using: &rng) }
            var s = SmallestSelection<Int>(capacity: k, by: <)
            for v in values { s.offer(v) }
            #expect(s.sorted() == Array(values.sorted().prefix(k)), "n \(n) k \(k)")
        }
    }
}
