// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The texts of the alert notification, AlarmKit's alert presentation on the desktop, in the user's
/// language (`Language`).
public enum AlertText {
    /// The wall-clock time of `t` in `zone`, from the zone's offset, as `language` writes it: a
    /// DateFormatter per alert (ICU) was a measurable part of the time between an alarm coming due
    /// and its alert.
    static func clock(_ t: USec, in zone: Zone, _ language: any Language) -> String {
        let local = zone.wallSeconds(at: Int64(t / 1_000_000))
        let minute = (local % 86_400 + 86_400) % 86_400 / 60
        return language.time(hour: Int(minute / 60), minute: Int(minute % 60))
    }

    /// Summary and body of the notification of an alerting alarm.
    public static func alert(_ a: Alarm, in zone: Zone, _ language: any Language) -> (summary: String, body: String) {
        let p = a.config.presentation.shown(in: language)
        var lines: [String] = []
        if a.kind == .timer { lines.append(p.completionMessage) }
        if !p.subtitle.isEmpty { lines.append(p.subtitle) }
        if a.kind == .alarm, let fire = a.fireTime { lines.append(clock(fire, in: zone, language)) }
        return (p.title, lines.joined(separator: "\n"))
    }

    public static func snoozed(_ a: Alarm, in zone: Zone, _ language: any Language) -> (summary: String, body: String) {
        // Translators: %s is the time the snoozed alarm rings again, as "7:05" or "7:05 AM".
        (a.config.presentation.title, a.fireTime.map { language.say(N_("Snoozed until %s", clock($0, in: zone, language))) }
            ?? language.say(N_("Snoozed")))
    }

    /// A silent countdown that ended: the template's completion push.
    public static func completed(_ a: Alarm, _ language: any Language) -> (summary: String, body: String) {
        let p = a.config.presentation.shown(in: language)
        return (p.title, [p.completionMessage, p.subtitle].filter { !$0.isEmpty }.joined(separator: "\n"))
    }

    /// One notification for every alarm missed at once: not answered, or due while asleep or down.
    public static func missed(_ list: [Alarm], in zone: Zone, _ language: any Language) -> (summary: String, body: String) {
        // Missed alarms were due (scheduled, counting down or ringing): each has its fire time.
        let lines = list.sorted { ($0.fireTime ?? 0) < ($1.fireTime ?? 0) }.map { a in
            let title = a.config.presentation.title, time = a.fireTime.map { clock($0, in: zone, language) } ?? ""
            // Translators: a line of the missed-alarms notification: %1$s the alarm's title, %2$s its time.
            return a.state == .alerting ? language.say(N_("%1$s — %2$s, not answered", title, time))
                // Translators: a line of the missed-alarms notification: %1$s the alarm's title, %2$s its time.
                : language.say(N_("%1$s — %2$s", title, time))
        }
        // Translators: the title of the notification listing alarms that rang while nobody answered
        // or the computer was off or asleep; no number is shown.
        return (language.say(NP_("Missed alarm", "Missed alarms", list.count)), lines.joined(separator: "\n"))
    }

    /// The alert's actions: (key, label). `stop` always; `secondary` when a secondary button is
    /// configured; then the click (`openAction`).
    public static func actions(_ a: Alarm, _ language: any Language) -> [(String, String)] {
        let p = a.config.presentation.shown(in: language)
        var actions = [(AlertAction.stop.rawValue, p.stopButton)]
        if !p.secondaryButton.isEmpty { actions.append((AlertAction.secondary.rawValue, p.secondaryButton)) }
        return actions + openAction(a, language)
    }

    /// The action of a click on any of the alarm's notifications: `default`, when there is a tap
    /// action to open (`AlertAnswer.response`).
    public static func openAction(_ a: Alarm, _ language: any Language) -> [(String, String)] {
        // Translators: a notification's action that opens the app or page the alarm was set for.
        AlertAnswer.action(.open).response(for: a).url == nil ? [] : [(AlertAction.open.rawValue, language.say(NC_("button", "Open")))]
    }
}
