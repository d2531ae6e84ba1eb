// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The contract's errors. The shell maps each case to its D-Bus error name unchanged.
public enum AlarmError: Error, Equatable, Sendable {
    case notAuthorized(String)
    case notFound(String)
    case invalidState(String)
    /// `key` names the offending configuration key or argument.
    case invalidArgument(key: String, reason: String)
    case alreadyExists(String)
    case limitReached(String)
    /// The change could not be made durable; nothing was changed.
    case ioError(String)
    /// The answer would not fit in one D-Bus message; the message says how to page.
    case tooLarge(String)

    public var name: String {
        switch self {
        case .notAuthorized: return Contract.ErrorName.notAuthorized
        case .notFound: return Contract.ErrorName.notFound
        case .invalidState: return Contract.ErrorName.invalidState
        case .invalidArgument: return Contract.ErrorName.invalidArgument
        case .alreadyExists: return Contract.ErrorName.alreadyExists
        case .limitReached: return Contract.ErrorName.limitReached
        case .ioError: return Contract.ErrorName.ioError
        case .tooLarge: return Contract.ErrorName.limitsExceeded
        }
    }

    /// At most `maxMessageBytes`: messages quote what the caller sent (a key, a day name), and a
    /// key of 60 MB went back as the reply and into the log.
    public var message: String {
        switch self {
        case .notAuthorized(let m), .notFound(let m), .invalidState(let m), .alreadyExists(let m),
             .limitReached(let m), .ioError(let m), .tooLarge(let m):
            return Self.bounded(m)
        case .invalidArgument(let key, let reason):
            return Self.bounded(Self.bounded(key, 256) + ": " + reason)
        }
    }

    static let maxMessageBytes = 1024

    /// `s` cut after at most `limit` bytes of whole scalars, marked with "…" when cut.
    static func bounded(_ s: String, _ limit: Int = maxMessageBytes) -> String {
        guard s.utf8.count > limit else { return s }
        var out = String.UnicodeScalarView()
        var bytes = 0
        for u in s.unicodeScalars {
            bytes += u.utf8.count
            if bytes > limit { break }
            out.append(u)
        }
        return String(out) + "…"
    }

    static func bad(_ key: String, _ reason: String) -> AlarmError { .invalidArgument(key: key, reason: reason) }
}
