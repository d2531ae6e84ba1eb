// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Foundation
import Testing
import TestSupport

/// What alarmctl and the panel show, now computed from the system's zone database without
/// Foundation's formatters, read as Foundation read it (Foundation is linked by the tests only).
struct TextWithoutICUTests {
    static let s: USec = 1_000_000

    /// The formatter `TimeText.local` replaced, as it was.
    static func foundationLocal(_ t: USec, now: USec, zone: TimeZone) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let date = Date(timeIntervalSince1970: Double(t) / 1e6), today = Date(timeIntervalSince1970: Double(now) / 1e6)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        if cal.isDate(date, inSameDayAs: today) { f.dateFormat = "HH:mm" }
        else if date > today, date.timeIntervalSince(today) < 6.5 * 86_400 { f.dateFormat = "EEE HH:mm" }
        else { f.dateFormat = "yyyy-MM-dd HH:mm" }
        return f.string(from: date)
    }

    @Test func localTimesReadAsFoundationReadThem() {
        var rng = SeededRandom.seeded("localTimesReadAsFoundationReadThem")
        for name in ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "UTC"] {
            let zone = Zone.system(name), tz = TimeZone(identifier: name)!
            for _ in 0..<400 {
                let now = USec.random(in: 1_767_225_600...1_893_456_000, using: &rng) * Self.s   // 2026…2030
                let t = now.shifted(by: Int64.random(in: -3 * 86_400...10 * 86_400, using: &rng) * 1_000_000)
                #expect(TimeText.local(t, now: now, zone: zone) == Self.foundationLocal(t, now: now, zone: tz), "\(name) \(t) from \(now)")
            }
        }
    }

    @Test func localTimesInBerlin() {
        let berlin = Zone.system("Europe/Berlin")
        let now: USec = 1_796_106_600 * Self.s   // Tue 2026-12-01 07:30 in Berlin
        #expect(TimeText.local(now + 14 * 3600 * Self.s, now: now, zone: berlin) == "21:30")
        #expect(TimeText.local(now + 2 * 86_400 * Self.s, now: now, zone: berlin) == "Thu 07:30")
        #expect(TimeText.local(now + 10 * 86_400 * Self.s, now: now, zone: berlin) == "2026-12-11 07:30")
        #expect(TimeText.local(now - 86_400 * Self.s, now: now, zone: berlin) == "2026-11-30 07:30", "the past has its date")
        // Across the spring change the wall clock moves on by an hour: Sat 12:00 CET, then Sun 08:00 CEST.
        let saturday: USec = 1_774_695_600 * Self.s   // 2026-03-28 12:00 CET
        #expect(TimeText.local(saturday + 19 * 3600 * Self.s, now: saturday, zone: berlin) == "Sun 08:00")
        #expect(TimeText.seconds(1_796_106_605 * Self.s, zone: berlin) == "07:30:05")
    }

    @Test func typedTimesInAGapAndAnOverlapFollowTheDaemonsRule() {
        let berlin = Zone.system("Europe/Berlin")
        // 02:30 on 2026-03-29 does not happen in Berlin: the instant the clocks skip to (03:00 CEST).
        #expect(CommandInput.time("2026-03-29 02:30", zone: berlin) == .fixed(1_774_746_000))
        // 02:30 on 2026-10-25 happens twice: the first (CEST).
        #expect(CommandInput.time("2026-10-25 02:30", zone: berlin) == .fixed(1_792_888_200))
        #expect(CommandInput.time("2026-12-01 07:30", zone: berlin) == .fixed(1_796_110_200 - 3_600))
    }

    @Test func jsonAsJSONSerializationWroteIt() throws {
        let object: [String: Any] = [
            "text": "a/b \"q\" \\ \n\t\u{01} é 🔔", "n": 42, "big": UInt64.max, "neg": Int64.min, "yes": true, "no": false,
            "pi": 3.25, "whole": 2.0, "none": JSONText.null, "list": [1, "two", [String: Any]()], "empty": [Any](),
            "nested": ["b": 1, "a": ["x": "y"]] as [String: Any],
        ]
        let short = try #require(JSONText.text(object))
        let expectedShort = try Self.serialization(object, [])
        #expect(short == expectedShort)
        // Indented the same, except that an empty array or object stays `[]`/`{}` rather than
        // Foundation's brackets around a blank line.
        var filled = object
        filled["empty"] = nil
        filled["list"] = [1, "two", ["k": 1]] as [Any]
        let expectedPretty = try Self.serialization(filled, .prettyPrinted)
        #expect(JSONText.text(filled, pretty: true) == expectedPretty)
        #expect(JSONText.text(["e": [Any](), "o": [String: Any]()], pretty: true) == "{\n  \"e\" : [],\n  \"o\" : {}\n}")
        #expect(short.hasPrefix("{\"big\":18446744073709551615,\"empty\":[],\"list\":[1,\"two\",{}]"), "keys sorted, / not escaped")
        // What it writes, Foundation reads back as the same values.
        let back = try JSONSerialization.jsonObject(with: Data(short.utf8)) as? [String: Any]
        #expect(back?["text"] as? String == object["text"] as? String)
        #expect(JSONText.text(["date": Date()]) == nil, "what JSON has no form for is refused, as before")
        #expect(JSONText.text(Double.nan) == "null")
    }

    static func serialization(_ object: Any, _ extra: JSONSerialization.WritingOptions) throws -> String {
        let o = object is [String: Any] ? (object as! [String: Any]).mapValues { $0 is JSONText.Null ? NSNull() : $0 } : object
        let data = try JSONSerialization.data(withJSONObject: o, options: extra.union([.sortedKeys, .withoutEscapingSlashes]))
        return String(decoding: data, as: UTF8.self)
    }
}
