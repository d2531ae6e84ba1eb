// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Something the daemon did that its contract forbids, with the round it was found in.
public struct Violation: Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// An acknowledged operation's effect is not in the store.
        case lostAcknowledged = "lost acknowledged operation"
        /// An operation in flight at the kill is in the store neither wholly nor not at all.
        case halfApplied = "half-applied operation"
        /// An alarm in the store that no Schedule made (or one that was gone).
        case phantom = "phantom alarm"
        /// An answer the state machine does not allow (a valid call refused, an invalid one accepted).
        case wrongAnswer = "wrong answer"
        /// One occurrence announced as ringing twice by one run of alarmd.
        case doubleRing = "double ring"
        /// An occurrence ringing again after it was stopped, snoozed or cancelled.
        case ringAfterEnd = "ring after its end"
        /// A ring announced before its fire time.
        case earlyRing = "early ring"
        /// A ring of an alarm that was not due, or at an instant nothing set.
        case unexpectedRing = "unexpected ring"
        /// A due alarm that did not ring.
        case lostRing = "lost ring"
        /// `PRAGMA integrity_check` did not say ok.
        case corruptStore = "corrupt store"
        /// alarmd died by itself, dropped a caller, or logged an error.
        case daemonFailure = "daemon failure"
    }

    public let kind: Kind
    public let round: Int
    public let detail: String

    public init(_ kind: Kind, round: Int, _ detail: String) {
        self.kind = kind
        self.round = round
        self.detail = detail
    }

    public var description: String { "round \(round): \(kind.rawValue): \(detail)" }
}
