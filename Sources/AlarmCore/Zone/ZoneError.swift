// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Why bytes are not a zone: typed, so that a damaged or hostile file is a value, never a crash.
public enum ZoneError: Error, Sendable, Hashable {
    /// Not a TZif file: no `TZif` magic.
    case notTZif
    /// Ends before the part named (offset of the byte that was needed).
    case truncated(at: Int)
    /// A header count that cannot be (`typecnt` 0, `isstdcnt` neither 0 nor `typecnt`, …).
    case badCounts(String)
    /// A transition names a type that does not exist.
    case badTypeIndex(Int)
    /// Transition times not strictly ascending.
    case unorderedTransitions(at: Int)
    /// A local time type that cannot be (offset −2³¹, `isdst` not 0/1, abbreviation index out of range).
    case badType(Int)
    /// The footer is not `\n…\n`.
    case badFooter
    /// A POSIX TZ rule that cannot be parsed.
    case badRule(String)
}
