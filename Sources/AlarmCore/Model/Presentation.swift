// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// What an applet or notification shows for an alarm: the AlarmKit presentation (alert, countdown,
/// paused) merged with the countdown template's fields. Every field has a default.
public struct Presentation: Codable, Equatable, Sendable {
    public var title: String = ""
    var subtitle: String = ""
    var status: String = ""
    public var icon: String = ""
    /// Empty = the theme's colour.
    var accentColor: String = ""
    var backgroundColor: String = ""
    var textColor: String = ""
    var compactLabel: String = ""
    var stopButton: String = "Stop"
    /// Empty = no secondary button.
    var secondaryButton: String = ""
    var secondaryButtonBehavior: SecondaryBehavior = .countdown
    var countdownTitle: String = ""
    var pauseButton: String = "Pause"
    var pausedTitle: String = "Paused"
    var resumeButton: String = "Resume"
    var stopAction: String = ""
    var secondaryAction: String = ""
    var tapAction: String = ""
    /// Seconds before the end when `Phase` becomes `warning`; 0 = never.
    var warningThreshold: UInt32 = 0
    var completionMessage: String = "Completed"

    enum SecondaryBehavior: String, Codable, Sendable {
        case countdown
        case custom
    }

    init() {}

    /// The `Presentation` property, every key with its default filled in.
    public var entries: [(String, Value)] {
        Presentation.fields.map { ($0.key, $0.value(of: self)) }
    }
}

// MARK: the key table

extension Presentation {
    /// How the parser checks a text key's value (`AlarmConfiguration.parse`).
    enum TextCheck: Equatable, Sendable {
        /// Required, and not blank.
        case title
        /// Any text without control characters, of at most `max` characters.
        case text(max: Int)
        /// A freedesktop icon name or an `mdi:` name.
        case icon
        /// A colour name, #RRGGBB or #RRGGBBAA.
        case color
        /// A GAction name.
        case action
        /// A GAction name, required when `secondary_button_behavior` is `custom`.
        case secondaryAction
        /// A URL whose scheme may be opened.
        case url
    }

    /// One text field: its configuration key (its key in the `Presentation` property too), where it
    /// lives, how it is checked, and its tag in the store's `Extras` (nil for the title, which the
    /// configuration keeps apart). Its default is the one its declaration above gives.
    struct TextField: Sendable {
        let key: String
        let path: WritableKeyPath<Presentation, String> & Sendable
        let check: TextCheck
        let tag: UInt8?
        let initial: String

        init(_ key: String, _ path: WritableKeyPath<Presentation, String> & Sendable, _ check: TextCheck = .text(max: AlarmConfiguration.maxTextLength),
             tag: UInt8?) {
            self.key = key
            self.path = path
            self.check = check
            self.tag = tag
            initial = Presentation()[keyPath: path]
        }
    }

    /// One key of the `Presentation` property.
    enum Field: Sendable {
        case text(TextField)
        case secondaryButtonBehavior
        case warningThreshold

        var key: String {
            switch self {
            case .text(let f): return f.key
            case .secondaryButtonBehavior: return "secondary_button_behavior"
            case .warningThreshold: return "warning_threshold"
            }
        }

        func value(of p: Presentation) -> Value {
            switch self {
            case .text(let f): return .string(p[keyPath: f.path])
            case .secondaryButtonBehavior: return .string(p.secondaryButtonBehavior.rawValue)
            case .warningThreshold: return .uint32(p.warningThreshold)
            }
        }
    }

    /// Every key of the `Presentation` property (docs/API.md, "Presentation keys"), in the order the
    /// property lists them and the parser checks them (the first bad key is the one reported). The
    /// store's tags are fixed forever: a new text takes the next free tag (18), wherever its row stands.
    static let fields: [Field] = [
        .text(.init("title", \.title, .title, tag: nil)),
        .text(.init("subtitle", \.subtitle, tag: 1)),
        .text(.init("status", \.status, tag: 2)),
        .text(.init("icon", \.icon, .icon, tag: 3)),
        .text(.init("accent_color", \.accentColor, .color, tag: 4)),
        .text(.init("background_color", \.backgroundColor, .color, tag: 5)),
        .text(.init("text_color", \.textColor, .color, tag: 6)),
        .text(.init("compact_label", \.compactLabel, .text(max: 4), tag: 7)),
        .text(.init("stop_button", \.stopButton, tag: 8)),
        .text(.init("secondary_button", \.secondaryButton, tag: 9)),
        .secondaryButtonBehavior,
        .text(.init("countdown_title", \.countdownTitle, tag: 10)),
        .text(.init("pause_button", \.pauseButton, tag: 11)),
        .text(.init("paused_title", \.pausedTitle, tag: 12)),
        .text(.init("resume_button", \.resumeButton, tag: 13)),
        .text(.init("stop_action", \.stopAction, .action, tag: 14)),
        .text(.init("secondary_action", \.secondaryAction, .secondaryAction, tag: 15)),
        .text(.init("tap_action", \.tapAction, .url, tag: 16)),
        .warningThreshold,
        .text(.init("completion_message", \.completionMessage, .text(max: AlarmConfiguration.maxCompletionLength), tag: 17)),
    ]

    /// The texts the store keeps in `Extras`, in ascending tag order.
    static let storedTexts: [TextField] = fields.compactMap { field in
        if case .text(let f) = field, f.tag != nil { return f }
        return nil
    }.sorted { $0.tag! < $1.tag! }
}

// MARK: the standard texts, in the user's language

extension Presentation {
    /// The texts alarmd gives an alarm whose app gave none (the defaults above, and the Snooze of the
    /// user's own alarms, `AlarmEngine.userSnoozeButton`). The store keeps a default as no text at all,
    /// so a field that reads as its English default is one: alarmd shows it in the user's language,
    /// in notifications and in the `Presentation` property alike (docs/API.md, "Languages").
    static let standardTexts: [(path: WritableKeyPath<Presentation, String> & Sendable, english: String, message: Phrase)] = [
        // Translators: the button that silences a ringing alarm or timer.
        (\.stopButton, "Stop", NC_("button", "Stop")),
        // Translators: the button that silences a ringing alarm and rings it again in a few minutes.
        (\.secondaryButton, AlarmEngine.userSnoozeButton, NC_("button", "Snooze")),
        // Translators: the button that pauses a running timer.
        (\.pauseButton, "Pause", NC_("button", "Pause")),
        // Translators: a paused timer's title, shown instead of its time left.
        (\.pausedTitle, "Paused", NC_("timer state", "Paused")),
        // Translators: the button that lets a paused timer run again.
        (\.resumeButton, "Resume", NC_("button", "Resume")),
        // Translators: what a timer's notification says when it has run out.
        (\.completionMessage, "Completed", NC_("timer state", "Completed")),
    ]

    /// This presentation as a person reads it in `language`: each standard text in that language,
    /// every text the app gave as it gave it.
    public func shown(in language: any Language) -> Presentation {
        var p = self
        for t in Self.standardTexts where p[keyPath: t.path] == t.english {
            p[keyPath: t.path] = language.say(t.message)
        }
        return p
    }
}
