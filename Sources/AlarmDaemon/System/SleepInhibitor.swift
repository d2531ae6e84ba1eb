// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus

/// Holds a logind `sleep:idle` block inhibitor while any alarm rings, so the machine does not fall
/// asleep mid-ring. Without logind (no system bus, or no login1) it says so once and does nothing.
final class SleepInhibitor {
    private let systemBus: Bus?
    private var warned = false
    private var fd: Int32 = -1
    private var wanted = false
    private var requesting = false

    init(systemBus: Bus?) { self.systemBus = systemBus }

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
            case .failure(let e):
                Log.warning("no sleep inhibitor from logind: \(e)")
            case .success(let fd) where self.wanted:
                self.fd = fd
                Log.info("holding a sleep:idle inhibitor while alarms ring")
            case .success(let fd):
                close(fd)
            }
        }
    }

    private func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        Log.info("released the sleep inhibitor")
    }
}
