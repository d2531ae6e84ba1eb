// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus

/// Suspend and resume through logind: a `delay` inhibitor held while awake, released when logind
/// announces `PrepareForSleep(true)` once the deadline is armed (on the alarm clock where alarms wake
/// the machine: the kernel programs the RTC for it as it suspends), and on `PrepareForSleep(false)`
/// every deadline is looked at again at once (alarms due during the sleep ring, or are reported missed).
final class PowerMonitor {
    private let system: Bus
    private var delayFD: Int32 = -1
    private let beforeSleep: () -> String
    private let onResume: () -> Void

    init(system: Bus, beforeSleep: @escaping () -> String, onResume: @escaping () -> Void) throws(BusError) {
        self.system = system
        self.beforeSleep = beforeSleep
        self.onResume = onResume
        try system.addMatch("type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.login1.Manager',member='PrepareForSleep'") { [unowned self] m in
            guard case .bool(let sleeping)? = try? m.read() else { return }
            if sleeping {
                Log.info("the machine is going to sleep; \(self.beforeSleep())")
                self.release()
            } else {
                Log.info("the machine woke up; checking every alarm")
                self.takeDelay()
                self.onResume()
            }
        }
        takeDelay()
    }

    private func takeDelay() {
        guard delayFD < 0 else { return }
        logindInhibit(system, what: "sleep", why: "Checks alarms around suspend", mode: "delay") { [unowned self] result in
            switch result {
            case .failure(let e): Log.info("no suspend notifications from logind (\(e.name))")
            case .success(let fd): if self.delayFD >= 0 { close(fd) } else { self.delayFD = fd }
            }
        }
    }

    private func release() {
        guard delayFD >= 0 else { return }
        close(delayFD)
        delayFD = -1
    }
}
