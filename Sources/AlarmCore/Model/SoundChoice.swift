// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// What an alarm's `sound` plays: a sound-theme event or a file.
public enum SoundChoice: Equatable, Sendable {
    case event(String)
    case file(String)

    /// The freedesktop sound-theme event of `default`.
    static let defaultEvent = "alarm-clock-elapsed"

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
