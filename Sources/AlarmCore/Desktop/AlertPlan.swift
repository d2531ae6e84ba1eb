// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// What the desktop must do about one change of one alarm, decided from its state before and after
/// alone (AlarmKit's system alert): the shell's presenter carries the effects out.
public enum AlertEffect: Equatable, Sendable {
    /// Start the alarm's sound, or start it anew (a new sound while ringing).
    case ring(Alarm)
    /// Show (or replace) the critical alert with its buttons.
    case showAlert(Alarm)
    /// Show (or replace) "Snoozed until HH:MM".
    case showSnoozed(Alarm)
    /// Stop the sound of this alarm.
    case silence(String)
    /// Close this alarm's notification.
    case withdraw(String)
    /// One notification, which stays, for alarms nobody heard.
    case missed([Alarm])
    /// A silent countdown ended: its completion message.
    case completed(Alarm)
}

public enum AlertPlan {
    /// The decision table. `notificationShown`: the alarm has a notification on screen now (its
    /// alert or "Snoozed until"), which a change may have made stale.
    static func effects(old: Alarm?, new: Alarm?, timedOut: Bool, snoozed: Bool, notificationShown: Bool) -> [AlertEffect] {
        let was = old?.state == .alerting, now = new?.state == .alerting
        if now, !was, let new {
            return [.ring(new), .showAlert(new)]
        }
        if now, let old, let new {
            // Updated while ringing: the new sound rings, the notification shows the new texts and buttons.
            var out: [AlertEffect] = []
            if old.config.sound != new.config.sound || old.config.volumeRamp != new.config.volumeRamp { out.append(.ring(new)) }
            if old.config.presentation != new.config.presentation { out.append(.showAlert(new)) }
            return out
        }
        if was, let old {
            var out: [AlertEffect] = [.silence(old.id)]
            if let new, snoozed { out.append(.showSnoozed(new)) } else { out.append(.withdraw(old.id)) }
            if timedOut { out.append(.missed([old])) }
            return out
        }
        guard let new else { return old.map { [.withdraw($0.id)] } ?? [] }
        guard notificationShown else { return [] }
        // A snoozed alarm paused or re-armed: its "Snoozed until" no longer holds, or moved.
        if new.state != .countdown { return [.withdraw(new.id)] }
        if old?.fireTime != new.fireTime { return [.showSnoozed(new)] }
        return []
    }

    /// Every effect of one applied mutation, in the order they are carried out: missed alarms, then
    /// removals (with the completion of silent countdowns), then changed and new alarms.
    public static func effects(of m: Mutation, before: [String: Alarm], notificationShown: (String) -> Bool) -> [AlertEffect] {
        var out: [AlertEffect] = m.missed.isEmpty ? [] : [.missed(m.missed)]
        let timedOut = Set(m.timedOut.map(\.id))
        for r in m.removals {
            out += effects(old: r.alarm, new: nil, timedOut: timedOut.contains(r.alarm.id), snoozed: false,
                           notificationShown: notificationShown(r.alarm.id))
            if r.reason == .completed { out.append(.completed(r.alarm)) }
        }
        for a in m.upserts {
            out += effects(old: before[a.id], new: a, timedOut: timedOut.contains(a.id), snoozed: m.snoozed.contains(a.id),
                           notificationShown: notificationShown(a.id))
        }
        return out
    }
}
