// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// The system bus, where logind (suspend, sleep inhibitors) and timedated live: without one alarmd
/// still works, and says what it cannot do.
final class SystemBus {
    let bus: Bus?
    private let power: PowerMonitor?

    init(loop: EventLoop, committer: Committer, zoneWatcher: ZoneWatcher, beforeSleep: @escaping () -> String) {
        var bus: Bus?, power: PowerMonitor?
        do {
            let system = try Bus.system()
            try system.attachSecondary(loop)
            bus = system
            // After a suspend, what fell due while asleep rings or is missed.
            power = try PowerMonitor(system: system, beforeSleep: beforeSleep) { [unowned committer] in committer.decide(.clockStep(delta: 0), "resume") }
            try system.addMatch("type='signal',sender='org.freedesktop.timedate1',path='/org/freedesktop/timedate1',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'") { _ in
                zoneWatcher.recheck()
            }
        } catch {
            Log.warning("no system bus (\(error.message)): no suspend handling, no sleep inhibitor")
        }
        self.bus = bus
        self.power = power
    }
}
