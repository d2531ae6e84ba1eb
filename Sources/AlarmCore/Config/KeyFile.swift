// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The INI dialect of freedesktop key files (`.desktop`, `.flatpak-info`) and of `alarmd.conf`:
/// `[Group]` headers, `key = value` lines, `#`/`;` comments.
public struct KeyFile: Sendable {
    struct Problem: Equatable, Sendable {
        let line: Int
        let message: String
    }

    /// group → key → value; the first occurrence of a key wins, as in GLib's key files.
    private(set) var groups: [String: [String: String]] = [:]
    private(set) var problems: [Problem] = []
    /// (group, key, line) in file order, for reporting.
    private(set) var entries: [(group: String, key: String, value: String, line: Int)] = []

    public init(_ text: String) {
        var group: String?
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingWhitespace()
            let n = i + 1
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    problems.append(Problem(line: n, message: "malformed group header '\(line)'"))
                    group = nil
                    continue
                }
                group = String(line.dropFirst().dropLast())
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                problems.append(Problem(line: n, message: "expected 'key = value', got '\(line)'"))
                continue
            }
            guard let g = group else {
                problems.append(Problem(line: n, message: "'\(line)' is outside any [group]"))
                continue
            }
            let key = line[..<eq].trimmingWhitespace()
            let value = line[line.index(after: eq)...].trimmingWhitespace()
            if key.isEmpty {
                problems.append(Problem(line: n, message: "missing key before '='"))
                continue
            }
            entries.append((g, key, value, n))
            if groups[g]?[key] == nil { groups[g, default: [:]][key] = value }
        }
    }

    public subscript(group: String, key: String) -> String? { groups[group]?[key] }
}
