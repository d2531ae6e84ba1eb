// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
import CSystemd
import Foundation
import Glibc
import SDBus
import Testing

/// The wake-capable clock is chosen when the kernel grants it and an RTC can wake the machine;
/// otherwise the daemon falls back to CLOCK_REALTIME, and WakeSupported says so.
@Suite struct DeadlineTimerTests {
    final class Kernel: @unchecked Sendable {
        let lock = NSLock()
        var tried: [clockid_t] = []
        let refuses: Set<clockid_t>
        init(refusing: Set<clockid_t>) { refuses = refusing }

        func create(_ clock: clockid_t) -> Int32 {
            lock.withLock { tried.append(clock) }
            return refuses.contains(clock) ? -1 : 100 + clock
        }
    }

    @Test func wakeCapableClockWhenGranted() {
        let k = Kernel(refusing: [])
        let chosen = DeadlineTimer.choose({ k.create($0) }, hasWakeRTC: true)
        #expect(chosen?.clock == CLOCK_REALTIME_ALARM && chosen?.fd == 100 + CLOCK_REALTIME_ALARM)
        #expect(k.tried == [CLOCK_REALTIME_ALARM])
    }

    @Test func fallbackWhenTheAlarmClockIsRefused() {
        // EPERM without CAP_WAKE_ALARM.
        let k = Kernel(refusing: [CLOCK_REALTIME_ALARM])
        let chosen = DeadlineTimer.choose({ k.create($0) }, hasWakeRTC: true)
        #expect(chosen?.clock == CLOCK_REALTIME)
        #expect(k.tried == [CLOCK_REALTIME_ALARM, CLOCK_REALTIME])
    }

    @Test func noRTCMeansNoWakeClaim() {
        // A VM without an RTC accepts CLOCK_REALTIME_ALARM timers that can wake nothing.
        let k = Kernel(refusing: [])
        #expect(DeadlineTimer.choose({ k.create($0) }, hasWakeRTC: false)?.clock == CLOCK_REALTIME)
        #expect(k.tried == [CLOCK_REALTIME])
    }

    @Test func nothingGranted() {
        let k = Kernel(refusing: [CLOCK_REALTIME_ALARM, CLOCK_REALTIME])
        #expect(DeadlineTimer.choose({ k.create($0) }, hasWakeRTC: true) == nil)
    }

    @Test func theRealTimerReportsAClockItCanUse() throws {
        // On this machine, whatever it is: the chosen clock is one the kernel really accepted.
        let hasRTC = DeadlineTimer.systemHasWakeRTC()
        guard let (fd, clock) = DeadlineTimer.choose(DeadlineTimer.systemCreate, hasWakeRTC: hasRTC) else {
            Issue.record("no timerfd at all")
            return
        }
        defer { close(fd) }
        #expect(clock == CLOCK_REALTIME || (hasRTC && clock == CLOCK_REALTIME_ALARM))
    }

    /// Nothing pending leaves the deadline timer disarmed: on the alarm clock, a timer armed far
    /// ahead would have the kernel program the RTC at every suspend and wake the machine for nothing.
    @Test func nothingPendingDisarms() throws {
        let loop = try EventLoop()
        let timer = try DeadlineTimer(loop: loop, onExpire: {}, onClockStep: {})
        func remaining() -> Int {
            var spec = itimerspec()
            #expect(timerfd_gettime(timer.fd, &spec) == 0)
            return spec.it_value.tv_sec * 1_000_000 + spec.it_value.tv_nsec / 1_000
        }
        let now = UInt64(Date().timeIntervalSince1970 * 1e6)
        timer.arm(at: now + 600_000_000)
        #expect((590_000_000...600_000_000).contains(remaining()), "armed ten minutes ahead")
        #expect(!timer.isDue)
        timer.arm(at: nil)
        #expect(remaining() == 0, "disarmed")
        #expect(timer.armedAt == nil && !timer.isDue)
        timer.arm(at: now - 1_000_000)
        #expect(timer.isDue, "a deadline in the past is due")
    }
}
