// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// feedbackd 0.8.2 (`org.sigxcpu.Feedback`) as its D-Bus API and its decision rule are
/// (docs/design/phosh-and-lockscreen.md §3, from `fbd-feedback-manager.c`): an event's level is the hint's
/// profile (default full) when it is `important` and the app id is exactly on `allow-important`, else the
/// lowest of the global profile and the hint's; at that level the default theme has feedbacks for
/// `alarm-clock-elapsed` and `timeout-completed` in full and quiet, none in silent. With none,
/// `FeedbackEnded(id, -1)` goes out at once (here before the reply, the order that asks most of a client);
/// `EndFeedback` ends with reason 2; a switch to a lower profile ends every running feedback above it,
/// important ones included, with reason 2. The real feedbackd runs in the Phosh suite
/// (Tests/desktop/phosh); this one lets the integration tests play the user's profile switch.
/// Control (`org.alarmd.TestFeedback`): `Feedbacks` lists every trigger, `SetProfile` switches.
final class FakeFeedbackd: BusObject {
    struct Record {
        let id: UInt32
        let appId: String
        let event: String
        let hints: [(String, Value)]
        let timeout: Int32
        let level: Int
        var endReason: UInt32?
        var endCalls = 0
    }

    static let levels = ["silent", "quiet", "full"]
    static let themed: Set<String> = ["alarm-clock-elapsed", "timeout-completed"]

    let bus: Bus
    var profile: Int
    let allowed: [String]
    var records: [Record] = []
    var nextId: UInt32 = 1

    init(bus: Bus, profile: String, allowed: [String]) {
        self.bus = bus
        self.profile = FakeFeedbackd.levels.firstIndex(of: profile) ?? 2
        self.allowed = allowed
    }

    private func trigger(_ a: [Value]) throws(BusError) -> MethodResult {
        guard a.count == 4, case .string(let app) = a[0], case .string(let event) = a[1], let hints = a[2].vardictEntries,
              case .int32(let timeout) = a[3] else {
            throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "bad TriggerFeedback")
        }
        let hinted = hints.first { $0.0 == "profile" }?.1.unwrapped.stringValue.flatMap { FakeFeedbackd.levels.firstIndex(of: $0) } ?? 2
        let important = hints.contains { $0.0 == "important" && $0.1.unwrapped == .bool(true) }
        let level = important && allowed.contains(app) ? hinted : min(profile, hinted)
        var r = Record(id: nextId, appId: app, event: event, hints: hints, timeout: timeout, level: level)
        nextId += 1
        if level == 0 || !FakeFeedbackd.themed.contains(event) {
            r.endReason = UInt32.max
            emitEnded(r.id, UInt32.max)
        }
        records.append(r)
        return .reply([.uint32(r.id)])
    }

    private func end(_ a: [Value]) -> MethodResult {
        guard case .uint32(let id)? = a.first, let i = records.firstIndex(where: { $0.id == id }) else { return .reply([]) }
        records[i].endCalls += 1
        if records[i].endReason == nil {
            records[i].endReason = 2
            emitEnded(id, 2)
        }
        return .reply([])
    }

    private func setProfile(_ a: [Value]) throws(BusError) -> MethodResult {
        guard case .string(let name)? = a.first, let p = FakeFeedbackd.levels.firstIndex(of: name) else {
            throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "no such profile")
        }
        profile = p
        for i in records.indices where records[i].endReason == nil && records[i].level > p {
            records[i].endReason = 2
            emitEnded(records[i].id, 2)
        }
        return .reply([])
    }

    private func listed() -> MethodResult {
        .reply([.array(element: "a{sv}", records.map { r in
            .vardict([("id", .uint32(r.id)), ("app_id", .string(r.appId)), ("event", .string(r.event)), ("hints", .vardict(r.hints)),
                      ("timeout", .int32(r.timeout)), ("level", .string(FakeFeedbackd.levels[r.level])),
                      ("ended", .bool(r.endReason != nil)), ("end_reason", .uint32(r.endReason ?? 0)),
                      ("end_calls", .uint32(UInt32(r.endCalls)))])
        })])
    }

    private func emitEnded(_ id: UInt32, _ reason: UInt32) {
        try? bus.emit(FakeFeedbackd.feedbackEnded, of: FakeFeedbackd.feedback, path: "/org/sigxcpu/Feedback", [.uint32(id), .uint32(reason)])
    }
}

extension FakeFeedbackd {
    static let feedbackEnded = Interface<FakeFeedbackd>.Signal("FeedbackEnded", [("id", "u"), ("reason", "u")])

    static let feedback = Interface<FakeFeedbackd>("org.sigxcpu.Feedback", methods: [
        .init("TriggerFeedback", in: [("app_id", "s"), ("event", "s"), ("hints", "a{sv}"), ("timeout", "i")], out: [("id", "u")]) { peer, call throws(BusError) in
            try peer.trigger(call.args)
        },
        .init("EndFeedback", in: [("id", "u")]) { peer, call throws(BusError) in peer.end(call.args) },
    ], properties: [
        .init("Profile", "s", .computed) { peer, _ in .string(FakeFeedbackd.levels[peer.profile]) },
    ], signals: [feedbackEnded])

    static let control = Interface<FakeFeedbackd>("org.alarmd.TestFeedback", methods: [
        .init("Feedbacks", out: [("feedbacks", "aa{sv}")]) { peer, _ throws(BusError) in peer.listed() },
        .init("SetProfile", in: [("profile", "s")]) { peer, call throws(BusError) in try peer.setProfile(call.args) },
    ])

    static func serve(on bus: Bus, profile: String, allowed: [String]) throws(BusError) -> FakeFeedbackd {
        let peer = FakeFeedbackd(bus: bus, profile: profile, allowed: allowed)
        try bus.export(peer, path: "/org/sigxcpu/Feedback", feedback)
        try bus.export(peer, path: "/org/sigxcpu/Feedback", control)
        try bus.requestName("org.sigxcpu.Feedback")
        return peer
    }
}
