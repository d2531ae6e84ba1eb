// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// The connections that called `Watch`: alarmd's signals are addressed to each of them alone, never
/// broadcast, because a Flatpak app allowed to talk to alarmd receives every broadcast signal alarmd
/// sends (xdg-dbus-proxy passes them on), and would learn of other apps' alarms. Who a watcher is, is
/// looked up as each signal is sent, not kept from its `Watch`: a connection that registers as an app
/// afterwards hears only of that app's alarms from then on.
final class Watchers {
    /// Unique names in the order they first watched: every watcher hears a change's signals in the same order.
    private var order: [String] = []
    /// The `NextFireTimeUSec` each watcher was last told (or read when it began to watch).
    private var nextFire: [String: USec] = [:]

    var isEmpty: Bool { order.isEmpty }

    /// Starts (or, for a watcher already, keeps) sending to `sender`; `nextFire` is the value it sees now.
    func add(_ sender: String, nextFire value: USec) {
        if nextFire.updateValue(value, forKey: sender) == nil { order.append(sender) }
    }

    /// Whether `sender` watched before.
    @discardableResult
    func remove(_ sender: String) -> Bool {
        guard nextFire.removeValue(forKey: sender) != nil else { return false }
        order.removeAll { $0 == sender }
        return true
    }

    /// Each watcher with whom it is now, as `identify` says; one it cannot say (gone) is dropped.
    func audience(_ identify: (String) -> Caller?) -> [(sender: String, caller: Caller)] {
        var out: [(sender: String, caller: Caller)] = []
        for sender in order {
            if let caller = identify(sender) { out.append((sender, caller)) } else { remove(sender) }
        }
        return out
    }

    /// Records `value` as told to `sender`; whether it differs from what it was told before.
    func nextFireMoved(_ sender: String, to value: USec) -> Bool {
        guard let old = nextFire[sender], old != value else { return false }
        nextFire[sender] = value
        return true
    }

    var count: Int { order.count }
}
