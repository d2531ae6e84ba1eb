// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// A token bucket per caller: a burst of `capacity` calls, then `perSecond` sustained. A caller past
/// it gets `LimitReached` ("a caller floods the service") while everyone else is served as usual.
public struct RateLimiter<Key: Hashable> {
    let capacity: Double
    let perSecond: Double
    private var buckets: [Key: (tokens: Double, at: USec)] = [:]

    public init(capacity: Double = 1_000, perSecond: Double = 500) {
        self.capacity = capacity
        self.perSecond = perSecond
    }

    /// Takes one token for `key` at `now`; false when the bucket is empty.
    public mutating func admit(_ key: Key, now: USec) -> Bool {
        var b = buckets[key] ?? (capacity, now)
        let elapsed = Double(now.minusSaturating(b.at)) / 1_000_000
        b.tokens = min(capacity, b.tokens + elapsed * perSecond)
        b.at = now
        guard b.tokens >= 1 else {
            buckets[key] = b
            return false
        }
        b.tokens -= 1
        buckets[key] = b
        return true
    }

    public mutating func forget(_ key: Key) { buckets.removeValue(forKey: key) }

    /// Drops every bucket that has filled up again by `now`: it is as if it had never been taken
    /// from. Keys that outlive connections (an app's) would otherwise pile up, one per id ever seen.
    public mutating func prune(now: USec) {
        buckets = buckets.filter { _, b in b.tokens + Double(now.minusSaturating(b.at)) / 1_000_000 * perSecond < capacity }
    }

    /// How many callers it keeps a bucket for.
    public var count: Int { buckets.count }
}
