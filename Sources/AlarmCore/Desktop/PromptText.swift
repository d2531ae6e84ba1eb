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
        let reason = why ?? language.say(N_("It has not said why."))
        // Translators: in the prompt, after the app's reason; %s is the app's name.
        body = reason + "\n\n" + language.say(N_("Alarms and timers from “%s” ring even when it is closed.", name))
            // Translators: in the prompt, the id that tells the app apart (such as org.gnome.Clocks); %s is it.
            + (name == id ? "" : "\n" + language.say(N_("App ID: %s", id)))
        // Translators: the prompt's buttons: let the app ring alarms, or not.
        actions = [("allow", language.say(NC_("button", "Allow"))), ("deny", language.say(NC_("button", "Don't Allow")))]
    }

    public static func == (a: PromptText, b: PromptText) -> Bool {
        a.summary == b.summary && a.body == b.body && a.actions.elementsEqual(b.actions) { $0 == $1 }
    }
}
