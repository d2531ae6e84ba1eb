// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// The D-Bus wire format, little-endian, written without sd-bus: sd-bus refuses to send strings
/// that dbus-daemon delivers (noncharacters) and cannot send what dbus-daemon must refuse (invalid
/// UTF-8, NUL inside a string, a body that disagrees with its signature), and the fuzzer sends both.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func align(_ n: Int) {
        while bytes.count % n != 0 { bytes.append(0) }
    }

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func fixed(_ v: UInt64, _ size: Int) {
        align(size)
        for i in 0..<size { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * i))) }
    }

    mutating func u32(_ v: UInt32) { fixed(UInt64(v), 4) }

    /// `s` or `o`: its bytes as they are, valid or not.
    mutating func string(_ s: [UInt8]) {
        u32(UInt32(s.count))
        bytes += s
        bytes.append(0)
    }

    mutating func signature(_ s: String) {
        u8(UInt8(truncatingIfNeeded: s.utf8.count))
        bytes += Array(s.utf8)
        bytes.append(0)
    }

    mutating func value(_ v: Value) {
        switch v {
        case .byte(let x): u8(x)
        case .bool(let x): u32(x ? 1 : 0)
        case .int16(let x): fixed(UInt64(UInt16(bitPattern: x)), 2)
        case .uint16(let x): fixed(UInt64(x), 2)
        case .int32(let x): fixed(UInt64(UInt32(bitPattern: x)), 4)
        case .uint32(let x): fixed(UInt64(x), 4)
        case .int64(let x): fixed(UInt64(bitPattern: x), 8)
        case .uint64(let x): fixed(x, 8)
        case .double(let x): fixed(x.bitPattern, 8)
        case .string(let s), .objectPath(let s): string(Array(s.utf8))
        case .signature(let s): signature(s)
        case .array(let element, let items):
            array(alignment: Value.alignment(of: element)) { w in for item in items { w.value(item) } }
        case .dict(_, _, let entries):
            array(alignment: 8) { w in
                for e in entries {
                    w.align(8)
                    w.value(e.key)
                    w.value(e.value)
                }
            }
        case .structure(let items):
            align(8)
            for item in items { value(item) }
        case .variant(let inner):
            signature(inner.signature)
            value(inner)
        // An index into the message's descriptors; raw calls attach none.
        case .unixFD: u32(0)
        }
    }

    private mutating func array(alignment: Int, _ body: (inout WireWriter) -> Void) {
        align(4)
        let lengthAt = bytes.count
        u32(0)
        align(alignment)
        let start = bytes.count
        body(&self)
        let length = UInt32(bytes.count - start)
        for i in 0..<4 { bytes[lengthAt + i] = UInt8(truncatingIfNeeded: length >> UInt32(8 * i)) }
    }

    /// Replaces the bytes of `marker` (written as part of a string) with `replacement` of the same
    /// length: how bytes no Swift string can hold (invalid UTF-8) get into a message.
    mutating func patch(_ marker: [UInt8], with replacement: [UInt8]) {
        precondition(marker.count == replacement.count && !marker.isEmpty)
        var i = 0
        while i + marker.count <= bytes.count {
            if bytes[i] == marker[0] && Array(bytes[i..<i + marker.count]) == marker {
                bytes.replaceSubrange(i..<i + marker.count, with: replacement)
                i += marker.count
            } else {
                i += 1
            }
        }
    }
}

/// A method call as bytes on the wire.
enum WireMessage {
    /// `signature` is sent as given, whatever the body holds.
    static func methodCall(serial: UInt32, destination: String, path: String, interface: String?, member: String,
                           signature: String, body: [UInt8]) -> [UInt8] {
        var fields = WireWriter()
        func field(_ code: UInt8, _ sig: String, _ write: (inout WireWriter) -> Void) {
            fields.align(8)
            fields.u8(code)
            fields.signature(sig)
            write(&fields)
        }
        field(1, "o") { $0.string(Array(path.utf8)) }
        if let interface { field(2, "s") { $0.string(Array(interface.utf8)) } }
        field(3, "s") { $0.string(Array(member.utf8)) }
        field(6, "s") { $0.string(Array(destination.utf8)) }
        if !signature.isEmpty { field(8, "g") { $0.signature(signature) } }

        var m = WireWriter()
        m.u8(UInt8(ascii: "l"))
        m.u8(1) // method call
        m.u8(0)
        m.u8(1) // protocol version
        m.u32(UInt32(body.count))
        m.u32(serial)
        m.u32(UInt32(fields.bytes.count))
        var out = m.bytes + fields.bytes
        while out.count % 8 != 0 { out.append(0) }
        return out + body
    }

    /// What a received message says about itself: its type, the call it answers, its error name.
    struct Header {
        var type: UInt8
        var replySerial: UInt32?
        var errorName: String?
        var length: Int
    }

    /// The header of the message at the start of `buffer`, nil until the whole message is there.
    static func parse(_ buffer: [UInt8]) throws(WireError) -> Header? {
        guard buffer.count >= 16 else { return nil }
        guard buffer[0] == UInt8(ascii: "l") else { throw WireError("big-endian or unknown byte order \(buffer[0])") }
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(buffer[at + $1]) << UInt32(8 * $1) } }
        let bodyLength = Int(u32(4)), fieldsLength = Int(u32(12))
        let headerEnd = (16 + fieldsLength + 7) / 8 * 8
        let total = headerEnd + bodyLength
        guard buffer.count >= total else { return nil }
        var h = Header(type: buffer[1], replySerial: nil, errorName: nil, length: total)
        var at = 16
        let end = 16 + fieldsLength
        while at < end {
            at = (at + 7) / 8 * 8
            guard at + 2 < end else { break }
            let code = buffer[at]
            let sigLength = Int(buffer[at + 1])
            let sig = buffer[(at + 2)..<(at + 2 + sigLength)]
            at += 3 + sigLength
            switch sig.first {
            case UInt8(ascii: "u"):
                at = (at + 3) / 4 * 4
                if code == 5 { h.replySerial = u32(at) }
                at += 4
            case UInt8(ascii: "s"), UInt8(ascii: "o"):
                at = (at + 3) / 4 * 4
                let n = Int(u32(at))
                if code == 4 { h.errorName = String(decoding: buffer[(at + 4)..<(at + 4 + n)], as: UTF8.self) }
                at += 4 + n + 1
            case UInt8(ascii: "g"):
                at += Int(buffer[at]) + 2
            default:
                throw WireError("header field \(code) of type \(String(decoding: sig, as: UTF8.self))")
            }
        }
        return h
    }
}

struct WireError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
