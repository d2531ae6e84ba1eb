// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Testing
import TestSupport

/// The pure text operations that replace Foundation's ICU-backed ones, checked against Foundation
/// itself (linked by the tests only) so that logs, key files and durations read as before.
struct TextTests {
    @Test func trimmingWhitespaceMatchesFoundation() {
        let samples = ["", " ", "a", "  a b  ", "\tkey = value\t", "\n\r 5m \r\n", "\u{00A0}x\u{2003}", "x\u{00A0}", "é ", " \u{1F600} "]
        for s in samples {
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
        }
        #expect(" a "[...].trimmingWhitespace() == "a", "a substring too")
    }

    @Test func fixedMatchesPrintf() {
        var rng = SeededRandom.seeded("fixedMatchesPrintf")
        var values: [Double] = [0, -0.0, 0.05, 0.15, 0.25, 1.5, 2.5, -2.5, 12.345, -12.355, 999.95, 1e6, 123_456.789, -0.04]
        for _ in 0..<2_000 { values.append(Double(Int64.random(in: -10_000_000...10_000_000, using: &rng)) / 997) }
        for v in values {
            for d in 0...3 {
                let expected = String(format: "%.\(d)f", v)
                // printf rounds the binary value (half to even on exact ties); `fixed` rounds half
                // away from zero: they may differ in the last digit only on an exact binary tie.
                let exactTie = (abs(v) * pow(10, Double(d))).truncatingRemainder(dividingBy: 1) == 0.5
                if !exactTie { #expect(fixed(v, digits: d) == expected, "\(v) to \(d) digits") }
            }
        }
        #expect(fixed(-3.0, digits: 1) == "-3.0")
        #expect(fixed(2.0 / 3, digits: 2) == "0.67")
        #expect(fixed(.nan, digits: 1) == "nan" && fixed(-.infinity, digits: 1) == "-inf")
    }

    @Test func hexIsTwoLowerCaseDigitsAByte() {
        #expect([UInt8]().hex == "")
        #expect([0, 1, 0x0f, 0x10, 0xab, 0xff].hex == "00010f10abff")
    }

    @Test func isoTimeReadsBackWhatItWrote() {
        var rng = SeededRandom.seeded("isoTimeReadsBackWhatItWrote")
        for _ in 0..<1_000 {
            let usec = UInt64.random(in: 0...4_102_444_800, using: &rng) * 1_000_000   // 1970…2100
            #expect(KeptStoreName.usec(isoTime: KeptStoreName.isoTime(usec)) == usec)
        }
        #expect(KeptStoreName.usec(isoTime: "2026-12-01T06:30:00Z") == 1_796_106_600_000_000)
        for bad in ["", "2026-12-01 06:30:00Z", "2026-12-01T06:30:00", "2026-02-30T06:30:00Z", "2026-12-01T24:00:00Z", "2026-1a-01T06:30:00Z"] {
            #expect(KeptStoreName.usec(isoTime: bad) == nil, "\(bad)")
        }
    }
}
