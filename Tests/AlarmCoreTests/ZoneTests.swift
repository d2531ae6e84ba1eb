// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing
import TestSupport

/// A TZif file, made by hand: `version` 0 (v1), "2", "3"; the v1 block carries the same data in 32 bits.
func tzif(version: Character = "2", transitions: [Int64] = [], indices: [UInt8] = [], types: [(Int32, Bool, UInt8)],
          chars: String, footer: String? = nil, leaps: Int = 0) -> [UInt8] {
    func be32(_ v: Int32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }
    func be64(_ v: Int64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }
    let charBytes = Array(chars.utf8)
    func block(_ wide: Bool) -> [UInt8] {
        var b = Array("TZif".utf8) + [version == "0" ? 0 : UInt8(String(version).utf8.first!)] + [UInt8](repeating: 0, count: 15)
        for c in [types.count, types.count, leaps, transitions.count, types.count, charBytes.count] { b += be32(Int32(c)) }
        for t in transitions { b += wide ? be64(t) : be32(Int32(truncatingIfNeeded: t)) }
        b += indices
        for (off, dst, idx) in types { b += be32(off) + [dst ? 1 : 0, idx] }
        b += charBytes
        for i in 0..<leaps { b += (wide ? be64(Int64(i) * 1_000) : be32(Int32(i) * 1_000)) + be32(Int32(i)) }
        b += [UInt8](repeating: 0, count: types.count * 2)
        return b
    }
    if version == "0" { return block(false) }
    return block(false) + block(true) + Array("\n\(footer ?? "")\n".utf8)
}

/// New York as a v2 file: EST/EDT transitions of 2026, then the footer's US rule.
let newYorkBytes = tzif(transitions: [1_772_953_200, 1_793_512_800], indices: [1, 0],
                        types: [(-18_000, false, 0), (-14_400, true, 4)], chars: "EST\0EDT\0",
                        footer: "EST5EDT,M3.2.0,M11.1.0")

@Suite struct ZoneTests {
    func at(_ s: String) -> Int64 {
        // "yyyy-mm-dd hh:mm:ss" read as UTC.
        let f = s.split(whereSeparator: { "- :".contains($0) }).map { Int($0)! }
        return LocalTime(year: Int64(f[0]), month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5]).wallSeconds
    }

    @Test func utcIsFixed() {
        #expect(Zone.utc.offset(at: 0) == 0 && Zone.utc.offset(at: 4_000_000_000) == 0)
        #expect(Zone.utc.instants(wall: 1_000) == [1_000])
        #expect(Zone.utc.localTime(at: 0) == LocalTime(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0))
        #expect(Zone.utc.localTime(at: 0).weekday == 4, "a Thursday")
        #expect(Zone.utc.localTime(at: -1).description == "1969-12-31 23:59:59")
        #expect(Zone.utc.localTime(at: 951_782_400).description == "2000-02-29 00:00:00")
    }

    @Test func versionOneFile() throws {
        let z = try Zone.parse(tzif: tzif(version: "0", transitions: [1_000_000], indices: [1],
                                          types: [(3_600, false, 0), (7_200, true, 4)], chars: "CET\0CEST\0"), name: "Test/V1")
        #expect(z.name == "Test/V1" && z.rule == nil)
        #expect(z.offset(at: 999_999) == 3_600 && z.offset(at: 1_000_000) == 7_200 && z.offset(at: 5_000_000_000) == 7_200)
        #expect(z.type(at: 2_000_000).abbreviation == "CEST" && z.type(at: 0).abbreviation == "CET")
    }

    @Test func versionTwoUsesTheTableThenTheFooter() throws {
        let z = try Zone.parse(tzif: newYorkBytes, name: "America/New_York")
        #expect(z.offset(at: 1_772_953_199) == -18_000 && z.offset(at: 1_772_953_200) == -14_400)
        // Past the table: 2030-03-10 02:00 EST = 07:00 UTC, 2030-11-03 02:00 EDT = 06:00 UTC.
        #expect(z.offset(at: at("2030-03-10 06:59:59")) == -18_000 && z.offset(at: at("2030-03-10 07:00:00")) == -14_400)
        #expect(z.offset(at: at("2030-11-03 05:59:59")) == -14_400 && z.offset(at: at("2030-11-03 06:00:00")) == -18_000)
        #expect(z.localTime(at: at("2030-07-04 16:00:00")).description == "2030-07-04 12:00:00")
        #expect(z.type(at: at("2030-07-04 16:00:00")) == LocalTimeType(offset: -14_400, isDST: true, abbreviation: "EDT"))
    }

    @Test func versionThreeNegativeRuleHoursAndQuotedNames() throws {
        // Nuuk: daylight time starts at −1:00 (Saturday 23:00) and ends at 0:00 local daylight time.
        let rule = try #require(try PosixTZ.parse("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        #expect(rule.standard == LocalTimeType(offset: -7_200, isDST: false, abbreviation: "-02"))
        #expect(rule.daylight == LocalTimeType(offset: -3_600, isDST: true, abbreviation: "-01"))
        let z = try Zone.parse(tzif: tzif(version: "3", types: [(-7_200, false, 0)], chars: "-02\0",
                                          footer: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0"), name: "America/Nuuk")
        #expect(z.offset(at: 1_901_149_199) == -7_200 && z.offset(at: 1_901_149_200) == -3_600, "2030-03-31 01:00 UTC")
        #expect(z.offset(at: 1_919_293_199) == -3_600 && z.offset(at: 1_919_293_200) == -7_200, "2030-10-27 01:00 UTC")
        // Hours beyond 24 (version 3): 25:00 the day before is 01:00 of the day named.
        let late = try #require(try PosixTZ.parse("AAA0BBB,M3.5.0/25,M10.5.0/167"))
        #expect(late.start.time == 25 * 3_600 && late.end.time == 167 * 3_600)
        let quoted = try #require(try PosixTZ.parse("<+0330>-3:30"))
        #expect(quoted.standard.offset == 12_600 && quoted.standard.abbreviation == "+0330" && quoted.daylight == nil)
    }

    @Test func julianDayForms() throws {
        // J60 never counts February 29: March 1 in 2024. Zero-based 59 counts it: February 29.
        let j = try Zone.posix("AAA0BBB,J60/2,J300/2")
        #expect(j.offset(at: 1_709_258_399) == 0 && j.offset(at: 1_709_258_400) == 3_600)
        let n = try Zone.posix("AAA0BBB,59/2,300/2")
        #expect(n.offset(at: 1_709_171_999) == 0 && n.offset(at: 1_709_172_000) == 3_600)
        // Daylight time all year, the TZif idiom: from January 1 00:00 to December 31 24:00 + 1 h.
        let always = try Zone.posix("XXX3YYY,0/0,J365/25")
        #expect(always.offset(at: at("2031-06-01 00:00:00")) == -7_200 && always.offset(at: at("2031-01-01 12:00:00")) == -7_200)
    }

    @Test func defaultRuleAndDefaultDaylightOffset() throws {
        let z = try Zone.posix("EST5EDT")
        #expect(z.offset(at: at("2030-07-01 12:00:00")) == -14_400 && z.offset(at: at("2030-01-01 12:00:00")) == -18_000)
        #expect(try Zone.posix("JST-9").offset(at: 0) == 32_400)
        #expect(try Zone.posix("AAA-1BBB-3,M3.5.0,M10.5.0/3").offset(at: at("2030-07-01 00:00:00")) == 10_800)
    }

    @Test func wallTimesInGapsAndOverlaps() throws {
        let z = try Zone.parse(tzif: newYorkBytes, name: "America/New_York")
        // 2026-03-08 02:30 does not exist; 01:59:59 and 03:00 do.
        #expect(z.instants(wall: at("2026-03-08 02:30:00")).isEmpty)
        #expect(z.instants(wall: at("2026-03-08 01:59:59")) == [at("2026-03-08 06:59:59")])
        #expect(z.firstInstant(wall: at("2026-03-08 02:30:00")) == at("2026-03-08 07:00:00"), "03:00 EDT")
        #expect(z.firstInstant(wall: at("2026-03-08 02:00:00")) == at("2026-03-08 07:00:00"))
        // 2026-11-01 01:30 happens twice: EDT, then EST.
        #expect(z.instants(wall: at("2026-11-01 01:30:00")) == [at("2026-11-01 05:30:00"), at("2026-11-01 06:30:00")])
        #expect(z.firstInstant(wall: at("2026-11-01 01:30:00")) == at("2026-11-01 05:30:00"))
        // The same past the table, from the footer: 2031-03-09 and 2031-11-02.
        #expect(z.instants(wall: at("2031-03-09 02:15:00")).isEmpty)
        #expect(z.firstInstant(wall: at("2031-03-09 02:15:00")) == at("2031-03-09 07:00:00"))
        #expect(z.instants(wall: at("2031-11-02 01:00:00")).count == 2)
        #expect(z.instants(LocalTime(year: 2031, month: 11, day: 2, hour: 2, minute: 0, second: 0)) == [at("2031-11-02 07:00:00")])
    }

    @Test func rulesCompareWithoutNames() throws {
        let a = try Zone.parse(tzif: newYorkBytes, name: "America/New_York")
        var b = try Zone.parse(tzif: newYorkBytes, name: "US/Eastern")
        #expect(a.hasSameRules(as: b) && a != b)
        b.name = a.name
        #expect(a == b)
        #expect(!a.hasSameRules(as: .utc))
    }

    @Test func typedErrors() {
        func error(_ bytes: [UInt8]) -> ZoneError? {
            do { _ = try Zone.parse(tzif: bytes, name: "x"); return nil } catch { return error }
        }
        #expect(error(Array("TZjf".utf8) + newYorkBytes.dropFirst(4)) == .notTZif)
        #expect(error([]) == .truncated(at: 0))
        var badIndex = tzif(version: "0", transitions: [5], indices: [3], types: [(0, false, 0)], chars: "UTC\0")
        #expect(error(badIndex) == .badTypeIndex(3))
        badIndex = tzif(version: "0", transitions: [5, 5], indices: [0, 0], types: [(0, false, 0)], chars: "UTC\0")
        #expect(error(badIndex) == .unorderedTransitions(at: 1))
        #expect(error(tzif(types: [(0, false, 9)], chars: "UTC\0")) == .badType(0))
        #expect(error(tzif(types: [(0, false, 0)], chars: "UTC\0", footer: "U0")) == .badRule("zone abbreviation shorter than three characters"))
        #expect(error(tzif(types: [(0, false, 0)], chars: "UTC\0", footer: "EST5EDT,M13.1.0,M11.1.0")) == .badRule("EST5EDT,M13.1.0,M11.1.0"))
        #expect(error(Array(newYorkBytes.dropLast())) == .badFooter)
        #expect(error(tzif(types: [], chars: "")) == .badCounts("typecnt 0"))
        for bad in ["", "EST", "EST5EDT,", "EST5EDT,M3.2.0", "<EST5", "EST25", "EST5EDT,J0,J365", "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.0/168,M11.1.0"] {
            #expect((try? Zone.posix(bad)) == nil, "\(bad)")
        }
        // Leap-second records are skipped.
        #expect((try? Zone.parse(tzif: tzif(types: [(0, false, 0)], chars: "UTC\0", footer: "UTC0", leaps: 3), name: "right/UTC")) != nil)
    }

    /// Every prefix of a valid file, and seeded random damage: a typed error or a zone, never a crash,
    /// and a zone that parses converts without trapping.
    @Test func damagedFilesNeverCrash() {
        for n in 0..<newYorkBytes.count {
            #expect((try? Zone.parse(tzif: Array(newYorkBytes.prefix(n)), name: "x")) == nil, "prefix of \(n) bytes")
        }
        var random = SeededRandom.seeded("ZoneTests.damagedFilesNeverCrash")
        var parsed = 0
        for _ in 0..<3_000 {
            var b = newYorkBytes
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let i = Int.random(in: 0..<b.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: b[i] = UInt8.random(in: 0...255, using: &random)
                case 1: b.remove(at: i)
                default: b.insert(UInt8.random(in: 0...255, using: &random), at: i)
                }
                if b.isEmpty { break }
            }
            guard let z = try? Zone.parse(tzif: b, name: "x") else { continue }
            parsed += 1
            for t in [Int64(-2_000_000_000), 0, 1_772_953_200, 4_000_000_000] {
                _ = z.localTime(at: t)
                _ = z.firstInstant(wall: t)
            }
        }
        #expect(parsed > 0, "some damage (in abbreviations, say) still parses")
    }
}
