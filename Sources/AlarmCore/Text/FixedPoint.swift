// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// Numbers as logs and sound properties write them: what `String(format: "%.Nf")` and `"%02x"` did,
// without Foundation's formatting (see Trimming.swift for why).

/// `value` rounded half away from zero to `digits` decimals (0…9), "-" for negatives, no exponent:
/// `fixed(2.345, digits: 1)` is "2.3", `fixed(-0.04, digits: 1)` is "-0.0" as printf has it.
public func fixed(_ value: Double, digits: Int) -> String {
    let digits = min(max(digits, 0), 9)
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale: UInt64 = 1
    for _ in 0..<digits { scale *= 10 }
    let magnitude = (abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero)
    // Beyond 2^63 a Double has no fractional digits left to print.
    guard magnitude < 9.2e18 else { return String(Int64(value.sign == .minus ? -9.2e18 : 9.2e18)) }
    let n = UInt64(magnitude)
    let whole = String(n / scale)
    var text = (value.sign == .minus ? "-" : "") + whole
    if digits > 0 {
        let frac = String(n % scale)
        text += "." + String(repeating: "0", count: digits - frac.count) + frac
    }
    return text
}

/// At least two digits, as clocks and dates write hours, minutes and days: 7 → "07", 42 → "42".
public func twoDigits(_ v: some BinaryInteger) -> String { v < 10 ? "0\(v)" : "\(v)" }

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal, two digits a byte.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in self { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
