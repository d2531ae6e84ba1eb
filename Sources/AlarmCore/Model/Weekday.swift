// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Days of the week in the contract's order (Monday first, ISO 8601).
public enum Weekday: String, CaseIterable, Codable, Sendable, Comparable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// Foundation's `Calendar` numbering: 1 = Sunday … 7 = Saturday.
    var calendarWeekday: Int {
        switch self {
        case .sunday: return 1
        case .monday: return 2
        case .tuesday: return 3
        case .wednesday: return 4
        case .thursday: return 5
        case .friday: return 6
        case .saturday: return 7
        }
    }

    public static func < (a: Weekday, b: Weekday) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
