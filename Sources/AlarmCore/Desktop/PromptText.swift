// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The question alarmd asks before an app may ring: AlarmKit's authorization prompt, as a
/// notification with Allow and Don't Allow, in the user's language. Plain text: the shell escapes it.
public struct PromptText: Sendable, Equatable {
    public let summary: String
    public let body: String
    /// (action key, label): `allow` and `deny`, the keys the prompter answers.
    public let actions: [(String, String)]

    /// - Parameters:
    ///   - name: what the app's desktop entry calls it; `id` where it has none.
    ///   - id: the app's id, shown as well when the name differs: a sandbox's exported desktop entry
    ///     may give any name ("Firefox"), while its id is what the sandbox proves.
    public init(app name: String, id: String, why: String?, _ language: any Language) {
        // Translators: the title of the prompt asking whether an app may ring alarms; %s is the app's name.
        summary = language.say(N_("Allow “%s” to ring alarms?", name))
        // Translators: in the prompt, in place of the reason an app gives for ringing alarms when it gave none.
        let reason = why.map(PromptText.oneLine) ?? language.say(N_("It has not said why."))
        // alarmd's own line comes first, and the app's text is one line: an app cannot push the id
        // out of sight, nor forge an "App ID" line of its own above it.
        // Translators: in the prompt, the id that tells the app apart (such as org.gnome.Clocks); %s is it.
        body = (name == id ? "" : language.say(N_("App ID: %s", id)) + "\n")
            + reason + "\n\n"
            // Translators: in the prompt, after the app's reason; %s is the app's name.
            + language.say(N_("Alarms and timers from “%s” ring even when it is closed.", name))
        // Translators: the prompt's buttons: let the app ring alarms, or not.
        actions = [("allow", language.say(NC_("button", "Allow"))), ("deny", language.say(NC_("button", "Don't Allow")))]
    }

    /// The app's text with every run of white space (line breaks included) as one space.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }

    public static func == (a: PromptText, b: PromptText) -> Bool {
        a.summary == b.summary && a.body == b.body && a.actions.elementsEqual(b.actions) { $0 == $1 }
    }
}
