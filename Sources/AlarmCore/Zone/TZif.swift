// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

extension Zone {
    /// Parses a TZif file (RFC 8536: version 1, 2, 3 or 4). For version 2 and later the 64-bit data
    /// block and the footer's POSIX rule are used, the version 1 block only skipped. Leap-second
    /// records are read and ignored (alarmd runs on POSIX time; `right/` zones are not for it).
    public static func parse(tzif bytes: [UInt8], name: String) throws(ZoneError) -> Zone {
        var r = Reader(bytes: bytes)
        let v1 = try Header(&r)
        guard v1.version >= 2 else { return try block(&r, v1, timeSize: 4, name: name, footer: nil) }
        try r.skip(v1.dataLength(timeSize: 4))
        let v2 = try Header(&r)
        let start = r.at
        try r.skip(v2.dataLength(timeSize: 8))
        // The footer: a newline, the rule (maybe empty), a newline.
        guard try r.byte() == 0x0A else { throw .badFooter }
        let from = r.at
        guard let nl = bytes[from...].firstIndex(of: 0x0A) else { throw .badFooter }
        let footer = String(decoding: bytes[from..<nl], as: UTF8.self)
        guard !footer.utf8.contains(0) else { throw .badFooter }
        r.at = start
        return try block(&r, v2, timeSize: 8, name: name, footer: footer)
    }

    private static func block(_ r: inout Reader, _ h: Header, timeSize: Int, name: String, footer: String?) throws(ZoneError) -> Zone {
        var times: [Int64] = []
        times.reserveCapacity(h.timecnt)
        for i in 0..<h.timecnt {
            let t = timeSize == 8 ? try r.int64() : Int64(try r.int32())
            if let last = times.last, t <= last { throw .unorderedTransitions(at: i) }
            times.append(t)
        }
        var indices: [Int] = []
        indices.reserveCapacity(h.timecnt)
        for _ in 0..<h.timecnt {
            let i = Int(try r.byte())
            guard i < h.typecnt else { throw .badTypeIndex(i) }
            indices.append(i)
        }
        var raw: [(Int32, Bool, Int)] = []
        for i in 0..<h.typecnt {
            let off = try r.int32()
            let dst = try r.byte()
            let idx = Int(try r.byte())
            guard off != Int32.min, dst <= 1, idx < h.charcnt else { throw .badType(i) }
            raw.append((off, dst == 1, idx))
        }
        let chars = try r.bytes(h.charcnt)
        let types = raw.map { off, dst, idx in
            let tail = chars[idx...]
            let end = tail.firstIndex(of: 0) ?? chars.endIndex
            return LocalTimeType(offset: off, isDST: dst, abbreviation: String(decoding: chars[idx..<end], as: UTF8.self))
        }
        try r.skip(h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt)
        let rule = try footer.flatMap { f throws(ZoneError) in try PosixTZ.parse(f) }
        return Zone(name: name, transitions: times, transitionTypes: indices, types: types, rule: rule)
    }

    private struct Header {
        var version: Int
        var isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0

        init(_ r: inout Reader) throws(ZoneError) {
            let magic = try r.bytes(4)
            guard magic == Array("TZif".utf8) else { throw .notTZif }
            let v = try r.byte()
            switch v {
            case 0: version = 1
            case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(v - UInt8(ascii: "0"))
            default: throw .badCounts("version byte \(v)")
            }
            try r.skip(15)
            var counts: [Int] = []
            for _ in 0..<6 {
                let c = try r.int32()
                // Bounded so that a hostile header cannot ask for more than the file could hold.
                guard c >= 0, Int(c) <= r.bytes.count else { throw .badCounts("count \(c) beyond the file") }
                counts.append(Int(c))
            }
            (isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt) = (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
            guard typecnt > 0, typecnt <= 256 else { throw .badCounts("typecnt \(typecnt)") }
            guard charcnt > 0 else { throw .badCounts("charcnt 0") }
            guard isstdcnt == 0 || isstdcnt == typecnt else { throw .badCounts("isstdcnt \(isstdcnt)") }
            guard isutcnt == 0 || isutcnt == typecnt else { throw .badCounts("isutcnt \(isutcnt)") }
        }

        func dataLength(timeSize: Int) -> Int {
            timecnt * (timeSize + 1) + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func byte() throws(ZoneError) -> UInt8 {
            guard at < bytes.count else { throw .truncated(at: at) }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func bytes(_ n: Int) throws(ZoneError) -> [UInt8] {
            guard n >= 0, n <= bytes.count - at else { throw .truncated(at: bytes.count) }
            defer { at += n }
            return Array(bytes[at..<at + n])
        }

        mutating func skip(_ n: Int) throws(ZoneError) {
            guard n >= 0, n <= bytes.count - at else { throw .truncated(at: bytes.count) }
            at += n
        }

        mutating func int32() throws(ZoneError) -> Int32 {
            var v: UInt32 = 0
            for _ in 0..<4 { v = v << 8 | UInt32(try byte()) }
            return Int32(bitPattern: v)
        }

        mutating func int64() throws(ZoneError) -> Int64 {
            var v: UInt64 = 0
            for _ in 0..<8 { v = v << 8 | UInt64(try byte()) }
            return Int64(bitPattern: v)
        }
    }
}
