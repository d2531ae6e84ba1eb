// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// One occurrence of an alarm: the alarm and the instant it was due. A snooze makes a new one.
public struct Occurrence: Hashable, Sendable, CustomStringConvertible {
    public let id: String
    public let fire: USec

    public init(id: String, fire: USec) {
        self.id = id
        self.fire = fire
    }

    public var description: String { "\(id)@\(fire)" }
}

/// Every ring the subscriber saw, per occurrence, across kills.
///
/// A *ring* is the transition into `alerting` that alarmd announces (`PropertiesChanged` with
/// `State` = `alerting` on the alarm's object). One run of alarmd announces an occurrence at most
/// once. What time causes is announced before it is written, so after a kill in between the next
/// run announces the same occurrence again: that is the same ring going on (a *re-announcement*),
/// allowed as long as nothing ended the occurrence. An occurrence ends when a Stop, snooze or Cancel
/// of it is acknowledged, or its end is announced (alarmd announces a caller's change only once it
/// is durable); after that it must never ring again.
public final class RingLedger {
    private struct Record {
        /// The runs of alarmd (numbered from 1) that announced it.
        var runs: [Int] = []
        var endedBy: String?
    }

    private var records: [Occurrence: Record] = [:]
    public private(set) var rings = 0
    public private(set) var reannounced = 0

    public init() {}

    /// A ring announced by run `run` of alarmd, received at `at`; what is wrong with it.
    public func rang(_ o: Occurrence, run: Int, at: USec) -> [(Violation.Kind, String)] {
        var out: [(Violation.Kind, String)] = []
        var r = records[o] ?? Record()
        rings += 1
        if at < o.fire { out.append((.earlyRing, "\(o) announced at \(at), \(o.fire - at) µs before its fire time")) }
        if let by = r.endedBy { out.append((.ringAfterEnd, "\(o) rang again after \(by)")) }
        if r.runs.contains(run) {
            out.append((.doubleRing, "\(o) announced twice by run \(run) of alarmd"))
        } else if !r.runs.isEmpty && r.endedBy == nil {
            reannounced += 1
        }
        r.runs.append(run)
        records[o] = r
        return out
    }

    /// The occurrence ended, durably (`by` says how: "an acknowledged Stop", …).
    public func ended(_ o: Occurrence, by: String) {
        var r = records[o] ?? Record()
        if r.endedBy == nil { r.endedBy = by }
        records[o] = r
    }

    public func hasRung(_ o: Occurrence) -> Bool { !(records[o]?.runs.isEmpty ?? true) }
}
