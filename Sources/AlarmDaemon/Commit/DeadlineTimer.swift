// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSystemd
import Glibc
import SDBus
import SystemFiles

/// The one kernel timer of the daemon: a timerfd armed for the earliest deadline of all alarms, on
/// `CLOCK_REALTIME_ALARM` where the process may wake the machine (CAP_WAKE_ALARM and an RTC), else
/// on `CLOCK_REALTIME`; disarmed when nothing is pending. Beside it, a `CLOCK_REALTIME` timerfd that
/// never expires reports wall-clock steps (`TFD_TIMER_CANCEL_ON_SET`): steps must be seen even with
/// nothing pending, and a wake-capable timer armed far ahead for that would have the kernel program
/// the RTC at every suspend (bounded to a day by rtc-cmos: a machine woken for nothing).
final class DeadlineTimer {
    /// How a timerfd is made; tests substitute one that refuses the alarm clock.
    typealias Create = @Sendable (clockid_t) -> Int32

    static let systemCreate: Create = { clock in timerfd_create(clock, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }

    /// Whether an RTC that can raise a wake alarm exists: without one the kernel accepts
    /// `CLOCK_REALTIME_ALARM` timers (seen on VMs) but nothing can wake the machine.
    static func systemHasWakeRTC() -> Bool {
        directoryEntries("/sys/class/rtc").contains { fileExists("/sys/class/rtc/\($0)/wakealarm") }
    }

    /// Tries the wake-capable clock first (where an RTC could wake the machine); the first clock
    /// the kernel grants wins.
    static func choose(_ create: Create, hasWakeRTC: Bool) -> (fd: Int32, clock: clockid_t)? {
        for clock in hasWakeRTC ? [CLOCK_REALTIME_ALARM, CLOCK_REALTIME] : [CLOCK_REALTIME] {
            let fd = create(clock)
            if fd >= 0 { return (fd, clock) }
        }
        return nil
    }

    let fd: Int32
    let clock: clockid_t
    /// Reports wall-clock steps; never expires.
    private let stepFD: Int32
    var wakeCapable: Bool { clock == CLOCK_REALTIME_ALARM }
    private let onExpire: () -> Void
    private let onClockStep: () -> Void
    /// Where the step watcher is armed: far enough never to expire.
    private static let farFuture: UInt64 = 4_102_444_800 * 1_000_000 // 2100-01-01

    init(loop: EventLoop, create: Create = DeadlineTimer.systemCreate, hasWakeRTC: Bool = DeadlineTimer.systemHasWakeRTC(),
         onExpire: @escaping () -> Void, onClockStep: @escaping () -> Void) throws {
        guard let (fd, clock) = DeadlineTimer.choose(create, hasWakeRTC: hasWakeRTC) else {
            throw BusError(errno: -errno, "timerfd_create")
        }
        let stepFD = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard stepFD >= 0 else {
            let e = errno
            close(fd)
            throw BusError(errno: -e, "timerfd_create")
        }
        self.fd = fd
        self.clock = clock
        self.stepFD = stepFD
        self.onExpire = onExpire
        self.onClockStep = onClockStep
        DeadlineTimer.set(stepFD, at: DeadlineTimer.farFuture, flags: Int32(TFD_TIMER_ABSTIME) | alarmd_tfd_timer_cancel_on_set)
        // Before the bus: a due alarm rings before the calls waiting in the bus's queue are read.
        try loop.watchReadable(fd, priority: EventLoop.importantPriority) { [unowned self] in self.readable() }
        try loop.watchReadable(stepFD, priority: EventLoop.importantPriority) { [unowned self] in self.readable() }
    }

    deinit {
        close(fd)
        close(stepFD)
    }

    /// Where the timer is armed (realtime µs, absolute); nil when disarmed.
    private(set) var armedAt: UInt64?

    /// Whether the armed deadline has come (the kernel timer has expired or is about to): work that
    /// could wait (draining queued calls) stops so that the loop serves the timer. One vDSO clock read.
    var isDue: Bool { armedAt.map { SystemClock.realtime >= $0 } ?? false }

    /// Arms for `usec` (realtime µs, absolute); nil = nothing pending, disarmed.
    /// `TFD_TIMER_CANCEL_ON_SET` here too: a step that carries the clock past the deadline is then
    /// read as a step, not as the deadline come (a timer given a duration keeps its remaining time).
    func arm(at usec: UInt64?) {
        armedAt = usec.map { max($0, 1) }
        DeadlineTimer.set(fd, at: armedAt ?? 0, flags: Int32(TFD_TIMER_ABSTIME) | alarmd_tfd_timer_cancel_on_set)
    }

    /// `at` 0 disarms.
    private static func set(_ fd: Int32, at t: UInt64, flags: Int32) {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(t / 1_000_000)
        spec.it_value.tv_nsec = Int(t % 1_000_000) * 1_000
        if timerfd_settime(fd, flags, &spec, nil) < 0 {
            Log.error("timerfd_settime: \(String(cString: strerror(errno)))")
        }
    }

    /// Either timer: a step (reported by one or both) is handled once, before the deadline.
    private func readable() {
        // A timerfd reads as its count of expirations, or fails with ECANCELED after a step.
        var expirations: UInt64 = 0
        let size = MemoryLayout<UInt64>.size
        let stepped = read(stepFD, &expirations, size) < 0 && errno == ECANCELED
        let r = read(fd, &expirations, size)
        if stepped || (r < 0 && errno == ECANCELED) { onClockStep() }
        if r == size { onExpire() }
    }
}
