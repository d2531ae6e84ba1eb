// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// What one method call or one timer expiry changes, computed before anything is applied so the
/// shell can persist it first and reply only once it is durable.
public struct Mutation: Sendable {
    public struct Removal: Sendable {
        public var alarm: Alarm
        public var reason: RemovalReason

        public init(alarm: Alarm, reason: RemovalReason) {
            self.alarm = alarm
            self.reason = reason
        }
    }

    public var upserts: [Alarm] = []
    public var removals: [Removal] = []
    public var authorizations: [(app: String, state: AuthorizationState)] = []
    /// Alarms whose alert ended because nobody answered (as they were while alerting).
    var timedOut: [Alarm] = []
    /// Alarms found due too late to ring (as they were), for one "Missed alarm" notification.
    var missed: [Alarm] = []
    /// Alarms snoozed by `Countdown` (as opposed to re-armed by `Update`).
    var snoozed: Set<String> = []
    /// The local zone's new rules, for a zone change.
    public var timeZone: Zone?

    public init() {}

    public var isEmpty: Bool { upserts.isEmpty && removals.isEmpty && authorizations.isEmpty && timeZone == nil }

    mutating func record(_ outcome: StepOutcome) {
        switch outcome {
        case .keep(let a): upserts.append(a)
        case .remove(let a, let reason): removals.append(Removal(alarm: a, reason: reason))
        }
    }
}

enum StepOutcome {
    case keep(Alarm)
    case remove(Alarm, RemovalReason)

    var alarm: Alarm {
        switch self {
        case .keep(let a), .remove(let a, _): return a
        }
    }

    var isRemoval: Bool {
        if case .remove = self { return true }
        return false
    }
}
