// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Alarm ids are lowercase UUIDs; object paths carry them with '-' replaced by '_'.
public enum AlarmID {

    /// Accepts a UUID in any case, or in its object-path form; returns the canonical id.
    public static func normalize(_ text: String, key: String = "id") throws(AlarmError) -> String {
        try self.key(text, key: key).string
    }

    /// The 16 bytes of a UUID given in any case, or in its object-path form.
    public static func key(_ text: String, key: String = "id") throws(AlarmError) -> AlarmKey {
        guard let k = AlarmKey(text) else {
            throw .invalidArgument(key: key, reason: "'\(text.prefix(64))' is not a UUID (such as 0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77)")
        }
        return k
    }

    public static func make() -> String { AlarmKey.random().string }

    public static func path(of id: String) -> String {
        // Every id the engine holds is canonical; only a caller's odd text takes the slow way.
        if let key = AlarmKey(id) { return key.path }
        return Contract.alarmPathPrefix + "/" + id.replacing("-", with: "_")
    }

    /// The id an alarm object path names, or nil when the path is not an alarm path.
    public static func id(fromPath path: String) -> String? {
        key(fromPath: path)?.string
    }

    /// The key an alarm object path names, parsed in place: property getters run this for every
    /// property of every signal, and Foundation's string searches were a fifth of alarmd's CPU.
    public static func key(fromPath path: String) -> AlarmKey? {
        let bytes = path.utf8
        guard bytes.count == pathPrefixBytes.count + 36, bytes.starts(with: pathPrefixBytes) else { return nil }
        return AlarmKey(utf8: bytes.dropFirst(pathPrefixBytes.count))
    }

    /// "/org/alarmd/AlarmManager1/alarm/" as bytes: paths are compared and built bytewise, because
    /// String's Unicode-aware prefix and offset operations showed up in signal building.
    static let pathPrefixBytes = Array((Contract.alarmPathPrefix + "/").utf8)
}

/// An alarm id as its 16 bytes (big-endian halves): what the engine's index and deadline heaps are
/// keyed by and the store's `id` column holds. It orders as its canonical text does.
public struct AlarmKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    let hi: UInt64
    let lo: UInt64

    public init(hi: UInt64, lo: UInt64) {
        self.hi = hi
        self.lo = lo
    }

    /// A UUID in any case, its groups separated by '-' or '_' (the object-path form); nil for anything else.
    public init?(_ text: some StringProtocol) {
        self.init(utf8: text.utf8)
    }

    /// The same, from the text's UTF-8 bytes.
    init?<Bytes: Sequence>(utf8 bytes: Bytes) where Bytes.Element == UInt8 {
        var hi: UInt64 = 0, lo: UInt64 = 0, digits = 0, i = 0
        for c in bytes {
            defer { i += 1 }
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == UInt8(ascii: "-") || c == UInt8(ascii: "_") else { return nil }
                continue
            }
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            if digits < 16 { hi = hi << 4 | UInt64(v) } else if digits < 32 { lo = lo << 4 | UInt64(v) } else { return nil }
            digits += 1
        }
        guard i == 36, digits == 32 else { return nil }
        self.init(hi: hi, lo: lo)
    }

    /// The 16 bytes, most significant first (RFC 9562 order).
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var hi: UInt64 = 0, lo: UInt64 = 0
        for i in 0..<8 { hi = hi << 8 | UInt64(bytes[i]) }
        for i in 8..<16 { lo = lo << 8 | UInt64(bytes[i]) }
        self.init(hi: hi, lo: lo)
    }

    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var big = (hi.bigEndian, lo.bigEndian)
        return try withUnsafeBytes(of: &big) { try body($0) }
    }

    /// A random (version 4) UUID.
    public static func random() -> AlarmKey {
        var g = SystemRandomNumberGenerator()
        let hi: UInt64 = g.next(), lo: UInt64 = g.next()
        return AlarmKey(hi: hi & ~0xF000 | 0x4000, lo: lo & ~(0xC0 << 56) | (0x80 << 56))
    }

    /// The canonical id: lowercase, dashed.
    public var string: String { text(separator: UInt8(ascii: "-")) }

    public var description: String { string }

    /// The object path: the id with '_' for '-', as object paths allow no '-'.
    public var path: String {
        let prefix = AlarmID.pathPrefixBytes
        return String(unsafeUninitializedCapacity: prefix.count + 36) { buf in
            _ = buf.initialize(from: prefix)
            return prefix.count + write(into: UnsafeMutableBufferPointer(rebasing: buf[prefix.count...]), separator: UInt8(ascii: "_"))
        }
    }

    private func text(separator: UInt8) -> String {
        String(unsafeUninitializedCapacity: 36) { write(into: $0, separator: separator) }
    }

    private func write(into buf: UnsafeMutableBufferPointer<UInt8>, separator: UInt8) -> Int {
        var o = 0
        for d in 0..<32 {
            if d == 8 || d == 12 || d == 16 || d == 20 { buf[o] = separator; o += 1 }
            let v = UInt8(truncatingIfNeeded: (d < 16 ? hi : lo) >> UInt64(60 - 4 * (d & 15)) & 0xF)
            buf[o] = v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10
            o += 1
        }
        return o
    }

    public static func < (a: AlarmKey, b: AlarmKey) -> Bool { (a.hi, a.lo) < (b.hi, b.lo) }
}
