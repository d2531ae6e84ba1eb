// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import AlarmFuzzing
import TestSupport

/// Calls only a connection of our own making can send: strings with noncharacters (dbus-daemon
/// delivers them, sd-bus refuses them), and messages dbus-daemon itself must refuse: invalid UTF-8,
/// NUL inside a string, a body that disagrees with its signature, a broken variant signature,
/// containers nested deeper than 64. Sent as the user's own tools, never naming the victim.
struct RawCall {
    var path = managerPath
    var interface: String? = managerInterface
    var member: String
    var signature: String
    var body: [UInt8]
    /// What it tests; the calls dbus-daemon must refuse are named for what makes them invalid.
    var kind: String
}

extension CallPlanner {
    static let invalidMarker = Array("\u{1}INVALID-UTF8\u{1}".utf8)
    static let invalidBytes: [UInt8] = [0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x28, 0x8C, 0xBC, 0xFF, 0xFE, 0xED]
    static let nulBytes: [UInt8] = [0x61, 0x00, 0x62, 0x00, 0x00, 0x63, 0x64, 0x00, 0x65, 0x66, 0x67, 0x00, 0x68, 0x69]

    mutating func rawCall() -> RawCall {
        func body(_ values: [Value], patch: [UInt8]? = nil) -> (String, [UInt8]) {
            var w = WireWriter()
            for v in values { w.value(v) }
            if let patch { w.patch(Self.invalidMarker, with: patch) }
            return (values.map(\.signature).joined(), w.bytes)
        }
        let marker = String(decoding: Self.invalidMarker, as: UTF8.self)
        switch c.below(20) {
        case 0:
            let (sig, b) = body([.string(""), .vardict([("title", .string(marker)), ("duration", .uint32(60))])], patch: Self.invalidBytes)
            return RawCall(member: "Schedule", signature: sig, body: b, kind: "invalid UTF-8")
        case 1:
            let (sig, b) = body([.string(marker)], patch: Self.nulBytes)
            return RawCall(member: c.pick(["Cancel", "RegisterApp", "RequestAuthorization"]), signature: sig, body: b,
                           kind: "NUL in a string")
        case 2:
            var w = WireWriter()
            w.u32(UInt32(c.pick([5, 1_000, 0x7FFF_FFFF])))
            return RawCall(member: "Cancel", signature: "s", body: w.bytes, kind: "body shorter than its signature")
        case 3:
            var w = WireWriter()
            w.string(Array("x".utf8))
            w.u8(UInt8(ascii: "a"))
            w.u8(0)
            return RawCall(member: "Cancel", signature: "sg", body: w.bytes, kind: "invalid signature value")
        case 4:
            let deep = (0..<c.pick([62, 65, 80, 120])).reduce(Value.string("bottom")) { v, _ in .variant(v) }
            let (sig, b) = body([.string(""), .vardict([("title", .string("Deep")), ("duration", .uint32(60)), ("metadata", .vardict([("k", deep)]))])])
            return RawCall(member: "Schedule", signature: sig, body: b, kind: "nested beyond 64")
        default:
            // A call of the right signature with a noncharacter in one of its strings.
            var call = managerCall(for: .shell)
            if !call.args.contains(where: { $0.containsString }) { call = PlannedCall(member: "Cancel", args: [.string("x")], label: "Cancel") }
            var injected = false
            let nc = HostileInput.nc(c.pick([0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF]))
            let args = call.args.map { $0.injecting(nc, done: &injected) }
            let (sig, b) = body(args)
            let refused = args.contains { !$0.deliverable }
            return RawCall(member: call.member, signature: sig, body: b,
                           kind: refused ? "noncharacter, with NUL or nested beyond the limits" : "noncharacter in \(call.member)")
        }
    }
}

extension Value {
    /// Whether dbus-daemon carries this argument: no NUL in a string; at most 63 containers around
    /// any value (the 64th level is the body itself: measured, the 62nd variant in a configuration
    /// is refused); at most 32 arrays and 32 structures (a dictionary entry counts as both) nested
    /// within one signature, a variant's contents having a signature of their own; no array over
    /// 64 MiB (a huge string inside a configuration) and no message over 128 MiB.
    var deliverable: Bool {
        let n = busNesting
        return n.total <= 63 && n.worstSignature <= 32 && !containsNUL && !hasArrayOver64MiB && Value.marshalledSize([self]) < 128 << 20
    }

    private var hasArrayOver64MiB: Bool {
        switch self {
        case .array(_, let items):
            return Value.marshalledSize([self]) > 64 << 20 + 8 || items.contains { $0.hasArrayOver64MiB }
        case .dict(_, _, let entries):
            return Value.marshalledSize([self]) > 64 << 20 + 8 || entries.contains { $0.key.hasArrayOver64MiB || $0.value.hasArrayOver64MiB }
        case .structure(let items): return items.contains { $0.hasArrayOver64MiB }
        case .variant(let inner): return inner.hasArrayOver64MiB
        default: return false
        }
    }

    private var containsNUL: Bool {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): return s.utf8.contains(0)
        case .array(_, let items), .structure(let items): return items.contains { $0.containsNUL }
        case .dict(_, _, let entries): return entries.contains { $0.key.containsNUL || $0.value.containsNUL }
        case .variant(let inner): return inner.containsNUL
        default: return false
        }
    }

    private var busNesting: (total: Int, arrays: Int, structs: Int, worstSignature: Int) {
        func combine(_ items: [Value]) -> (Int, Int, Int, Int) {
            items.map(\.busNesting).reduce((0, 0, 0, 0)) { (max($0.0, $1.0), max($0.1, $1.1), max($0.2, $1.2), max($0.3, $1.3)) }
        }
        switch self {
        case .array(_, let items):
            let (t, a, s, w) = combine(items)
            return (t + 1, a + 1, s, max(w, a + 1))
        case .dict(_, _, let entries):
            let (t, a, s, w) = combine(entries.flatMap { [$0.key, $0.value] })
            return (t + 2, a + 1, s + 1, max(w, a + 1, s + 1))
        case .structure(let items):
            let (t, a, s, w) = combine(items)
            return (t + 1, a, s + 1, max(w, s + 1))
        case .variant(let inner):
            let n = inner.busNesting
            return (n.total + 1, 0, 0, max(n.worstSignature, n.arrays, n.structs))
        default:
            return (0, 0, 0, 0)
        }
    }

    var containsString: Bool {
        switch self {
        case .string: return true
        case .array(_, let items), .structure(let items): return items.contains { $0.containsString }
        case .dict(_, _, let entries): return entries.contains { $0.key.containsString || $0.value.containsString }
        case .variant(let inner): return inner.containsString
        default: return false
        }
    }

    /// This value with `text` appended to its first string.
    func injecting(_ text: String, done: inout Bool) -> Value {
        guard !done else { return self }
        switch self {
        case .string(let s):
            done = true
            return .string(s + text)
        case .array(let e, let items): return .array(element: e, items.map { $0.injecting(text, done: &done) })
        case .structure(let items): return .structure(items.map { $0.injecting(text, done: &done) })
        case .dict(let k, let v, let entries):
            return .dict(key: k, value: v, entries.map { Value.DictEntry($0.key.injecting(text, done: &done), $0.value.injecting(text, done: &done)) })
        case .variant(let inner): return .variant(inner.injecting(text, done: &done))
        default: return self
        }
    }
}
