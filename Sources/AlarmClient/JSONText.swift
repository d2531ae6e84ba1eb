// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// JSON as alarmctl and the panel stream write it: keys sorted (output diffs well), `/` not
/// escaped, on one line or indented. Written here because Foundation's `JSONSerialization` lives in
/// the part of Foundation that brings ICU, which alarmctl does not link; values are the Swift ones
/// `JSONSerialization` took.
public enum JSONText {
    /// `null`, where `NSNull()` was.
    public struct Null: Sendable {
        /// The JSON `null`; ``JSONText/null`` is one.
        public init() {}
    }
    /// The JSON `null`, to put in an array or dictionary.
    public static let null = Null()

    /// `value` as JSON: `String`, `Bool`, integers, `Double` (not finite: `null`), `Null`, arrays
    /// of these and `[String: …]` dictionaries of these; nil for anything else.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - pretty: Whether to indent, two spaces a level, one element or key per line; else one
    ///     line with no spaces.
    /// - Returns: The JSON text, without a final newline; nil when `value` holds anything else.
    public static func text(_ value: Any, pretty: Bool = false) -> String? {
        var out = ""
        return write(value, into: &out, pretty: pretty, indent: 0) ? out : nil
    }

    private static func write(_ value: Any, into out: inout String, pretty: Bool, indent: Int) -> Bool {
        switch value {
        case let s as String: quote(s, into: &out)
        case let b as Bool: out += b ? "true" : "false"
        case let n as Int: out += String(n)
        case let n as Int64: out += String(n)
        case let n as Int32: out += String(n)
        case let n as UInt64: out += String(n)
        case let n as UInt32: out += String(n)
        case let n as UInt8: out += String(n)
        case let d as Double: out += number(d)
        case is Null: out += "null"
        case let items as [Any]:
            if items.isEmpty { out += "[]"; return true }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                guard write(item, into: &out, pretty: pretty, indent: indent + 1) else { return false }
            }
            if pretty { newline(&out, indent) }
            out += "]"
        case let object as [String: Any]:
            if object.isEmpty { out += "{}"; return true }
            out += "{"
            for (i, key) in object.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                quote(key, into: &out)
                out += pretty ? " : " : ":"
                guard write(object[key]!, into: &out, pretty: pretty, indent: indent + 1) else { return false }
            }
            if pretty { newline(&out, indent) }
            out += "}"
        default: return false
        }
        return true
    }

    private static func newline(_ out: inout String, _ depth: Int) {
        out += "\n" + String(repeating: "  ", count: depth)
    }

    /// Integral values without a fraction ("3"), others as Swift prints them, shortest first.
    private static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
