// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Testing

/// Bad input for every key: `InvalidArgument` naming the key, and nothing scheduled.
@Suite struct ValidationTests {
    static let future = Int64(monday0900 / usecPerSecond) + 3_600
    static let long = String(repeating: "x", count: 257)

    static let cases: [(String, [String: Value])] = [
        // wrong D-Bus types
        ("title", ["duration": .uint32(60), "title": .int32(5)]),
        ("fixed_date", ["fixed_date": .string("tomorrow")]),
        ("hour", ["hour": .string("7")]),
        ("minute", ["hour": .uint32(7), "minute": .bool(true)]),
        ("weekdays", ["hour": .uint32(7), "weekdays": .string("monday")]),
        ("duration", ["duration": .bool(true)]),
        ("end_date", ["end_date": .double(1e10)]),
        ("pre_alert", ["fixed_date": .int64(future), "pre_alert": .string("5m")]),
        ("post_alert", ["duration": .uint32(60), "post_alert": .double(5)]),
        ("subtitle", ["duration": .uint32(60), "subtitle": .uint32(1)]),
        ("status", ["duration": .uint32(60), "status": .bool(false)]),
        ("ring", ["duration": .uint32(60), "ring": .uint32(1)]),
        ("sound", ["duration": .uint32(60), "sound": .int32(1)]),
        ("metadata", ["duration": .uint32(60), "metadata": .string("{}")]),
        ("warning_threshold", ["duration": .uint32(60), "warning_threshold": .string("10")]),
        ("accent_color", ["duration": .uint32(60), "accent_color": .uint32(0xff0000)]),
        // out of range
        ("hour", ["hour": .uint32(24)]),
        ("minute", ["hour": .uint32(7), "minute": .uint32(60)]),
        ("hour", ["hour": .int32(-1)]),
        ("post_alert", ["duration": .uint32(60), "post_alert": .uint32(0)]),
        ("post_alert", ["duration": .uint32(60), "post_alert": .uint32(86_401)]),
        ("pre_alert", ["fixed_date": .int64(future), "pre_alert": .uint32(8 * 86_400)]),
        ("duration", ["duration": .uint32(0)]),
        ("duration", ["duration": .int32(-5)]),
        ("duration", ["duration": .string("abc")]),
        ("duration", ["duration": .uint64(200_000_000)]),
        ("fixed_date", ["fixed_date": .int64(1_000)]),
        ("fixed_date", ["fixed_date": .int64(Int64(monday0900 / usecPerSecond) - 1)]),
        ("fixed_date", ["fixed_date": .int64(Int64(monday0900 / usecPerSecond) * 1000)]),
        ("end_date", ["end_date": .int64(Int64(monday0900 / usecPerSecond) - 10)]),
        ("weekdays", ["hour": .uint32(7), "weekdays": .strings(["funday"])]),
        // unknown keys, missing or empty title, over-long strings
        ("colour", ["duration": .uint32(60), "colour": .string("red")]),
        ("title", ["duration": .uint32(60), "title": .string("")]),
        ("title", ["duration": .uint32(60), "title": .string("   ")]),
        ("title", ["duration": .uint32(60), "title": .string(long)]),
        ("subtitle", ["duration": .uint32(60), "subtitle": .string(long)]),
        ("completion_message", ["duration": .uint32(60), "completion_message": .string(String(repeating: "y", count: 513))]),
        ("compact_label", ["duration": .uint32(60), "compact_label": .string("12345")]),
        // malformed values
        ("accent_color", ["duration": .uint32(60), "accent_color": .string("#12345")]),
        ("background_color", ["duration": .uint32(60), "background_color": .string("chartreuse-ish")]),
        ("text_color", ["duration": .uint32(60), "text_color": .string("#GGGGGG")]),
        ("icon", ["duration": .uint32(60), "icon": .string("not an icon")]),
        ("tap_action", ["duration": .uint32(60), "tap_action": .string("javascript:alert(1)")]),
        ("tap_action", ["duration": .uint32(60), "tap_action": .string("DATA:text/html,x")]),
        ("tap_action", ["duration": .uint32(60), "tap_action": .string("file:///etc/passwd")]),
        ("tap_action", ["duration": .uint32(60), "tap_action": .string("vbscript:x")]),
        ("tap_action", ["duration": .uint32(60), "tap_action": .string("no scheme")]),
        ("secondary_button_behavior", ["duration": .uint32(60), "secondary_button_behavior": .string("snooze")]),
        ("secondary_action", ["duration": .uint32(60), "secondary_button_behavior": .string("custom")]),
        ("stop_action", ["duration": .uint32(60), "stop_action": .string("do it!")]),
        ("sound", ["duration": .uint32(60), "sound": .string("Alarm Clock")]),
        ("metadata", ["duration": .uint32(60), "metadata": .vardict([("blob", .string(String(repeating: "z", count: 5000)))])]),
        // conflicting schedules
        ("hour", ["fixed_date": .int64(future), "hour": .uint32(7)]),
        ("duration", ["fixed_date": .int64(future), "duration": .uint32(60)]),
        ("hour", ["duration": .uint32(60), "hour": .uint32(7)]),
        ("hour", ["minute": .uint32(30)]),
        ("schedule", [:]),
    ]

    @Test(arguments: cases.indices)
    func refusedNamingTheKey(_ i: Int) {
        let (key, entries) = Self.cases[i]
        let (e, _) = makeEngine()
        let err = expectError { () throws(AlarmError) in _ = try e.schedule(entries) }
        #expect(err?.name == Contract.ErrorName.invalidArgument, "case \(i) \(key)")
        #expect(err?.invalidKey == key, "case \(i): \(err?.message ?? "accepted")")
        #expect(e.count == 0)
    }

    @Test func everyPresentationKeyIsKeptAndExposed() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule([
            "duration": .string("25m"), "title": .string("Pizza"), "subtitle": .string("25 min timer"),
            "status": .string("Baking"), "icon": .string("mdi:timer-outline"), "accent_color": .string("#FF8800"),
            "background_color": .string("black"), "text_color": .string("#ffffffcc"), "compact_label": .string("🍕ab"),
            "stop_button": .string("Done"), "secondary_button": .string("Repeat"),
            "secondary_button_behavior": .string("custom"), "secondary_action": .string("repeat-timer"),
            "countdown_title": .string("Baking…"), "pause_button": .string("Hold"), "paused_title": .string("On hold"),
            "resume_button": .string("Go"), "stop_action": .string("app.stop"), "tap_action": .string("https://example.org/t"),
            "warning_threshold": .uint32(60), "completion_message": .string("Done baking!"), "ring": .bool(false),
            "sound": .string("/usr/share/sounds/x.oga"), "metadata": .vardict([("order", .int32(42))]),
        ])
        let p = Dictionary(uniqueKeysWithValues: a.config.presentation.entries)
        #expect(p["accent_color"] == .string("#ff8800"))
        #expect(p["compact_label"] == .string("🍕ab"))
        #expect(p["secondary_action"] == .string("repeat-timer"))
        #expect(p["completion_message"] == .string("Done baking!"))
        #expect(p["warning_threshold"] == .uint32(60))
        #expect(p.count == 20)
        #expect(a.config.ring == false && a.config.sound == "/usr/share/sounds/x.oga")
        #expect(a.config.metadata == .vardict([("order", .int32(42))]))
    }

    @Test func defaultsAreFilledIn() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["duration": .uint32(60)])
        let p = Dictionary(uniqueKeysWithValues: a.config.presentation.entries)
        #expect(p["stop_button"] == .string("Stop") && p["completion_message"] == .string("Completed"))
        #expect(a.config.postAlert == 300 && a.config.ring && a.config.sound == "default")
    }

    @Test func flexibleNumericTypes() throws {
        let (e, _) = makeEngine()
        #expect(try e.schedule(["hour": .int32(7), "minute": .byte(5)]).config.schedule == .relative(hour: 7, minute: 5, weekdays: []))
        #expect(try e.schedule(["duration": .double(90)]).countdownTotal == 90 * usecPerSecond)
        let fractional = Double(monday0900) / 1e6 + 10.5
        #expect(try e.schedule(["fixed_date": .double(fractional)]).fireTime == monday0900 + 10_500_000)
    }

    @Test func endDateWinsOverDuration() throws {
        let (e, _) = makeEngine()
        let end = Int64(monday0900 / usecPerSecond) + 120
        let a = try e.schedule(["duration": .uint32(30), "end_date": .int64(end)])
        #expect(a.fireTime == USec(end) * usecPerSecond && a.countdownTotal == 120 * usecPerSecond)
    }

    /// A valid configuration around `key`, so that the error can only be about `key`.
    static func base(for key: String) -> [String: Value] {
        switch key {
        case "minute", "weekdays": return ["title": .string("T"), "hour": .uint32(7)]
        case "hour", "fixed_date", "duration", "end_date", "title": return key == "title" ? ["duration": .uint32(60)] : ["title": .string("T")]
        case "pre_alert": return ["title": .string("T"), "fixed_date": .int64(future)]
        default: return ["title": .string("T"), "duration": .uint32(60)]
        }
    }

    /// Every key, given a D-Bus type no key takes: InvalidArgument naming that key, nothing scheduled.
    @Test(arguments: AlarmConfiguration.knownKeys.sorted())
    func everyKeyRefusesAWrongType(_ key: String) {
        var raw = Self.base(for: key)
        raw[key] = .objectPath("/not/a/value")
        let (e, _) = makeEngine()
        let err = expectError { () throws(AlarmError) in _ = try e.schedule(raw) }
        #expect(err?.invalidKey == key, "\(key): \(err?.message ?? "accepted")")
        #expect(e.count == 0)
    }

    /// Every string key refuses an over-long string; every numeric key a number out of range.
    @Test(arguments: AlarmConfiguration.knownKeys.sorted())
    func everyKeyRefusesOutOfRange(_ key: String) {
        var raw = Self.base(for: key)
        let numeric: Set<String> = ["fixed_date", "hour", "minute", "duration", "end_date", "pre_alert", "post_alert",
                                    "warning_threshold", "volume_ramp"]
        switch key {
        case _ where numeric.contains(key): raw[key] = .uint64(UInt64.max)
        case "ring", "trigger_if_missed", "weekdays": return   // booleans and day names have no range
        case "metadata": raw[key] = .vardict([("x", .string(String(repeating: "m", count: 5_000)))])
        default: raw[key] = .string(String(repeating: "x", count: 5_000))
        }
        let (e, _) = makeEngine()
        let err = expectError { () throws(AlarmError) in _ = try e.schedule(raw) }
        #expect(err?.invalidKey == key, "\(key): \(err?.message ?? "accepted")")
        #expect(e.count == 0)
    }

    /// Found by the core fuzzer: metadata small enough but nested deeper than the stored form keeps
    /// was accepted, and the alarm would have been lost at the next start. As deep as D-Bus carries
    /// (64 containers in all, 3 of them the configuration's own) is kept; deeper is refused.
    @Test func metadataNestedDeeperThanTheStoreKeepsIsRefused() throws {
        func nested(_ levels: Int) -> Value {
            (0..<levels).reduce(Value.string("bottom")) { v, _ in .variant(v) }
        }
        let (e, _) = makeEngine()
        let kept = try e.schedule(["duration": .uint32(60), "metadata": .vardict([("deep", nested(61))])])
        #expect(Alarm(record: kept.record) == kept, "what D-Bus can carry survives the store")
        for levels in [64, 100, 200] {
            let err = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60), "metadata": .vardict([("deep", nested(levels))])]) }
            #expect(err?.invalidKey == "metadata", "\(levels) levels: \(err?.message ?? "accepted")")
        }
        #expect(e.count == 1)
    }
}
