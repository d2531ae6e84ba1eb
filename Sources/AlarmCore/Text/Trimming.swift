// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// Text operations alarmd needs and the standard library lacks. Foundation's versions
// (`trimmingCharacters(in:)`, `String(format:)`) live in the part of Foundation that brings ICU,
// which neither alarmd nor alarmctl links (docs/API.md, "Time zones").

extension StringProtocol {
    /// The text without the white space (Unicode `White_Space`: spaces, tabs, line ends) it starts
    /// and ends with.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}
