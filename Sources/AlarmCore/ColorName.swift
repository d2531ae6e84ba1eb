/// The named colours accepted besides hex: SwiftUI's system colours (AlarmKit `tintColor`) and the
/// CSS basic colours.
public enum ColorName {
    public static let names: Set<String> = [
        "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink", "brown",
        "white", "gray", "grey", "black", "clear", "primary", "secondary", "accent",
        "silver", "maroon", "olive", "lime", "aqua", "navy", "fuchsia", "magenta",
    ]

    public static func isValid(_ s: String) -> Bool {
        if names.contains(s.lowercased()) { return true }
        guard s.hasPrefix("#") else { return false }
        let hex = s.dropFirst()
        return (hex.count == 6 || hex.count == 8) && hex.unicodeScalars.allSatisfy(\.properties.isASCIIHexDigit)
    }
}
