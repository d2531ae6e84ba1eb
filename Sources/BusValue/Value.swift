// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// A D-Bus value, modelled in pure Swift: the one type both layers share. The generic sd-bus layer
/// (`SDBus`) reads and writes it; the functional core (`AlarmCore`) validates configuration
/// dictionaries and keeps `metadata` verbatim with it, without importing sd-bus. A leaf: it depends
/// on nothing, so neither layer depends on the other.
public indirect enum Value: Hashable, Sendable, Codable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `element` is the element's type signature, so empty arrays keep their type.
    case array(element: String, [Value])
    case dict(key: String, value: String, [DictEntry])
    case structure([Value])
    case variant(Value)
    /// A unix file descriptor ('h'). Only on the wire: no stored form keeps one.
    case unixFD(UnixFD)

    public struct DictEntry: Hashable, Sendable, Codable {
        public var key: Value
        public var value: Value
        public init(_ key: Value, _ value: Value) { self.key = key; self.value = value }
    }

    /// The D-Bus type signature of this value.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let element, _): return "a" + element
        case .dict(let k, let v, _): return "a{" + k + v + "}"
        case .structure(let items): return "(" + items.map(\.signature).joined() + ")"
        case .variant: return "v"
        case .unixFD: return "h"
        }
    }

    /// A string→variant dictionary, the shape of every configuration and property map.
    public static func vardict(_ entries: [(String, Value)]) -> Value {
        .dict(key: "s", value: "v", entries.map { DictEntry(.string($0.0), .variant($0.1)) })
    }

    public static func strings(_ items: [String]) -> Value {
        .array(element: "s", items.map { .string($0) })
    }

    /// Unwraps any number of variant layers.
    public var unwrapped: Value {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The entries of an `a{sv}` dictionary, variants unwrapped; nil for any other shape.
    public var vardictEntries: [(String, Value)]? {
        guard case .dict(let k, let v, let entries) = self, k == "s", v == "v" else { return nil }
        return entries.compactMap { entry in
            guard case .string(let key) = entry.key else { return nil }
            return (key, entry.value.unwrapped)
        }
    }

    /// Any integer type as a signed 128-bit-safe value (nil for non-integers).
    public var integerValue: Int64? {
        switch self {
        case .byte(let v): return Int64(v)
        case .int16(let v): return Int64(v)
        case .uint16(let v): return Int64(v)
        case .int32(let v): return Int64(v)
        case .uint32(let v): return Int64(v)
        case .int64(let v): return v
        case .uint64(let v): return v > UInt64(Int64.max) ? Int64.max : Int64(v)
        default: return nil
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var doubleValue: Double? {
        if case .double(let d) = self { return d }
        return nil
    }

    /// A short human description of the type, used in error messages.
    public var typeDescription: String { "'\(signature)'" }

    /// Whether a file descriptor is anywhere inside: what is kept (metadata) must hold none.
    public var containsUnixFD: Bool {
        switch self {
        case .unixFD: return true
        case .array(_, let items), .structure(let items): return items.contains { $0.containsUnixFD }
        case .dict(_, _, let entries): return entries.contains { $0.key.containsUnixFD || $0.value.containsUnixFD }
        case .variant(let inner): return inner.containsUnixFD
        default: return false
        }
    }
}

/// An open file descriptor a `Value` carries, owned: the box closes it once, when the last value
/// that holds it goes, so copies of a value never close it twice and a dropped one never leaks it.
/// How to close it is handed in by whoever opened or duplicated it (the bus layer): this leaf
/// knows no system calls.
public final class UnixFD: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Valid for as long as this box lives.
    public let number: Int32
    private let release: @Sendable (Int32) -> Void

    public init(owning number: Int32, release: @escaping @Sendable (Int32) -> Void) {
        self.number = number
        self.release = release
    }

    deinit { release(number) }

    // Two boxes are one value only if they are one box: two descriptors of one file are still two.
    public static func == (a: UnixFD, b: UnixFD) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String { "fd \(number)" }

    // A descriptor means nothing outside the process that holds it: no stored or JSON form.
    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(number, .init(codingPath: encoder.codingPath, debugDescription: "a file descriptor has no stored form"))
    }

    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a file descriptor has no stored form"))
    }
}

extension Value {
    /// Bytes these values take in a D-Bus message body (the wire format's alignment included), so a
    /// reply can be refused before it outgrows what one message may carry.
    public static func marshalledSize(_ values: [Value]) -> Int {
        values.reduce(0) { $1.marshalledEnd(from: $0) }
    }

    /// Where this value ends when it is written starting at `offset`.
    public func marshalledEnd(from offset: Int) -> Int {
        func aligned(_ o: Int, _ n: Int) -> Int { (o + n - 1) / n * n }
        switch self {
        case .byte: return offset + 1
        case .int16, .uint16: return aligned(offset, 2) + 2
        case .bool, .int32, .uint32: return aligned(offset, 4) + 4
        case .int64, .uint64, .double: return aligned(offset, 8) + 8
        case .string(let s), .objectPath(let s): return aligned(offset, 4) + 4 + s.utf8.count + 1
        case .signature(let s): return offset + 1 + s.utf8.count + 1
        case .array(let element, let items):
            let start = aligned(aligned(offset, 4) + 4, Value.alignment(of: element))
            return items.reduce(start) { $1.marshalledEnd(from: $0) }
        case .dict(_, _, let entries):
            return entries.reduce(aligned(aligned(offset, 4) + 4, 8)) { o, e in
                e.value.marshalledEnd(from: e.key.marshalledEnd(from: aligned(o, 8)))
            }
        case .structure(let items):
            return items.reduce(aligned(offset, 8)) { $1.marshalledEnd(from: $0) }
        case .variant(let inner):
            return inner.marshalledEnd(from: offset + 1 + inner.signature.utf8.count + 1)
        // An index into the message's descriptors.
        case .unixFD: return aligned(offset, 4) + 4
        }
    }

    /// The alignment of a type by the first character of its signature (the wire format's rule;
    /// the bus fuzzer's raw message writer uses it too).
    public static func alignment(of signature: String) -> Int {
        switch signature.utf8.first {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "s"), UInt8(ascii: "o"),
             UInt8(ascii: "a"), UInt8(ascii: "h"): return 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): return 8
        default: return 1
        }
    }
}
