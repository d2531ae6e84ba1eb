// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The `Name=` of a desktop entry, for prompts that name the app as the user knows it.
public enum DesktopEntry {
    public static func displayName(_ text: String, languages: [String] = []) -> String? {
        let file = KeyFile(text)
        for lang in languages {
            if let n = file["Desktop Entry", "Name[\(lang)]"], !n.isEmpty { return n }
        }
        guard let name = file["Desktop Entry", "Name"], !name.isEmpty else { return nil }
        return name
    }
}
