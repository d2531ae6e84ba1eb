// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import FoundationEssentials
import Synchronization

/// Microseconds since the Unix epoch (CLOCK_REALTIME), the unit of every `…USec` property.
public typealias USec = UInt64

public let usecPerSecond: UInt64 = 1_000_000

/// Where "now" comes from. The vocabulary is three names: this protocol, `SystemClock` (the
/// machine's wall clock) and `ManualClock` (one that moves only when a test says so).
public protocol Clock: Sendable {
    func now() -> USec
}

/// The machine's wall clock, as alarmd and its clients read it. The daemon's integration tests
/// (`alarmd --test-clock`, never passed by the systemd unit) shift it by an offset, to step time
/// without touching the machine's clock.
public final class SystemClock: Clock, Sendable {
    private let offset: Mutex<Int64>
    private let machine: @Sendable () -> USec

    /// `machine` reads the machine's realtime clock in µs (the daemon reads the kernel's directly).
    public init(offset: Int64 = 0, machine: @escaping @Sendable () -> USec = SystemClock.foundationTime) {
        self.offset = Mutex(offset)
        self.machine = machine
    }

    public static let foundationTime: @Sendable () -> USec = {
        let t = Date().timeIntervalSince1970
        return t <= 0 ? 0 : USec(t * 1_000_000)
    }

    public var offsetUSec: Int64 { offset.withLock { $0 } }

    public func now() -> USec { machine().shifted(by: offsetUSec) }

    /// The machine's instant at which this clock shows `usec` (what a kernel timer is armed for).
    public func machineTime(_ usec: USec?) -> USec? { usec.map { $0.shifted(by: -offsetUSec) } }

    /// Makes now = `usec`; returns the step.
    @discardableResult
    public func set(_ usec: USec) -> Int64 {
        let newOffset = Int64(bitPattern: usec &- machine())
        return offset.withLock { offset -> Int64 in
            let d = newOffset &- offset
            offset = newOffset
            return d
        }
    }
}

/// A clock that moves only when told to: the core's tests and the fuzzers use it.
public final class ManualClock: Clock, Sendable {
    private let current: Mutex<USec>

    public init(_ start: USec) { current = Mutex(start) }

    public func now() -> USec { current.withLock { $0 } }

    public func set(_ t: USec) { current.withLock { $0 = t } }
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
