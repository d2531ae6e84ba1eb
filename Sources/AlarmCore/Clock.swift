import Foundation

/// Microseconds since the Unix epoch (CLOCK_REALTIME), the unit of every `…USec` property.
public typealias USec = UInt64

public let usecPerSecond: UInt64 = 1_000_000

/// Where "now" comes from. The daemon reads the system clock; tests drive a manual one.
public protocol Clock: Sendable {
    func now() -> USec
}

public struct SystemClock: Clock {
    public init() {}
    public func now() -> USec {
        let t = Date().timeIntervalSince1970
        return t <= 0 ? 0 : USec(t * 1_000_000)
    }
}

/// A clock that moves only when told to: the core's tests and the daemon's test clock use it.
public final class ManualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: USec

    public init(_ start: USec) { current = start }

    public func now() -> USec { lock.withLock { current } }

    public func set(_ t: USec) { lock.withLock { current = t } }

}

extension UInt64 {
    /// Saturating addition: deadlines far in the future must never trap the daemon.
    @inlinable public func plusSaturating(_ other: UInt64) -> UInt64 {
        let (r, o) = addingReportingOverflow(other)
        return o ? .max : r
    }

    @inlinable public func minusSaturating(_ other: UInt64) -> UInt64 {
        self > other ? self - other : 0
    }

    @inlinable public func shifted(by delta: Int64) -> UInt64 {
        delta >= 0 ? plusSaturating(UInt64(delta)) : minusSaturating(delta.magnitude)
    }
}
