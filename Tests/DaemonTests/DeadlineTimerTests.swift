// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
import Foundation
import Glibc
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
}
