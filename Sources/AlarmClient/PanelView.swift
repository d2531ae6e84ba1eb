// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import FoundationEssentials

/// What a panel module shows, computed from the mirror and the clock alone (a pure function, so every
/// panel format and the tests agree on it).
///
/// ``make(alarms:running:now:zone:language:)`` makes one; ``PanelFormat`` writes it as a panel reads it.
/// What each panel shows, and how to set one up, is in docs/user-guide.md ("Panels").
public struct PanelView: Equatable, Sendable {
    /// The module's class: waybar styles by it, i3bar and polybar colour by it.
    public enum Mode: String, Sendable {
        /// Nothing to show: no alarm, or alarmd is not running.
        case idle
        /// The next alarm, by its time.
        case scheduled
        /// A countdown, running or paused.
        case countdown
        /// A countdown in its warning phase.
        case warning
        /// An alarm is ringing.
        case alerting
    }

    /// What is shown, which decides the style.
    public var mode: Mode
    /// The full text: a ringing alarm's title (`🔔 Get up`, `🔔 Get up +1` with one more ringing), a
    /// countdown's label and time (`Tea 4:59`), or the next alarm's time (`⏰ 07:30`); `⏰ off` while
    /// alarmd is not running; empty when there is nothing to show.
    public var text: String
    /// For narrow slots: the compact label (or icon glyph) and the time alone.
    public var shortText: String
    /// Every alarm, one line each, by when it fires; `alarmd is not running` while it is not.
    public var tooltip: String
    /// Countdown progress 0–100.
    public var percentage: Int
    /// `#rrggbb` from the alarm's `accent_color`; nil for the theme's.
    public var color: String?
    /// The alarm's `icon` (freedesktop or `mdi:` name), for panels that map names to glyphs.
    public var icon: String
    /// The alarm shown, for click actions.
    public var alarmId: String?
    /// The shown alarm's state, which decides what a click does
    /// (``PanelClick/action(forState:)``); nil when none is shown, or its state is one this
    /// library does not know (a click then does nothing).
    public var alarmState: AlarmState?
    /// Whether the text changes with the clock (a running countdown is shown): redraw every second.
    public var ticking: Bool

    /// The glyph before a ringing alarm.
    public static let alerting = "🔔"
    /// The glyph before the next alarm's time, and before `off`.
    public static let scheduledGlyph = "⏰"
    /// The glyph before a paused countdown.
    public static let pausedGlyph = "⏸"

    /// What the panel shows for `alarms` at `now`: a ringing alarm, else the countdown that ends
    /// first (or a paused one), else the next alarm.
    ///
    /// - Parameters:
    ///   - alarms: Every alarm the caller sees, in any order (``AlarmMirror/alarms``).
    ///   - running: Whether alarmd is running (``AlarmMirror/running``).
    ///   - now: The current time, in realtime µs.
    ///   - zone: The zone times are shown in.
    ///   - language: The words a person reads on the bar (the class and the click actions stay).
    /// - Returns: The view; draw it again when the mirror changes, and every second while
    ///   ``ticking``.
    public static func make(alarms: [AlarmSnapshot], running: Bool, now: USec, zone: Zone = .local,
                            language: any Language = English()) -> PanelView {
        var v = PanelView(mode: .idle, text: "", shortText: "", tooltip: "", percentage: 0, color: nil, icon: "",
                          alarmId: nil, alarmState: nil, ticking: false)
        guard running else {
            // Translators: on the panel after the alarm-clock glyph while alarmd is not running: "⏰ off".
            v.text = "\(scheduledGlyph) " + language.say(NC_("panel", "off"))
            v.shortText = v.text
            v.tooltip = language.say(N_("alarmd is not running"))
            return v
        }
        let byTime = alarms.sorted { ($0.fireTime, $0.id) < ($1.fireTime, $1.id) }
        v.tooltip = byTime.map { tooltipLine($0, now: now, zone: zone, language) }.joined(separator: "\n")
        let ringing = byTime.filter(\.isAlerting)
        let counting = byTime.filter(\.isCountingDown).sorted { ($0.remaining(at: now), $0.id) < ($1.remaining(at: now), $1.id) }
        let paused = byTime.filter(\.isPaused)
        if let a = ringing.first {
            v.mode = .alerting
            v.text = "\(alerting) \(label(a, compact: false, language))" + (ringing.count > 1 ? " +\(ringing.count - 1)" : "")
            v.shortText = "\(alerting) \(label(a, compact: true, language))"
            v.percentage = 100
            v.color = ColorName.hex(a.accentColor) ?? ColorName.hex("red")
            v.show(a)
        } else if let a = counting.first ?? paused.first {
            v.mode = a.isWarning ? .warning : .countdown
            let time = TimeText.clock(a.remaining(at: now), language: language)
            let glyph = a.isPaused ? "\(pausedGlyph) " : ""
            v.text = "\(glyph)\(label(a, compact: true, language)) \(time)"
            v.shortText = "\(glyph)\(time)"
            v.percentage = Int((a.progress(at: now) * 100).rounded(.down))
            v.color = ColorName.hex(a.accentColor)
            v.ticking = a.isCountingDown
            v.show(a)
        } else if let a = byTime.first(where: \.enabled) {
            v.mode = .scheduled
            v.text = "\(scheduledGlyph) \(TimeText.local(a.fireTime, now: now, zone: zone, language: language))"
            v.shortText = v.text
            v.color = ColorName.hex(a.accentColor)
            v.show(a)
        }
        return v
    }

    private mutating func show(_ a: AlarmSnapshot) {
        alarmId = a.id
        alarmState = a.state
        icon = a.icon
    }

    /// The compact label where one is set (the template's tiny-slot text), else the title.
    static func label(_ a: AlarmSnapshot, compact: Bool, _ language: any Language) -> String {
        // Translators: the title of a timer or an alarm that has none of its own.
        let title = a.title.isEmpty ? language.say(a.isTimer ? NC_("default title", "Timer") : NC_("default title", "Alarm")) : a.title
        if compact, !a.compactLabel.isEmpty { return a.compactLabel }
        return cut(title, to: 24)
    }

    /// `s` if it has at most `n` code points, else its first `n - 1` and "…", the cut moved back to
    /// before a combining mark or zero width joiner it would part from its neighbour. Code points, as
    /// the GNOME Shell extension and the Plasma applet count (Tests/cases/client-rules.json), so that
    /// all three cut a title in the same place.
    static func cut(_ s: String, to n: Int) -> String {
        let scalars = Array(s.unicodeScalars)
        guard scalars.count > n else { return s }
        let joiner: Unicode.Scalar = "\u{200D}"
        func isMark(_ c: Unicode.Scalar) -> Bool {
            switch c.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return false
            }
        }
        var end = n - 1
        while end > 0, isMark(scalars[end]) || scalars[end] == joiner || scalars[end - 1] == joiner { end -= 1 }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[..<end])
        return String(out) + "…"
    }

    static func tooltipLine(_ a: AlarmSnapshot, now: USec, zone: Zone, _ language: any Language) -> String {
        let title = label(a, compact: false, language)
        let left = TimeText.clock(a.remaining(at: now), language: language)
        switch a.state {
        // Translators: a panel tooltip's line; %s is the alarm's title.
        case .alerting?: return "\(alerting) " + language.say(N_("%s: ringing", title))
        case .countdown?:
            // Translators: a panel tooltip's line: %1$s the title, %2$s the time left ("4:49"), in the warning phase.
            return a.isWarning ? language.say(N_("%1$s: %2$s left (warning)", title, left))
                // Translators: a panel tooltip's line: %1$s the title, %2$s the time left ("4:49").
                : language.say(N_("%1$s: %2$s left", title, left))
        // Translators: a panel tooltip's line: %1$s the title, %2$s the time left ("4:49").
        case .paused?: return language.say(N_("%1$s: paused, %2$s left", title, left))
        case .scheduled?, nil:
            let days = TimeText.days(a.weekdays, language: language)
            if !a.enabled {
                // Translators: a panel tooltip's line of an alarm switched off: %s the title.
                if days.isEmpty { return language.say(N_("%s: off", title)) }
                // Translators: a panel tooltip's line of an alarm switched off: %1$s the title, %2$s its days ("mon-fri").
                return language.say(N_("%1$s: off (%2$s)", title, days))
            }
            let when = TimeText.local(a.fireTime, now: now, zone: zone, language: language)
            // Translators: a panel tooltip's line: %1$s the title, %2$s when it rings ("Tue 07:30").
            if days.isEmpty { return language.say(N_("%1$s: %2$s", title, when)) }
            // Translators: a panel tooltip's line: %1$s the title, %2$s when it rings ("Tue 07:30"), %3$s its days ("mon-fri").
            return language.say(N_("%1$s: %2$s (%3$s)", title, when, days))
        }
    }
}

/// The line formats of panel modules.
///
/// Their names are those `alarmctl panel --format` takes.
public enum PanelFormat: String, CaseIterable, Sendable {
    /// waybar's custom module with `return-type: json`: one JSON object a line, `text` and `tooltip`
    /// escaped for Pango markup, `class` the ``PanelView/Mode-swift.enum``, `alt` the icon,
    /// `percentage`.
    case waybar
    /// The i3bar protocol (also swaybar's): ``PanelFormat/i3barHeader`` first, then one array of
    /// blocks a line, each block's `instance` the alarm's id for clicks.
    case i3bar
    /// polybar's `custom/script` with `tail = true`: the text with colour tags and click actions.
    case polybar
    /// The text alone.
    case plain

    /// i3bar's protocol header and the opening of its endless array.
    public static let i3barHeader = "{\"version\":1,\"click_events\":true}\n["

    /// One line for `view`.
    ///
    /// - Parameters:
    ///   - view: What to show.
    ///   - command: How the panel runs alarmctl for polybar's click actions, which add the action
    ///     and the alarm's id (its colons are escaped here); the other formats ignore it.
    ///   - first: For i3bar, whether this is the first array after the header; the others start
    ///     with the comma that separates them.
    /// - Returns: The line, without its newline; for polybar and plain, empty when there is nothing
    ///   to show.
    public func line(_ view: PanelView, command: String = "alarmctl", first: Bool = true) -> String {
        switch self {
        case .plain:
            return view.text
        case .waybar:
            // waybar renders custom modules' text as Pango markup.
            let object: [String: Any] = ["text": PanelFormat.markup(view.text), "alt": view.icon,
                                         "tooltip": PanelFormat.markup(view.tooltip), "class": view.mode.rawValue,
                                         "percentage": view.percentage]
            return PanelFormat.json(object)
        case .i3bar:
            var blocks: [[String: Any]] = []
            if !view.text.isEmpty {
                var b: [String: Any] = ["name": "alarmd", "instance": view.alarmId ?? "alarmd",
                                        "full_text": view.text, "short_text": view.shortText,
                                        "urgent": view.mode == .alerting, "separator": true]
                if let c = view.color { b["color"] = c }
                blocks.append(b)
            }
            return (first ? "" : ",") + PanelFormat.json(blocks)
        case .polybar:
            guard !view.text.isEmpty else { return "" }
            // Polybar reads %{…} as formatting tags even inside text.
            var out = view.text.replacing("%{", with: "% {")
            // A ringing alarm stands out as i3bar's urgent blocks do: white on its colour.
            if view.mode == .alerting, let c = view.color {
                out = "%{B\(c)}%{F#ffffff} \(out) %{F-}%{B-}"
            } else if let c = view.color {
                out = "%{F\(c)}\(out)%{F-}"
            }
            if let id = view.alarmId {
                let cmd = command.replacing(":", with: "\\:")
                // The clicks i3bar's stream would act on, as polybar's action tags around the text.
                let clicks = [1, 3].compactMap { button in
                    PanelClick(instance: id, button: button).action(forState: view.alarmState).map { (button, $0) }
                }
                out = clicks.map { "%{A\($0.0):\(cmd) \($0.1.command) \(id):}" }.joined() + out
                    + String(repeating: "%{A}", count: clicks.count)
            }
            return out
        }
    }

    static func markup(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;")
    }

    static func json(_ object: Any) -> String { JSONText.text(object) ?? "{}" }
}

/// A click from i3bar (its protocol's click event, one JSON object per line on stdin).
public struct PanelClick: Equatable, Sendable {
    /// The clicked block's `instance`: the id of the alarm it showed (`alarmd` when none).
    public var instance: String
    /// The mouse button, as i3bar numbers them: 1 left, 2 middle, 3 right.
    public var button: Int

    init(instance: String, button: Int) {
        self.instance = instance
        self.button = button
    }

    /// Parses one line of the click stream: the opening `[` and separating commas are skipped.
    ///
    /// - Parameter line: One line i3bar wrote to standard input.
    /// - Returns: nil for a line that is not a click on alarmd's block.
    public init?(line: String) {
        var s = Substring(line.trimmingWhitespace())
        while let c = s.first, c == "[" || c == "," { s = s.dropFirst() }
        struct Event: Decodable { var name: String?; var instance: String?; var button: Int? }
        guard !s.isEmpty, let event = try? JSONDecoder().decode(Event.self, from: Data(s.utf8)),
              event.name == "alarmd", let instance = event.instance, let button = event.button else { return nil }
        self.instance = instance
        self.button = button
    }

    /// What a click asks of the alarm: one ``AlarmManagerProxy`` call each.
    public enum Action: Equatable, Sendable {
        /// ``AlarmManagerProxy/stop(_:)``.
        case stop
        /// ``AlarmManagerProxy/countdown(_:)``.
        case snooze
        /// ``AlarmManagerProxy/pause(_:)``.
        case pause
        /// ``AlarmManagerProxy/resume(_:)``.
        case resume

        /// The alarmctl command that does it (`alarmctl stop ID`).
        var command: String {
            switch self {
            case .stop: return "stop"
            case .snooze: return "snooze"
            case .pause: return "pause"
            case .resume: return "resume"
            }
        }
    }

    /// Left click stops a ringing alarm (and pauses or resumes a countdown); right click snoozes.
    ///
    /// - Parameter state: The clicked alarm's state now (``AlarmSnapshot/state``); nil for a state
    ///   this library does not know.
    /// - Returns: What to do; nil when the click does nothing in that state.
    public func action(forState state: AlarmState?) -> Action? {
        switch (button, state) {
        case (1, .alerting?): return .stop
        case (3, .alerting?): return .snooze
        case (1, .countdown?): return .pause
        case (1, .paused?): return .resume
        default: return nil
        }
    }
}
