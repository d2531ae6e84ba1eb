// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// What a sandboxed app may not have alarmd do for it. alarmd runs outside the sandbox, as the user:
/// whatever an app sets that alarmd later opens or reads is done with the user's rights, not the
/// app's. So an app may name nothing it could not reach itself through its own portal: no file
/// path (and `SoundError` would tell it whether one exists), no URL but the web's, which the OpenURI
/// portal would also open for it (a `file:` URL, a `.desktop` entry or another scheme's handler —
/// `ghelp:`, `apt:`, `steam:` — could not be opened from the sandbox without the user choosing it).
/// Unsandboxed apps run as the user anyway: the contract's own checks suffice for them.
public enum SandboxPolicy {
    /// The schemes of the `tap_action` URLs a sandboxed app may set.
    public static let tapSchemes: Set<String> = ["http", "https"]

    /// Refuses, naming the key, what `configuration` (of `Schedule`, or the changes of `Update`)
    /// would have alarmd do beyond the sandbox.
    public static func check(_ configuration: [String: Value]) throws(AlarmError) {
        if case .string(let sound)? = configuration["sound"], sound.hasPrefix("/") {
            throw .invalidArgument(key: "sound", reason: "a sandboxed app may name a sound-theme event or one of alarmd's sounds, not a file path")
        }
        if case .string(let url)? = configuration["tap_action"] {
            let scheme = url.prefix { $0 != ":" }.lowercased()
            guard url.contains(":"), tapSchemes.contains(scheme) else {
                throw .invalidArgument(key: "tap_action", reason: "a sandboxed app may open only http: and https: URLs ('\(url.prefix(64))' is not one); open others from the app, through its portal")
            }
        }
    }
}
