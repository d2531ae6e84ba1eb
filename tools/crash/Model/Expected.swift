// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// The three kinds of alarm the harness keeps, chosen so that what time does to them is predictable
/// while wall time runs on: `far` one-shot alarms days ahead never change by themselves, `long`
/// timers (hours) only count down, and `short` timers (a second or two) come due during the run so
/// that ringing can be checked.
public enum AlarmClass: String, Sendable, CaseIterable {
    case far, long, short
}

/// Where an alarm is in time, as far as its owner can know: the daemon's "now" of each call is only
/// known to lie between the call's sending and its answer, so instants are ranges.
public enum Timing: Equatable, Sendable {
    /// A far alarm waiting for its fixed date.
    case scheduled(fire: USec)
    /// Counting down to an instant in `fire`; a short timer alerts at it, with that same fire time.
    case counting(fire: ClosedRange<USec>, total: USec)
    /// Paused with this much of `total` counted.
    case paused(elapsed: ClosedRange<USec>, total: USec)
    /// Ringing: the occurrence that was due at `fire`.
    case alerting(fire: USec)
}

/// What the store must hold for one alarm after every acknowledged operation on it.
public struct Expected: Equatable, Sendable {
    public var cls: AlarmClass
    public var title: String
    public var subtitle: String
    public var status: String = ""
    /// The number of the operation that last set the configuration, kept in `metadata["op"]`: it
    /// tells which of two configurations the store holds.
    public var tag: Int64
    public var fixedDate: Int64?
    public var duration: UInt64?
    public var postAlert: UInt32
    public var timing: Timing

    public init(cls: AlarmClass, title: String, subtitle: String, status: String = "", tag: Int64, fixedDate: Int64?,
                duration: UInt64?, postAlert: UInt32, timing: Timing) {
        self.cls = cls
        self.title = title
        self.subtitle = subtitle
        self.status = status
        self.tag = tag
        self.fixedDate = fixedDate
        self.duration = duration
        self.postAlert = postAlert
        self.timing = timing
    }

    /// Clock readings on two sides of one call agree to the microsecond in principle; this absorbs
    /// the rounding of two clock reads, nothing a user could notice.
    public static let tolerance: USec = 1_000

    /// How the alarm `o` (its properties as `GetAlarms` gives them, read during `read`) differs from
    /// this expectation; empty when it is this alarm.
    public func differences(from o: [String: Value], read: ClosedRange<USec>) -> [String] {
        var out: [String] = []
        func check(_ what: String, _ seen: String, _ wanted: String) {
            if seen != wanted { out.append("\(what) \(seen.debugDescription), expected \(wanted.debugDescription)") }
        }
        let presentation = Observed.dict(o["Presentation"])
        check("Kind", Observed.string(o["Kind"]), cls == .far ? "alarm" : "timer")
        check("title", Observed.string(presentation["title"]), title)
        check("subtitle", Observed.string(presentation["subtitle"]), subtitle)
        check("status", Observed.string(presentation["status"]), status)
        check("metadata op", Observed.dict(o["Metadata"])["op"]?.integerValue.map { String($0) } ?? "none", String(tag))
        let schedule = Observed.dict(o["Schedule"])
        if let fixedDate { check("fixed_date", schedule["fixed_date"]?.integerValue.map { String($0) } ?? "none", String(fixedDate)) }
        if let duration { check("duration", schedule["duration"]?.integerValue.map { String($0) } ?? "none", String(duration)) }
        check("PostAlert", String(Observed.uint(o["PostAlert"])), String(postAlert))

        let state = Observed.string(o["State"]), fire = Observed.uint(o["FireTimeUSec"])
        func within(_ v: USec, _ r: ClosedRange<USec>) -> Bool {
            v + Expected.tolerance >= r.lowerBound && v <= r.upperBound + Expected.tolerance
        }
        switch timing {
        case .scheduled(let f):
            check("State", state, "scheduled")
            if fire != f { out.append("FireTimeUSec \(fire), expected \(f)") }
        case .counting(let range, let total):
            if Observed.uint(o["CountdownTotalUSec"]) != total {
                out.append("CountdownTotalUSec \(Observed.uint(o["CountdownTotalUSec"])), expected \(total)")
            }
            if cls == .short && state == "alerting" {
                // Due while nobody looked: it rings the occurrence it counted down to, never early.
                if fire > read.upperBound { out.append("alerting before its fire time \(fire)") }
            } else {
                check("State", state, "countdown")
            }
            if !within(fire, range) { out.append("FireTimeUSec \(fire), expected \(range.lowerBound)…\(range.upperBound)") }
        case .paused(let range, let total):
            check("State", state, "paused")
            if fire != 0 { out.append("FireTimeUSec \(fire) while paused") }
            if Observed.uint(o["CountdownTotalUSec"]) != total {
                out.append("CountdownTotalUSec \(Observed.uint(o["CountdownTotalUSec"])), expected \(total)")
            }
            let elapsed = Observed.uint(o["ElapsedUSec"])
            if !within(elapsed, range) { out.append("ElapsedUSec \(elapsed), expected \(range.lowerBound)…\(range.upperBound)") }
        case .alerting(let f):
            check("State", state, "alerting")
            if fire != f { out.append("FireTimeUSec \(fire), expected the ringing occurrence \(f)") }
        }
        return out
    }

    /// This expectation narrowed to the exact instants the store showed (which matched it).
    public func narrowed(by o: [String: Value]) -> Expected {
        var e = self
        let fire = Observed.uint(o["FireTimeUSec"])
        switch timing {
        case .counting(_, let total):
            e.timing = Observed.string(o["State"]) == "alerting" ? .alerting(fire: fire) : .counting(fire: fire...fire, total: total)
        case .paused(_, let total):
            let elapsed = Observed.uint(o["ElapsedUSec"])
            e.timing = .paused(elapsed: elapsed...elapsed, total: total)
        case .scheduled, .alerting:
            break
        }
        return e
    }

    /// What the store shows, taken as the truth: after a violation is reported, later rounds go on
    /// from there instead of repeating it.
    public init?(observed o: [String: Value]) {
        let presentation = Observed.dict(o["Presentation"]), schedule = Observed.dict(o["Schedule"])
        let fire = Observed.uint(o["FireTimeUSec"]), total = Observed.uint(o["CountdownTotalUSec"])
        let fixed = schedule["fixed_date"]?.integerValue
        let duration = schedule["duration"]?.integerValue.map { UInt64(max(0, $0)) }
        let cls: AlarmClass = fixed != nil ? .far : (duration ?? 0) >= 3600 ? .long : .short
        let timing: Timing
        switch Observed.string(o["State"]) {
        case "scheduled": timing = .scheduled(fire: fire)
        case "countdown": timing = .counting(fire: fire...fire, total: total)
        case "paused":
            let e = Observed.uint(o["ElapsedUSec"])
            timing = .paused(elapsed: e...e, total: total)
        case "alerting": timing = .alerting(fire: fire)
        default: return nil
        }
        self.init(cls: cls, title: Observed.string(presentation["title"]), subtitle: Observed.string(presentation["subtitle"]),
                  status: Observed.string(presentation["status"]), tag: Observed.dict(o["Metadata"])["op"]?.integerValue ?? -1,
                  fixedDate: fixed, duration: duration, postAlert: UInt32(Observed.uint(o["PostAlert"])), timing: timing)
    }
}

/// Reading the property maps of `GetAlarms`.
public enum Observed {
    public static func string(_ v: Value?) -> String { v?.unwrapped.stringValue ?? "" }

    public static func uint(_ v: Value?) -> UInt64 {
        switch v?.unwrapped {
        case .uint64(let x)?: return x
        case .uint32(let x)?: return UInt64(x)
        default: return 0
        }
    }

    public static func dict(_ v: Value?) -> [String: Value] {
        Dictionary(v?.unwrapped.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
    }

    /// One `GetAlarms` reply as alarm id → properties.
    public static func alarms(_ reply: [Value]) -> [String: [String: Value]] {
        guard case .array(_, let items)? = reply.first else { return [:] }
        var out: [String: [String: Value]] = [:]
        for item in items {
            let props = Dictionary(item.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
            out[string(props["Id"])] = props
        }
        return out
    }
}
