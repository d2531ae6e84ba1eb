// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The compact binary form of what an alarm rarely needs: the presentation fields other than its
/// title and warning threshold, the sound, the metadata, and a `duration` given beside an `end_date`.
/// Only fields that differ from their defaults are written, each once, in ascending tag order, so
/// equal configurations have equal bytes. The same bytes are kept in memory
/// (`AlarmConfiguration.extras`) and in the store's `extras` column; they are decoded only when asked.
///
///     extras  = *(tag field)                tags strictly ascending
///     field   = text                        tags 1…17: the presentation texts (`Presentation.fields`)
///             | text                        tag 32: sound
///             | value                       tag 33: metadata
///             | varint                      tag 34: seconds of a duration given beside end_date
///     text    = varint(byte count) UTF-8
///     value   = type-code payload           one D-Bus value, see `ValueCoding`
///     varint  = LEB128, at most 10 bytes
enum Extras {
    static let sound: UInt8 = 32
    static let metadata: UInt8 = 33
    static let durationWithEnd: UInt8 = 34

    /// The presentation texts by tag (`Presentation.storedTexts`); nil where a tag holds none.
    static let textByTag: [Presentation.TextField?] = {
        var byTag = [Presentation.TextField?](repeating: nil, count: Int(Presentation.storedTexts.last?.tag ?? 0) + 1)
        for f in Presentation.storedTexts { byTag[Int(f.tag!)] = f }
        return byTag
    }()

    /// The text field of a tag, nil for a tag that is not a text's.
    static func textField(_ tag: UInt8) -> Presentation.TextField? {
        Int(tag) < textByTag.count ? textByTag[Int(tag)] : nil
    }

    /// Everything the extras hold, decoded.
    struct Fields: Equatable {
        var presentation = Presentation()
        var sound = "default"
        var metadata: Value = .vardict([])
        var durationWithEnd: UInt64?
    }

    static func encode(_ f: Fields) -> [UInt8] {
        var w = ByteWriter()
        for t in Presentation.storedTexts {
            let s = f.presentation[keyPath: t.path]
            if s != t.initial {
                w.byte(t.tag!)
                w.text(s)
            }
        }
        if f.sound != "default" {
            w.byte(sound)
            w.text(f.sound)
        }
        if f.metadata != .vardict([]) {
            w.byte(metadata)
            ValueCoding.write(f.metadata, to: &w)
        }
        if let d = f.durationWithEnd {
            w.byte(durationWithEnd)
            w.varint(d)
        }
        return w.bytes
    }

    /// Decodes what `want` asks for; the rest is skipped without being built. Bytes that fail
    /// `isValid` never get here (the store refuses them), so a malformed tail only loses fields.
    static func decode(_ bytes: [UInt8], presentation: Bool = true, sound wantSound: Bool = true,
                       metadata wantMetadata: Bool = true) -> Fields {
        var f = Fields()
        var r = ByteReader(bytes)
        do {
            while !r.atEnd {
                let tag = try r.byte()
                if let t = textField(tag) {
                    if presentation { f.presentation[keyPath: t.path] = try r.text() } else { try r.skipText() }
                    continue
                }
                switch tag {
                case sound:
                    if wantSound { f.sound = try r.text() } else { try r.skipText() }
                case metadata:
                    if wantMetadata { f.metadata = try ValueCoding.read(&r) } else { try ValueCoding.skip(&r) }
                case durationWithEnd:
                    f.durationWithEnd = try r.varint()
                default:
                    return f
                }
            }
        } catch {}
        return f
    }

    /// Whether `bytes` are well-formed extras: known tags in ascending order, every length within
    /// the bytes, every value well-formed. Builds nothing.
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var r = ByteReader(bytes)
        var last: UInt8 = 0
        do {
            while !r.atEnd {
                let tag = try r.byte()
                guard tag > last else { return false }
                last = tag
                if textField(tag) != nil {
                    try r.skipText()
                    continue
                }
                switch tag {
                case sound: try r.skipText()
                case metadata: try ValueCoding.skip(&r)
                case durationWithEnd: _ = try r.varint()
                default: return false
                }
            }
            return true
        } catch {
            return false
        }
    }
}

/// One D-Bus value, as its type code (the first character of its signature; `e` for a dictionary,
/// `r` for a structure) followed by its payload: fixed-size numbers little-endian, `b` as one byte,
/// `s` `o` `g` as text, `a` as the element signature (text), a count and the items, `e` as the key
/// and value signatures, a count and the key-value pairs, `r` as a count and the fields, `v` as the
/// value inside.
enum ValueCoding {
    /// D-Bus nests at most 64 containers; a deeper encoding is malformed.
    static let maxDepth = 64

    static func write(_ v: Value, to w: inout ByteWriter) {
        switch v {
        case .byte(let x): w.byte(UInt8(ascii: "y")); w.byte(x)
        case .bool(let x): w.byte(UInt8(ascii: "b")); w.byte(x ? 1 : 0)
        case .int16(let x): w.byte(UInt8(ascii: "n")); w.fixed(UInt64(UInt16(bitPattern: x)), 2)
        case .uint16(let x): w.byte(UInt8(ascii: "q")); w.fixed(UInt64(x), 2)
        case .int32(let x): w.byte(UInt8(ascii: "i")); w.fixed(UInt64(UInt32(bitPattern: x)), 4)
        case .uint32(let x): w.byte(UInt8(ascii: "u")); w.fixed(UInt64(x), 4)
        case .int64(let x): w.byte(UInt8(ascii: "x")); w.fixed(UInt64(bitPattern: x), 8)
        case .uint64(let x): w.byte(UInt8(ascii: "t")); w.fixed(x, 8)
        case .double(let x): w.byte(UInt8(ascii: "d")); w.fixed(x.bitPattern, 8)
        case .string(let s): w.byte(UInt8(ascii: "s")); w.text(s)
        case .objectPath(let s): w.byte(UInt8(ascii: "o")); w.text(s)
        case .signature(let s): w.byte(UInt8(ascii: "g")); w.text(s)
        case .array(let element, let items):
            w.byte(UInt8(ascii: "a")); w.text(element); w.varint(UInt64(items.count))
            for item in items { write(item, to: &w) }
        case .dict(let k, let vt, let entries):
            w.byte(UInt8(ascii: "e")); w.text(k); w.text(vt); w.varint(UInt64(entries.count))
            for e in entries { write(e.key, to: &w); write(e.value, to: &w) }
        case .structure(let items):
            w.byte(UInt8(ascii: "r")); w.varint(UInt64(items.count))
            for item in items { write(item, to: &w) }
        case .variant(let inner):
            w.byte(UInt8(ascii: "v")); write(inner, to: &w)
        // A descriptor has no stored form (metadata refuses one): its bare type code, which no
        // reader accepts, so that it could never come back as some other value.
        case .unixFD: w.byte(UInt8(ascii: "h"))
        }
    }

    static func read(_ r: inout ByteReader, depth: Int = 0) throws(ByteReader.Malformed) -> Value {
        guard depth <= maxDepth else { throw ByteReader.Malformed() }
        switch try r.byte() {
        case UInt8(ascii: "y"): return .byte(try r.byte())
        case UInt8(ascii: "b"):
            let b = try r.byte()
            guard b <= 1 else { throw ByteReader.Malformed() }
            return .bool(b == 1)
        case UInt8(ascii: "n"): return .int16(Int16(bitPattern: UInt16(try r.fixed(2))))
        case UInt8(ascii: "q"): return .uint16(UInt16(try r.fixed(2)))
        case UInt8(ascii: "i"): return .int32(Int32(bitPattern: UInt32(try r.fixed(4))))
        case UInt8(ascii: "u"): return .uint32(UInt32(try r.fixed(4)))
        case UInt8(ascii: "x"): return .int64(Int64(bitPattern: try r.fixed(8)))
        case UInt8(ascii: "t"): return .uint64(try r.fixed(8))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try r.fixed(8)))
        case UInt8(ascii: "s"): return .string(try r.text())
        case UInt8(ascii: "o"): return .objectPath(try r.text())
        case UInt8(ascii: "g"): return .signature(try r.text())
        case UInt8(ascii: "a"):
            let element = try r.text()
            let n = try r.items()
            var items: [Value] = []
            items.reserveCapacity(n)
            for _ in 0..<n { items.append(try read(&r, depth: depth + 1)) }
            return .array(element: element, items)
        case UInt8(ascii: "e"):
            let k = try r.text(), vt = try r.text()
            let n = try r.items()
            var entries: [Value.DictEntry] = []
            entries.reserveCapacity(n)
            for _ in 0..<n {
                let key = try read(&r, depth: depth + 1)
                entries.append(Value.DictEntry(key, try read(&r, depth: depth + 1)))
            }
            return .dict(key: k, value: vt, entries)
        case UInt8(ascii: "r"):
            let n = try r.items()
            var items: [Value] = []
            items.reserveCapacity(n)
            for _ in 0..<n { items.append(try read(&r, depth: depth + 1)) }
            return .structure(items)
        case UInt8(ascii: "v"):
            return .variant(try read(&r, depth: depth + 1))
        default:
            throw ByteReader.Malformed()
        }
    }

    /// Steps over one value, checking its form, building nothing.
    static func skip(_ r: inout ByteReader, depth: Int = 0) throws(ByteReader.Malformed) {
        guard depth <= maxDepth else { throw ByteReader.Malformed() }
        switch try r.byte() {
        case UInt8(ascii: "y"): try r.advance(1)
        case UInt8(ascii: "b"): guard try r.byte() <= 1 else { throw ByteReader.Malformed() }
        case UInt8(ascii: "n"), UInt8(ascii: "q"): try r.advance(2)
        case UInt8(ascii: "i"), UInt8(ascii: "u"): try r.advance(4)
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): try r.advance(8)
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"): try r.skipText()
        case UInt8(ascii: "a"):
            try r.skipText()
            for _ in 0..<(try r.items()) { try skip(&r, depth: depth + 1) }
        case UInt8(ascii: "e"):
            try r.skipText()
            try r.skipText()
            for _ in 0..<(try r.items()) {
                try skip(&r, depth: depth + 1)
                try skip(&r, depth: depth + 1)
            }
        case UInt8(ascii: "r"):
            for _ in 0..<(try r.items()) { try skip(&r, depth: depth + 1) }
        case UInt8(ascii: "v"):
            try skip(&r, depth: depth + 1)
        default:
            throw ByteReader.Malformed()
        }
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func fixed(_ v: UInt64, _ size: Int) {
        for i in 0..<size { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * i))) }
    }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Reads what `ByteWriter` wrote, from an array or from bytes borrowed for the reader's lifetime.
struct ByteReader {
    struct Malformed: Error {}

    private let base: UnsafeRawBufferPointer?
    private let array: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) {
        array = bytes
        base = nil
    }

    /// `bytes` must outlive the reader.
    init(_ bytes: UnsafeRawBufferPointer) {
        array = []
        base = bytes
    }

    private var count: Int { base?.count ?? array.count }
    var atEnd: Bool { at >= count }

    private func peek(_ i: Int) -> UInt8 { base.map { $0[i] } ?? array[i] }

    mutating func byte() throws(Malformed) -> UInt8 {
        guard at < count else { throw Malformed() }
        defer { at += 1 }
        return peek(at)
    }

    mutating func advance(_ n: Int) throws(Malformed) {
        guard n >= 0, n <= count - at else { throw Malformed() }
        at += n
    }

    mutating func fixed(_ size: Int) throws(Malformed) -> UInt64 {
        guard size <= count - at else { throw Malformed() }
        var v: UInt64 = 0
        for i in 0..<size { v |= UInt64(peek(at + i)) << UInt64(8 * i) }
        at += size
        return v
    }

    mutating func varint() throws(Malformed) -> UInt64 {
        var v: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            let b = try byte()
            guard shift < 63 || b <= 1 else { throw Malformed() }
            v |= UInt64(b & 0x7F) << UInt64(shift)
            if b < 0x80 { return v }
        }
        throw Malformed()
    }

    /// A count of items still to come: each takes at least one byte, so a count beyond the bytes left is malformed.
    mutating func items() throws(Malformed) -> Int {
        let n = try varint()
        guard n <= UInt64(count - at) else { throw Malformed() }
        return Int(n)
    }

    mutating func text() throws(Malformed) -> String {
        let n = try items()
        defer { at += n }
        if let base { return String(decoding: UnsafeRawBufferPointer(rebasing: base[at..<at + n]), as: UTF8.self) }
        return String(decoding: array[at..<at + n], as: UTF8.self)
    }

    mutating func skipText() throws(Malformed) {
        try advance(try items())
    }
}
