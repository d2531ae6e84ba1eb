// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// What an applet or notification shows for an alarm: the AlarmKit presentation (alert, countdown,
/// paused) merged with the countdown template's fields. Every field has a default.
public struct Presentation: Codable, Equatable, Sendable {
    public var title: String = ""
    public var subtitle: String = ""
    public var status: String = ""
    public var icon: String = ""
    /// Empty = the theme's colour.
    public var accentColor: String = ""
    public var backgroundColor: String = ""
    public var textColor: String = ""
    public var compactLabel: String = ""
    public var stopButton: String = "Stop"
    /// Empty = no secondary button.
    public var secondaryButton: String = ""
    public var secondaryButtonBehavior: SecondaryBehavior = .countdown
    public var countdownTitle: String = ""
    public var pauseButton: String = "Pause"
    public var pausedTitle: String = "Paused"
    public var resumeButton: String = "Resume"
    public var stopAction: String = ""
    public var secondaryAction: String = ""
    public var tapAction: String = ""
    /// Seconds before the end when `Phase` becomes `warning`; 0 = never.
    public var warningThreshold: UInt32 = 0
    public var completionMessage: String = "Completed"

    public enum SecondaryBehavior: String, Codable, Sendable {
        case countdown
        case custom
    }

    public init() {}

    /// The `Presentation` property, every key with its default filled in.
    public var entries: [(String, Value)] {
        [
            ("title", .string(title)),
            ("subtitle", .string(subtitle)),
            ("status", .string(status)),
            ("icon", .string(icon)),
            ("accent_color", .string(accentColor)),
            ("background_color", .string(backgroundColor)),
            ("text_color", .string(textColor)),
            ("compact_label", .string(compactLabel)),
            ("stop_button", .string(stopButton)),
            ("secondary_button", .string(secondaryButton)),
            ("secondary_button_behavior", .string(secondaryButtonBehavior.rawValue)),
            ("countdown_title", .string(countdownTitle)),
            ("pause_button", .string(pauseButton)),
            ("paused_title", .string(pausedTitle)),
            ("resume_button", .string(resumeButton)),
            ("stop_action", .string(stopAction)),
            ("secondary_action", .string(secondaryAction)),
            ("tap_action", .string(tapAction)),
            ("warning_threshold", .uint32(warningThreshold)),
            ("completion_message", .string(completionMessage)),
        ]
    }
}
