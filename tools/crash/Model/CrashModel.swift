// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// What the clients know must be true of the store, built only from what they sent and what they
/// were answered, and the judge of what the restarted daemon shows.
///
/// Each alarm has at most one call in flight, so its expectation is the composition of the
/// acknowledged calls, plus, after a kill, the one call left unanswered: that one may have taken
/// effect wholly or not at all, and the store decides which.
public final class CrashModel {
    /// Figures of the run.
    public struct Tally: Sendable {
        public var sent = 0
        /// Calls answered with success.
        public var acknowledged = 0
        /// Calls answered with the error the contract prescribes (an invalid transition, …).
        public var refusedAsExpected = 0
        public var inFlightAtKill = 0
        /// Of those: found wholly applied, or not at all, after the restart.
        public var appliedAtKill = 0
        public var notAppliedAtKill = 0
        public var stops = 0
        public var snoozes = 0
        /// Alarms compared with the store after a restart, and found as expected.
        public var alarmsVerified = 0
        /// Occurrences found ringing by a read after a restart rather than announced.
        public var ringingAtRestart = 0
        /// Announced rings that broke no rule.
        public var ringsFine = 0
    }

    /// The round violations are reported in.
    public var round = 0
    public private(set) var tally = Tally()
    public private(set) var violations: [Violation] = []
    public let ledger = RingLedger()

    private final class Tracked {
        let id: String
        let owner: Int
        let cls: AlarmClass
        /// nil: absent (not yet created, or gone).
        var current: Expected?
        /// What `current` was before the last acknowledged change: a ring announced before that
        /// change reaches this process on the subscriber's connection, possibly after the answer.
        var previous: Expected?
        var inFlight: (op: Call, sent: USec)?
        /// The call in flight when alarmd was killed, with the window in which it may have run.
        var unresolved: (op: Call, window: ClosedRange<USec>)?
        /// After a wrong answer, the next verification takes the store's word for it.
        var unknown = false

        init(id: String, owner: Int, cls: AlarmClass) {
            self.id = id
            self.owner = owner
            self.cls = cls
        }
    }

    private var tracked: [String: Tracked] = [:]
    /// Each owner's alarms in the order they were made: choices iterate this, never a dictionary,
    /// so that a seed replays the same choices.
    private var order: [Int: [String]] = [:]
    /// Alarms verified gone: one that comes back is a phantom.
    private var gone: Set<String> = []

    public init() {}

    public func report(_ kind: Violation.Kind, _ detail: String) {
        violations.append(Violation(kind, round: round, detail))
    }

    // MARK: what clients may do next

    /// The owner's alarms that exist as far as it knows, oldest first, and whether each may be
    /// acted on now (no call in flight on it, nothing left to resolve).
    public func alarms(of owner: Int) -> [(id: String, cls: AlarmClass, expected: Expected?, free: Bool)] {
        (order[owner] ?? []).compactMap { id in
            guard let t = tracked[id] else { return nil }
            return (id, t.cls, t.current, t.inFlight == nil && t.unresolved == nil && !t.unknown)
        }
    }

    public func expected(_ id: String) -> Expected? { tracked[id]?.current }

    /// Calls in flight of all owners.
    public var inFlight: Int { tracked.values.reduce(0) { $0 + ($1.inFlight == nil ? 0 : 1) } }

    // MARK: calls

    public func sent(_ op: Call, at: USec) {
        let t: Tracked
        if let existing = tracked[op.id] {
            t = existing
        } else {
            guard case .schedule(let cls, _, _, _, _, _) = op.action else { return }
            t = Tracked(id: op.id, owner: op.owner, cls: cls)
            tracked[op.id] = t
            order[op.owner, default: []].append(op.id)
        }
        precondition(t.inFlight == nil && t.unresolved == nil, "one call at a time per alarm")
        t.inFlight = (op, at)
        tally.sent += 1
    }

    /// The call was answered at `at`: success when `error` is nil, else that D-Bus error name.
    public func answered(_ op: Call, at: USec, error: String?) {
        guard let t = tracked[op.id], let f = t.inFlight, f.op.number == op.number else { return }
        t.inFlight = nil
        let prediction = op.predict(t.current, window: f.sent...max(at, f.sent))
        switch (prediction, error) {
        case (.becomes(let after), nil):
            tally.acknowledged += 1
            if let fire = op.ends(t.current) {
                ledger.ended(Occurrence(id: op.id, fire: fire), by: "an acknowledged \(op.member)")
            }
            if case .stop = op.action { tally.stops += 1 }
            if case .snooze = op.action { tally.snoozes += 1 }
            t.previous = t.current
            t.current = after
        case (.refused(let wanted), let got?) where wanted == got:
            tally.refusedAsExpected += 1
        case (.refused(let wanted), nil):
            report(.wrongAnswer, "#\(op.number) \(op.member) \(op.id) was accepted; the state machine refuses it (\(wanted))")
            t.unknown = true
        case (.becomes, let got?), (.refused, let got?):
            report(.wrongAnswer, "#\(op.number) \(op.member) \(op.id) was refused with \(got); expected \(prediction)")
            t.unknown = true
        }
    }

    /// No answer came: alarmd was killed at `killedAt` with the call in flight.
    public func unanswered(_ op: Call, killedAt: USec) {
        guard let t = tracked[op.id], let f = t.inFlight, f.op.number == op.number else { return }
        t.inFlight = nil
        t.unresolved = (op, f.sent...max(killedAt, f.sent))
        tally.inFlightAtKill += 1
    }

    // MARK: rings (from the subscriber)

    /// Run `run` of alarmd announced `id` ringing for the occurrence due at `fire`, received at `at`.
    public func rang(_ id: String, fire: USec, run: Int, at: USec) {
        let o = Occurrence(id: id, fire: fire)
        let before = violations.count
        if let t = tracked[id] {
            if t.cls != .short {
                report(.unexpectedRing, "\(o): a \(t.cls.rawValue) alarm rang")
            } else if !couldRing(t, fire: fire, announcedBy: at) {
                report(.unexpectedRing, "\(o): no acknowledged or pending call made it due then (expected \(t.current.map { "\($0.timing)" } ?? "none"))")
            }
            if case .counting(let range, _)? = t.current?.timing, CrashModel.within(fire, range) {
                t.current?.timing = .alerting(fire: fire)
            }
        } else {
            report(.unexpectedRing, "\(o): an alarm no client has")
        }
        for (kind, detail) in ledger.rang(o, run: run, at: at) { report(kind, detail) }
        if violations.count == before { tally.ringsFine += 1 }
    }

    /// alarmd announced that the occurrence stopped ringing (removed, or snoozed): it did so only
    /// once the change was durable.
    public func ringEnded(_ id: String, fire: USec) {
        ledger.ended(Occurrence(id: id, fire: fire), by: "its end was announced")
    }

    /// `AlarmRemoved` with `reason`: only callers remove alarms here (no timeouts, nothing missed).
    public func removed(_ id: String, reason: String) {
        switch reason {
        case "cancelled", "stopped": break
        case "missed", "timeout": report(.lostRing, "\(id) removed as \(reason)")
        default: report(.daemonFailure, "\(id) removed for an unexpected reason: \(reason)")
        }
    }

    private static func within(_ v: USec, _ r: ClosedRange<USec>) -> Bool {
        v + Expected.tolerance >= r.lowerBound && v <= r.upperBound + Expected.tolerance
    }

    /// Whether any expectation the alarm may have had counts down to `fire`, announced by `at`.
    private func couldRing(_ t: Tracked, fire: USec, announcedBy at: USec) -> Bool {
        var candidates = [t.current, t.previous]
        if let f = t.inFlight, case .becomes(let e) = f.op.predict(t.current, window: f.sent...max(at, f.sent)) { candidates.append(e) }
        if let u = t.unresolved, case .becomes(let e) = u.op.predict(t.current, window: u.window) { candidates.append(e) }
        return candidates.contains { e in
            switch e?.timing {
            case .counting(let range, _)?: return CrashModel.within(fire, range)
            case .alerting(let f)?: return f == fire
            default: return false
            }
        }
    }

    // MARK: verification

    /// Compares the owner's alarms in the store (`observed`, read during `read`) with what its calls
    /// left: resolves every call that was in flight at the kill, and takes the exact instants.
    /// A short timer still counting down more than `lateSlack` after its fire time did not ring.
    public func verify(owner: Int, observed: [String: [String: Value]], read: ClosedRange<USec>, lateSlack: USec) {
        for id in order[owner] ?? [] {
            guard let t = tracked[id] else { continue }
            let o = observed[id]
            if let o, t.cls == .short, Observed.string(o["State"]) == "countdown",
               Observed.uint(o["FireTimeUSec"]) + lateSlack < read.lowerBound {
                report(.lostRing, "\(id) still counting down \(read.lowerBound - Observed.uint(o["FireTimeUSec"])) µs after its fire time")
            }
            if let o, Observed.string(o["State"]) == "alerting", case .counting? = t.current?.timing {
                tally.ringingAtRestart += 1
            }
            defer {
                t.unresolved = nil
                t.previous = nil
                if t.current == nil {
                    tracked[id] = nil
                    gone.insert(id)
                }
            }
            if t.unknown {
                t.unknown = false
                t.current = o.flatMap { Expected(observed: $0) }
                continue
            }
            let before = differences(t.current, o, read)
            var after: (Expected?, [String])?
            if let u = t.unresolved, case .becomes(let e) = u.op.predict(t.current, window: u.window) {
                after = (e, differences(e, o, read))
            }
            if before.isEmpty {
                if t.unresolved != nil { tally.notAppliedAtKill += 1 }
                t.current = t.current.flatMap { e in o.map { e.narrowed(by: $0) } }
                tally.alarmsVerified += 1
            } else if let (e, diff) = after, diff.isEmpty, let u = t.unresolved {
                tally.appliedAtKill += 1
                if let fire = u.op.ends(t.current) {
                    ledger.ended(Occurrence(id: id, fire: fire), by: "a \(u.op.member) that took effect though unanswered")
                }
                t.current = e.flatMap { e in o.map { e.narrowed(by: $0) } }
                tally.alarmsVerified += 1
            } else {
                if let u = t.unresolved {
                    report(.halfApplied, "#\(u.op.number) \(u.op.member) \(id), in flight at the kill, is neither wholly applied (\((after?.1 ?? ["refused by the contract"]).joined(separator: "; "))) nor not at all (\(before.joined(separator: "; ")))")
                } else {
                    report(.lostAcknowledged, "\(id): \(before.joined(separator: "; "))")
                }
                t.current = o.flatMap { Expected(observed: $0) }
            }
        }
        for (id, o) in observed.sorted(by: { $0.key < $1.key }) where tracked[id]?.owner != owner {
            report(.phantom, gone.contains(id) ? "\(id) is back after it was gone" : "\(id): no Schedule of this client made it")
            // Adopted, so that it is reported once.
            if tracked[id] == nil, let e = Expected(observed: o) {
                let t = Tracked(id: id, owner: owner, cls: e.cls)
                t.current = e
                tracked[id] = t
                order[owner, default: []].append(id)
                gone.remove(id)
            }
        }
        order[owner] = order[owner]?.filter { tracked[$0] != nil }
    }

    private func differences(_ e: Expected?, _ o: [String: Value]?, _ read: ClosedRange<USec>) -> [String] {
        switch (e, o) {
        case (nil, nil): return []
        case (nil, _?): return ["present, expected gone"]
        case (_?, nil): return ["absent"]
        case (let e?, let o?): return e.differences(from: o, read: read)
        }
    }
}
