import Foundation

/// What an alarm's `sound` plays: a sound-theme event or a file.
public enum SoundChoice: Equatable, Sendable {
    case event(String)
    case file(String)

    /// The freedesktop sound-theme event of `default`.
    public static let defaultEvent = "alarm-clock-elapsed"

    /// `default` → the theme's alarm event; an absolute path → that file; a name of one of alarmd's
    /// own sounds (`<dir>/<name>.oga` in a sounds directory) → that file; anything else → a theme event.
    public static func resolve(_ sound: String, soundDirectories: [String], exists: (String) -> Bool) -> SoundChoice {
        if sound == "default" || sound.isEmpty { return .event(defaultEvent) }
        if sound.hasPrefix("/") { return .file(sound) }
        for dir in soundDirectories {
            let path = dir + "/" + sound + ".oga"
            if exists(path) { return .file(path) }
        }
        return .event(sound)
    }
}

/// `volume_ramp`: the sound grows from quiet to full, linearly in decibels (which the ear hears as
/// an even rise), so a sleeper is woken gently and still surely.
public enum VolumeRamp {
    /// Where a ramp starts: quiet but audible.
    public static let startDecibels = -30.0

    /// The volume for a loop that starts `elapsed` seconds into the alert.
    public static func decibels(elapsed: Double, ramp: UInt32) -> Double {
        guard ramp > 0 else { return 0 }
        let f = min(1, max(0, elapsed / Double(ramp)))
        // + 0 turns the -0.0 of the last step into 0.
        return startDecibels * (1 - f) + 0
    }
}

/// The texts of the alert notification, AlarmKit's alert presentation on the desktop.
public enum AlertText {
    public static func clock(_ t: USec, in zone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_GB")
        f.timeZone = zone
        f.dateFormat = "HH:mm"
        return f.string(from: Date(timeIntervalSince1970: Double(t) / 1_000_000))
    }

    /// Summary and body of the notification of an alerting alarm.
    public static func alert(_ a: Alarm, in zone: TimeZone) -> (summary: String, body: String) {
        let p = a.config.presentation
        var lines: [String] = []
        if a.kind == .timer { lines.append(p.completionMessage) }
        if !p.subtitle.isEmpty { lines.append(p.subtitle) }
        if a.kind == .alarm { lines.append(clock(a.fireTime, in: zone)) }
        return (p.title, lines.joined(separator: "\n"))
    }

    public static func snoozed(_ a: Alarm, in zone: TimeZone) -> (summary: String, body: String) {
        (a.config.presentation.title, "Snoozed until \(clock(a.fireTime, in: zone))")
    }

    /// A silent countdown that ended: the template's completion push.
    public static func completed(_ a: Alarm) -> (summary: String, body: String) {
        let p = a.config.presentation
        return (p.title, [p.completionMessage, p.subtitle].filter { !$0.isEmpty }.joined(separator: "\n"))
    }

    /// One notification for every alarm missed at once: not answered, or due while asleep or down.
    public static func missed(_ list: [Alarm], in zone: TimeZone) -> (summary: String, body: String) {
        let lines = list.sorted { $0.fireTime < $1.fireTime }.map { a in
            "\(a.config.presentation.title) — \(clock(a.fireTime, in: zone))\(a.state == .alerting ? ", not answered" : "")"
        }
        return (list.count == 1 ? "Missed alarm" : "Missed alarms", lines.joined(separator: "\n"))
    }

    /// The notification's actions: (key, label). `stop` always; `secondary` when a secondary button
    /// is configured; `default` (a click on the notification) when there is a tap action.
    public static func actions(_ a: Alarm) -> [(String, String)] {
        let p = a.config.presentation
        var actions = [("stop", p.stopButton)]
        if !p.secondaryButton.isEmpty { actions.append(("secondary", p.secondaryButton)) }
        if !p.tapAction.isEmpty { actions.append(("default", "Open")) }
        return actions
    }
}
