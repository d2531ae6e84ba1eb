// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing
import TestSupport

@Suite struct RobustnessTests {
    @Test func rateLimiterBurstThenSustained() {
        var r = RateLimiter<String>(capacity: 10, perSecond: 5)
        let t0: USec = 1_000 * usecPerSecond
        func burst(_ now: USec) -> Bool {
            var all = true
            for _ in 0..<10 { all = r.admit("a", now: now) && all }
            return all
        }
        #expect(burst(t0))
        let admitted1 = r.admit("a", now: t0)
        #expect(!admitted1, "the burst is spent")
        let admitted2 = r.admit("b", now: t0)
        #expect(admitted2, "another caller is not affected")
        let admitted3 = r.admit("a", now: t0 + 200_000)
        #expect(admitted3, "one token back after 0.2 s at 5/s")
        let admitted4 = r.admit("a", now: t0 + 200_000)
        #expect(!admitted4)
        #expect(burst(t0 + 100 * usecPerSecond), "refilled, but never beyond the burst")
        let admitted5 = r.admit("a", now: t0 + 100 * usecPerSecond)
        #expect(!admitted5)
    }

    /// Buckets that filled up again are dropped: callers that come once (an app id per connection)
    /// do not pile up; one still being refilled is kept, with what it has spent.
    @Test func rateLimiterForgetsFullBuckets() {
        var r = RateLimiter<String>(capacity: 10, perSecond: 5)
        let t0: USec = 1_000 * usecPerSecond
        for i in 0..<1_000 { _ = r.admit("app \(i)", now: t0) }
        for _ in 0..<10 { _ = r.admit("busy", now: t0) }
        #expect(r.count == 1_001)
        r.prune(now: t0 + usecPerSecond)
        #expect(r.count == 1, "after 1 s at 5/s one token each is back: only the emptied bucket is still short")
        let spent = r.admit("busy", now: t0 + usecPerSecond)
        #expect(spent)
        r.prune(now: t0 + 10 * usecPerSecond)
        #expect(r.count == 0)
    }

    /// Whatever arrives in a configuration, validation answers (accepts or names a key) and never traps.
    @Test func randomConfigurationsNeverTrap() {
        var rng = SeededRandom.seeded("RobustnessTests")
        let keys = Array(AlarmConfiguration.knownKeys) + ["", "x", "title ", "🔔"]
        func randomValue(_ depth: Int) -> Value {
            switch Int.random(in: 0..<(depth > 2 ? 12 : 16), using: &rng) {
            case 0: return .bool(Bool.random(using: &rng))
            case 1: return .byte(UInt8.random(in: 0...255, using: &rng))
            case 2: return .int32(Int32.random(in: .min ... .max, using: &rng))
            case 3: return .uint32(UInt32.random(in: 0 ... .max, using: &rng))
            case 4: return .int64(Int64.random(in: .min ... .max, using: &rng))
            case 5: return .uint64(UInt64.random(in: 0 ... .max, using: &rng))
            case 6: return .double([Double.nan, .infinity, -.infinity, -1, 0, 1e300, Double.random(in: -1e12...1e12, using: &rng)].randomElement(using: &rng)!)
            case 7: return .string(["", "30s", "1h30m", "javascript:x", "#ff00ff", "orange", "/tmp/x.oga", "monday", String(repeating: "ü", count: 300)].randomElement(using: &rng)!)
            case 8: return .int16(Int16.random(in: .min ... .max, using: &rng))
            case 9: return .uint16(UInt16.random(in: 0 ... .max, using: &rng))
            case 10: return .objectPath("/x")
            case 11: return .signature("a{sv}")
            case 12: return .strings((0..<Int.random(in: 0..<4, using: &rng)).map { _ in ["monday", "sunday", "x", ""].randomElement(using: &rng)! })
            case 13: return .vardict((0..<Int.random(in: 0..<3, using: &rng)).map { i in ("k\(i)", randomValue(depth + 1)) })
            case 14: return .variant(randomValue(depth + 1))
            default: return .structure([randomValue(depth + 1)])
            }
        }
        let now: USec = 1_772_442_000 * usecPerSecond
        var accepted = 0
        for _ in 0..<5_000 {
            // Half start from a valid timer, so that validation reaches every key, not just the first refusal.
            var raw: [String: Value] = Bool.random(using: &rng) ? ["title": .string("Tea"), "duration": .uint32(60)] : [:]
            for _ in 0..<Int.random(in: 0..<3, using: &rng) { raw[keys.randomElement(using: &rng)!] = randomValue(0) }
            do {
                _ = try AlarmConfiguration.parse(raw, now: now)
                accepted += 1
            } catch {
                if case .invalidArgument(let key, let reason) = error {
                    #expect(!key.isEmpty || raw.keys.contains(""), "an error names its key")
                    #expect(!reason.isEmpty)
                } else {
                    Issue.record("unexpected \(error)")
                }
            }
        }
        print("random configurations: \(accepted) of 5000 accepted, the rest refused naming a key")
        #expect(accepted > 100, "the random inputs reach the accepting paths too")
    }
}
