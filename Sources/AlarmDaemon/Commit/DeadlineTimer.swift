// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSystemd
import Glibc
import SDBus
import SystemFiles

/// The one kernel timer of the daemon: a timerfd armed for the earliest deadline of all alarms, on
/// `CLOCK_REALTIME_ALARM` where the process may wake the machine (CAP_WAKE_ALARM and an RTC), else
/// on `CLOCK_REALTIME`. `TFD_TIMER_CANCEL_ON_SET` makes it report wall-clock steps as well.
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
    var wakeCapable: Bool { clock == CLOCK_REALTIME_ALARM }
    private let onExpire: () -> Void
    private let onClockStep: () -> Void
    /// Nothing pending still keeps the timer armed, far ahead, so that clock steps are reported.
    private static let farFuture: UInt64 = 4_102_444_800 * 1_000_000 // 2100-01-01

    init(loop: EventLoop, create: Create = DeadlineTimer.systemCreate, hasWakeRTC: Bool = DeadlineTimer.systemHasWakeRTC(),
         onExpire: @escaping () -> Void, onClockStep: @escaping () -> Void) throws {
        guard let (fd, clock) = DeadlineTimer.choose(create, hasWakeRTC: hasWakeRTC) else {
            throw BusError(errno: -errno, "timerfd_create")
        }
        self.fd = fd
        self.clock = clock
        self.onExpire = onExpire
        self.onClockStep = onClockStep
        // Before the bus: a due alarm rings before the calls waiting in the bus's queue are read.
        try loop.watchReadable(fd, priority: EventLoop.importantPriority) { [unowned self] in self.readable() }
    }

    deinit { close(fd) }

    /// Where the timer is armed (realtime µs, absolute).
    private(set) var armedAt: UInt64 = DeadlineTimer.farFuture

    /// Whether the armed deadline has come (the kernel timer has expired or is about to): work that
    /// could wait (draining queued calls) stops so that the loop serves the timer. One vDSO clock read.
    var isDue: Bool { SystemClock.realtime >= armedAt }

    /// Arms for `usec` (realtime µs, absolute); nil = nothing pending.
    func arm(at usec: UInt64?) {
        let t = max(usec ?? DeadlineTimer.farFuture, 1)
        armedAt = t
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(t / 1_000_000)
        spec.it_value.tv_nsec = Int(t % 1_000_000) * 1_000
        if timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | alarmd_tfd_timer_cancel_on_set, &spec, nil) < 0 {
            Log.error("timerfd_settime: \(String(cString: strerror(errno)))")
        }
    }

    private func readable() {
        var expirations: UInt64 = 0
        let r = read(fd, &expirations, 8)
        if r == 8 {
            onExpire()
        } else if r < 0 && errno == ECANCELED {
            onClockStep()
        }
    }
}
