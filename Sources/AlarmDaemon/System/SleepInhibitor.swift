// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus

/// Holds a logind `sleep:idle` block inhibitor while any alarm rings, so the machine does not fall
/// asleep mid-ring. Without logind (no system bus, or no login1) it says so once and does nothing.
///
/// An alarm that woke the machine rings the moment user space is thawed, while logind still counts
/// the suspend as running and refuses new inhibitors (`OperationInProgress`): that refusal is asked
/// again each second, so the woken machine is kept awake as soon as logind allows (seen in a QEMU
/// guest, systemd 257: about a second after the thaw).
final class SleepInhibitor {
    private let systemBus: Bus?
    private var warned = false
    private var fd: Int32 = -1
    private var wanted = false
    private var requesting = false
    private let retry: TimerSource?
    private var retries = 0
    static let operationInProgress = "org.freedesktop.login1.OperationInProgress"
    private static let maxRetries = 60

    init(systemBus: Bus?, loop: EventLoop) {
        self.systemBus = systemBus
        weak var me: SleepInhibitor?
        do {
            retry = try loop.makeTimer(clock: CLOCK_MONOTONIC) { if let me, me.wanted { me.acquire() } }
        } catch {
            // Then a refusal right after a resume is final, as it was before the retry existed.
            Log.warning("no retry timer for the sleep inhibitor (\(error)); logind's refusals right after a resume are final")
            retry = nil
        }
        me = self
    }

    func set(_ on: Bool) {
        wanted = on
        if on { acquire() } else { release() }
    }

    private func acquire() {
        guard fd < 0, !requesting else { return }
        guard let system = systemBus else {
            if !warned { Log.warning("no system bus: cannot keep the machine awake while an alarm rings") }
            warned = true
            return
        }
        requesting = true
        logindInhibit(system, what: "sleep:idle", why: "An alarm is ringing", mode: "block") { [unowned self] result in
            self.requesting = false
            switch result {
            case .failure(let e) where e.name == SleepInhibitor.operationInProgress && self.wanted
                && self.retries < SleepInhibitor.maxRetries && self.retry != nil:
                if self.retries == 0 { Log.info("logind is still finishing a suspend; asking for the sleep inhibitor again each second") }
                self.retries += 1
                self.retry?.arm(at: SystemClock.monotonic + usecPerSecond)
            case .failure(let e):
                Log.warning("no sleep inhibitor from logind: \(e)")
            case .success(let fd) where self.wanted:
                self.fd = fd
                Log.info("holding a sleep:idle inhibitor while alarms ring" + (self.retries > 0 ? " (asked \(self.retries + 1) times)" : ""))
                self.retries = 0
            case .success(let fd):
                close(fd)
            }
        }
    }

    private func release() {
        retries = 0
        retry?.arm(at: nil)
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        Log.info("released the sleep inhibitor")
    }
}
