// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// How an alarm rings on a phone: through feedbackd (`org.sigxcpu.Feedback`), which vibrates, lights
/// the LED and plays the theme's sound, and which lets an app on its `allow-important` list ring
/// through the silent and quiet profiles (docs/design/phosh-and-lockscreen.md §3).
public enum PhoneFeedback {
    /// alarmd's desktop entry (`org.alarmd.Alarmd.desktop`): the id feedbackd's allow-list must name
    /// exactly, and the entry whose `X-Phosh-Lockscreen-Actions` puts Stop and Snooze on Phosh's lock
    /// screen.
    public static let appId = "org.alarmd.Alarmd"

    /// The feedback theme's event: its sound, vibration pattern and LED.
    public static func event(for kind: AlarmKind) -> String {
        kind == .timer ? "timeout-completed" : "alarm-clock-elapsed"
    }

    /// The hints of `TriggerFeedback`: always `important` (the silent switch must not silence an
    /// alarm); the alarm's own sound file, when it has one, in place of the theme's.
    public static func hints(soundFile: String?) -> [(String, Value)] {
        var hints: [(String, Value)] = [("important", .bool(true))]
        if let soundFile { hints.append(("sound-file", .string(soundFile))) }
        return hints
    }

    /// `TriggerFeedback`'s timeout: 0 loops the feedback until `EndFeedback`, which alarmd sends at
    /// Stop, Snooze or the ring timeout (the engine's, which knows the alarm's own).
    public static let loopUntilEnded: Int32 = 0

    /// Why feedbackd ended a feedback (`FeedbackEnded`'s reason; feedbackd's `FbdEventEndReason`).
    public enum EndReason: Equatable, Sendable {
        /// Nothing in the theme applies at the current level (-1, sent in a `u`): the app is not
        /// allowed `important` and the profile is silent, or there is no such event.
        case nothingToPlay
        /// It ran its course (0), or its timeout expired (1).
        case ran
        /// Ended by `EndFeedback`, or by feedbackd itself: a profile switch ends even an important feedback (2).
        case ended
        case other(UInt32)

        public init(_ code: UInt32) {
            switch code {
            case UInt32.max: self = .nothingToPlay
            case 0, 1: self = .ran
            case 2: self = .ended
            default: self = .other(code)
            }
        }
    }

    /// What a ringing alarm does when its feedback ends without alarmd asking.
    public enum AfterEnd: Equatable, Sendable {
        /// Ring again through feedbackd: the user flipped a switch, and an alarm still rings through it.
        case triggerAgain
        /// Ring through libcanberra instead: feedbackd plays nothing for it, or gave up too often.
        case ringWithoutFeedbackd
    }

    /// At most this many unasked ends of one ring are answered by a new feedback; past it, feedbackd
    /// keeps ending it (a theme that plays nothing, a loop of switches) and libcanberra rings instead.
    public static let triggersPerRing = 5

    public static func afterEnd(_ reason: EndReason, triggered: Int) -> AfterEnd {
        if reason == .nothingToPlay || triggered >= triggersPerRing { return .ringWithoutFeedbackd }
        return .triggerAgain
    }
}

/// Putting alarmd on feedbackd's `allow-important` list (GSettings `org.sigxcpu.feedbackd`) once: the
/// package's schema override lists it by default; a list the user set themselves (which hides that
/// default) gains alarmd's id, keeping everything on it. An id the user took off after alarmd added it
/// stays off: the user's list is theirs.
public enum AllowImportant {
    public enum Plan: Equatable, Sendable {
        /// alarmd is on the list: nothing to do.
        case listed
        /// Write this list (the current one with alarmd's id appended) and remember having done it.
        case add([String])
        /// alarmd added itself before and the list no longer has it: the user took it off.
        case takenOff
        /// The user set no list, and the default lacks alarmd: the package's schema override is not
        /// installed or not compiled (or another package's override sorts after it). Writing the
        /// default out as the user's list would freeze it, so alarmd says so instead.
        case missingFromDefault
    }

    /// `userSet`: the list is the user's own value, not the schema's default.
    public static func plan(current: [String], userSet: Bool, addedBefore: Bool, id: String = PhoneFeedback.appId) -> Plan {
        if current.contains(id) { return .listed }
        if addedBefore { return .takenOff }
        return userSet ? .add(current + [id]) : .missingFromDefault
    }
}

/// The ringing alert on Phosh's lock screen (docs/design/phosh-and-lockscreen.md §1): Phosh puts an
/// app's buttons there only as the desktop entry named by the `desktop-entry` hint lists them
/// (`X-Phosh-Lockscreen-Actions`, a prefix match on action keys), and shows the body only then. An
/// app's own entry lists its own actions, if any, so the ringing alert names alarmd's, which lists
/// Stop and the secondary button; the app's name stays in the text. And since alarmd rings through
/// feedbackd itself, phosh is asked for no feedback of its own (`x-phosh-fb-profile`, read after
/// `suppress-sound`, which alone would still vibrate at the quiet level).
public enum PhoshAlert {
    /// `GetServerInformation`'s name and vendor as Phosh 0.46 to 0.58 answer ("Phosh Notify Daemon", "Phosh").
    public static func isPhosh(name: String, vendor: String) -> Bool { vendor == "Phosh" || name.hasPrefix("Phosh") }

    public static func hints(_ hints: [(String, Value)]) -> [(String, Value)] {
        hints.filter { $0.0 != "desktop-entry" && $0.0 != "x-phosh-fb-profile" }
            + [("desktop-entry", .string(PhoneFeedback.appId)), ("x-phosh-fb-profile", .string("none"))]
    }
}
