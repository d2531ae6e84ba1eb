// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation

/// SeededRandom: every random choice of a test or a benchmark run comes from the seed it prints.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for `test`: `ALARMD_TEST_SEED=n` replays a run, and each run prints its seed.
    public static func seeded(_ test: String) -> SeededRandom {
        let seed = ProcessInfo.processInfo.environment["ALARMD_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): seed \(seed) (ALARMD_TEST_SEED=\(seed) replays it)")
        return SeededRandom(seed: seed)
    }
}
