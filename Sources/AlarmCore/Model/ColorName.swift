// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The named colours accepted besides hex: SwiftUI's system colours (AlarmKit `tintColor`) and the
/// CSS basic colours.
public enum ColorName {
    static let names: Set<String> = [
        "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink", "brown",
        "white", "gray", "grey", "black", "clear", "primary", "secondary", "accent",
        "silver", "maroon", "olive", "lime", "aqua", "navy", "fuchsia", "magenta",
    ]

    static func isValid(_ s: String) -> Bool {
        if names.contains(s.lowercased()) { return true }
        guard s.hasPrefix("#") else { return false }
        let hex = s.dropFirst()
        return (hex.count == 6 || hex.count == 8) && hex.unicodeScalars.allSatisfy(\.properties.isASCIIHexDigit)
    }
}

extension ColorName {
    /// `#rrggbb` for a colour a panel can draw: named colours as Apple's system palette and CSS give
    /// them, hex as given (alpha dropped); nil for "the theme's" (empty, clear, primary, …).
    public static func hex(_ s: String) -> String? {
        let palette: [String: String] = [
            "red": "#ff3b30", "orange": "#ff9500", "yellow": "#ffcc00", "green": "#34c759", "mint": "#00c7be",
            "teal": "#30b0c7", "cyan": "#32ade6", "blue": "#007aff", "indigo": "#5856d6", "purple": "#af52de",
            "pink": "#ff2d55", "brown": "#a2845e", "white": "#ffffff", "gray": "#8e8e93", "grey": "#8e8e93",
            "black": "#000000", "silver": "#c0c0c0", "maroon": "#800000", "olive": "#808000", "lime": "#00ff00",
            "aqua": "#00ffff", "navy": "#000080", "fuchsia": "#ff00ff", "magenta": "#ff00ff",
        ]
        let lower = s.lowercased()
        if let named = palette[lower] { return named }
        guard isValid(lower), lower.hasPrefix("#") else { return nil }
        return String(lower.prefix(7))
    }
}
