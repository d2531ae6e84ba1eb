// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The texts of the alert notification, AlarmKit's alert presentation on the desktop.
public enum AlertText {
    /// `HH:mm` in `zone`, from the zone's offset: a DateFormatter per alert (ICU) was a measurable
    /// part of the time between an alarm coming due and its alert.
    static func clock(_ t: USec, in zone: Zone) -> String {
        let local = zone.wallSeconds(at: Int64(t / 1_000_000))
        let minute = (local % 86_400 + 86_400) % 86_400 / 60
        return twoDigits(minute / 60) + ":" + twoDigits(minute % 60)
    }

    /// Summary and body of the notification of an alerting alarm.
    public static func alert(_ a: Alarm, in zone: Zone) -> (summary: String, body: String) {
        let p = a.config.presentation
        var lines: [String] = []
        if a.kind == .timer { lines.append(p.completionMessage) }
        if !p.subtitle.isEmpty { lines.append(p.subtitle) }
        if a.kind == .alarm, let fire = a.fireTime { lines.append(clock(fire, in: zone)) }
        return (p.title, lines.joined(separator: "\n"))
    }

    public static func snoozed(_ a: Alarm, in zone: Zone) -> (summary: String, body: String) {
        (a.config.presentation.title, "Snoozed until \(a.fireTime.map { clock($0, in: zone) } ?? "later")")
    }

    /// A silent countdown that ended: the template's completion push.
    public static func completed(_ a: Alarm) -> (summary: String, body: String) {
        let p = a.config.presentation
        return (p.title, [p.completionMessage, p.subtitle].filter { !$0.isEmpty }.joined(separator: "\n"))
    }

    /// One notification for every alarm missed at once: not answered, or due while asleep or down.
    public static func missed(_ list: [Alarm], in zone: Zone) -> (summary: String, body: String) {
        // Missed alarms were due (scheduled, counting down or ringing): each has its fire time.
        let lines = list.sorted { ($0.fireTime ?? 0) < ($1.fireTime ?? 0) }.map { a in
            "\(a.config.presentation.title) — \(a.fireTime.map { clock($0, in: zone) } ?? "")\(a.state == .alerting ? ", not answered" : "")"
        }
        return (list.count == 1 ? "Missed alarm" : "Missed alarms", lines.joined(separator: "\n"))
    }

    /// The alert's actions: (key, label). `stop` always; `secondary` when a secondary button is
    /// configured; then the click (`openAction`).
    public static func actions(_ a: Alarm) -> [(String, String)] {
        let p = a.config.presentation
        var actions = [(AlertAction.stop.rawValue, p.stopButton)]
        if !p.secondaryButton.isEmpty { actions.append((AlertAction.secondary.rawValue, p.secondaryButton)) }
        return actions + openAction(a)
    }

    /// The action of a click on any of the alarm's notifications: `default`, when there is a tap
    /// action to open (`AlertAnswer.response`).
    public static func openAction(_ a: Alarm) -> [(String, String)] {
        AlertAnswer.action(.open).response(for: a).url == nil ? [] : [(AlertAction.open.rawValue, AlertAction.openLabel)]
    }
}
