// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The countdown template's duration strings: plain seconds (`"1500"`) or unit groups in
/// descending order, each at most once (`"30s"`, `"5m"`, `"1h30m"`, `"2d"`); surrounding spaces and
/// tabs are ignored, line ends are not. The clients parse typed timers by the same rule, in gjs and
/// C++ too: Tests/cases/client-rules.json holds the cases all of them are tested on.
public enum DurationGrammar {
    /// The longest timer accepted: five years of 365.25 days.
    public static let maximumSeconds: UInt64 = 157_788_000

    public enum Failure: Error, Equatable, Sendable {
        case empty
        case malformed(String)
        case zero
        case tooLong
    }

    public static func parse(_ text: String) -> Result<UInt64, Failure> {
        let s = trimmingSpaces(text)
        if s.isEmpty { return .failure(.empty) }
        if s.allSatisfy(\.isASCIIDigit) {
            return bounded(digits: Substring(s), unit: 1)
        }
        let units: [(Character, UInt64)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        var total: UInt64 = 0
        var nextUnit = 0
        var digits = Substring()
        var rest = Substring(s)
        while let c = rest.first {
            rest = rest.dropFirst()
            if c.isASCIIDigit {
                digits.append(c)
                continue
            }
            guard !digits.isEmpty,
                  let index = units[nextUnit...].firstIndex(where: { $0.0 == c }) else {
                return .failure(.malformed(s))
            }
            switch bounded(digits: digits, unit: units[index].1, allowZero: true) {
            case .failure(let f): return .failure(f)
            case .success(let part): total = total.plusSaturating(part)
            }
            nextUnit = index + 1
            digits = Substring()
        }
        if !digits.isEmpty { return .failure(.malformed(s)) }
        if total == 0 { return .failure(.zero) }
        if total > maximumSeconds { return .failure(.tooLong) }
        return .success(total)
    }

    /// `text` without the spaces (Unicode Zs) and tabs it starts and ends with: as the clients trim
    /// (gjs `[\t\p{Zs}]`), so a line end (`"5m\n"`) is malformed everywhere.
    static func trimmingSpaces(_ text: String) -> String {
        let isSpace = { (c: Unicode.Scalar) in c == "\t" || c.properties.generalCategory == .spaceSeparator }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }

    private static func bounded(digits: Substring, unit: UInt64, allowZero: Bool = false) -> Result<UInt64, Failure> {
        // More than 12 digits is beyond five years in any unit: refuse before it can overflow.
        guard digits.count <= 12, let n = UInt64(digits) else { return .failure(.tooLong) }
        let seconds = n.multipliedReportingOverflow(by: unit)
        if seconds.overflow || seconds.partialValue > maximumSeconds { return .failure(.tooLong) }
        if seconds.partialValue == 0 && !allowZero { return .failure(.zero) }
        return .success(seconds.partialValue)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension DurationGrammar.Failure: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: return "is empty"
        case .malformed(let s): return "'\(s)' is not a duration (expected seconds such as \"1500\" or units such as \"30s\", \"5m\", \"1h30m\")"
        case .zero: return "must be longer than zero"
        case .tooLong: return "must be at most five years"
        }
    }
}
