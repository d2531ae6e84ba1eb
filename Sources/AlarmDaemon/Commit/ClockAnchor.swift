// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// Where realtime and boottime (which counts suspend) stood when they were last known to agree: a
/// wall-clock step is how far realtime has moved apart from the time that really passed since. Kept in
/// the store across restarts of the same boot, so a step taken while alarmd was down is measured too.
final class ClockAnchor {
    private let store: Store
    private let clock: SystemClock
    private var anchor: (realtime: UInt64, boottime: UInt64) = (0, 0)
    static let metaKey = "clock_anchor"

    init(store: Store, clock: SystemClock) {
        self.store = store
        self.clock = clock
    }

    /// How far the wall clock moved apart from the time that really passed since the anchor.
    func measuredStep() -> Int64 {
        let rt = clock.now(), bt = SystemClock.boottime
        return Int64(bitPattern: rt &- anchor.realtime) &- Int64(bitPattern: bt &- anchor.boottime)
    }

    /// The step across the daemon's downtime, when the machine has not rebooted since the anchor.
    func stepSinceLastRun() -> Int64 {
        guard let text = store.metaIfReadable(ClockAnchor.metaKey) else { return 0 }
        let parts = text.split(separator: " ")
        guard parts.count == 3, let rt = UInt64(parts[0]), let bt = UInt64(parts[1]), parts[2] == SystemClock.bootID else { return 0 }
        anchor = (rt, bt)
        return measuredStep()
    }

    func save() {
        anchor = (clock.now(), SystemClock.boottime)
        do { try store.setMeta(ClockAnchor.metaKey, "\(anchor.realtime) \(anchor.boottime) \(SystemClock.bootID)") } catch {
            Log.error("store: clock anchor not saved: \(error)")
        }
    }
}
