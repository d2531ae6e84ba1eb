// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// Arguments as a careless or hostile client makes them: mostly valid configurations (so the fuzzers
/// get past validation into the state machine), each key now and then given a value of the wrong
/// type, out of range, empty, huge, with noncharacters or control characters, deeply nested, or as a
/// dictionary of thousands of keys; ids of every spelling, of other apps, or none.
public struct HostileInput {
    /// A noncharacter as a string: Swift refuses them in literals.
    public static func nc(_ v: UInt32) -> String { String(Unicode.Scalar(v)!) }

    /// How big the worst inputs get: the core takes any size, the bus carries what dbus-daemon does.
    public struct Scale: Sendable {
        public var hugeTextBytes: [Int]
        /// What huge strings repeat.
        public var hugeUnits: [String]
        public var deepLevels: [Int]

        public init(hugeTextBytes: [Int], hugeUnits: [String], deepLevels: [Int]) {
            self.hugeTextBytes = hugeTextBytes
            self.hugeUnits = hugeUnits
            self.deepLevels = deepLevels
        }

        /// In-process: no message limits apply, but each input must stay quick.
        public static let core = Scale(hugeTextBytes: [257, 4_097, 65_537], hugeUnits: ["x", "ü", HostileInput.nc(0xFDD0)],
                                       deepLevels: [31, 32, 63, 64, 65, 100, 200])
    }

    public let scale: Scale
    /// Unix seconds "now", for dates that are just past, just ahead, or far off.
    public var nowSeconds: Int64

    private let cache = HugeCache()

    public init(scale: Scale, nowSeconds: Int64) {
        self.scale = scale
        self.nowSeconds = nowSeconds
    }

    // MARK: text

    /// Strings every validator must survive; some are valid values of some key.
    public static let tricky: [String] = [
        "", " ", "\t", "\n", "Tea", "Pizza 🍕", "x", "Stop",
        nc(0xFDD0), "a" + nc(0xFDEF) + "b", nc(0xFFFE), nc(0xFFFF), nc(0x1FFFE), nc(0x10FFFF), // noncharacters: sd-bus refuses them
        "\u{0}", "a\u{0}b", "\u{1}", "\u{1B}[2J", "\u{7F}", "\r\n", // NUL and control characters
        "\u{202E}evil", "\u{200B}", "\u{FEFF}", "e\u{301}\u{301}\u{301}", "👩‍👩‍👧‍👦", "🇩🇪", "\u{FFFD}",
        "%s%s%s%n", "${HOME}", "$(reboot)", "`id`", "'; DROP TABLE alarms; --", "\"", "\\", "'",
        "../../etc/passwd", "/", "//", "/dev/null", "/nonexistent/x.oga", "/../x", "file:///etc/passwd",
        "javascript:alert(1)", "JaVaScRiPt:x", "data:text/html,x", "vbscript:x", "https://example.org/?q=1",
        "https://x y", "mdi:", "mdi:bell", "alarm-clock", "#", "#ff00ff", "#FF00FF00", "#ff00f", "orange", "ORANGE",
        "monday", "Sunday", "funday", "30s", "1h30m", "0", "-5", "5y", "1d12h", "99999999999999999999", "1e9",
        "countdown", "custom", "app.stop", "a b", "default", "bell", "alarm-clock-elapsed",
        "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77", "/org/alarmd/AlarmManager1", "org.alarmd.AlarmManager1",
    ]

    public func text<C: Choices>(_ c: inout C) -> String {
        switch c.below(64) {
        case 0: return huge(&c)
        case 1...3: return String(repeating: c.pick(["x", "ü", "🍕", "e\u{301}", Self.nc(0xFDD0)]), count: c.pick([4, 5, 255, 256, 257, 512, 513]))
        case 4...7: return c.pick(Self.tricky) + c.pick(Self.tricky)
        default: return c.pick(Self.tricky)
        }
    }

    /// A string of about one of `scale.hugeTextBytes` bytes, one of `scale.hugeUnits` repeated.
    public func huge<C: Choices>(_ c: inout C) -> String {
        cache.text(bytes: c.pick(scale.hugeTextBytes), unit: c.pick(scale.hugeUnits))
    }

    // MARK: ids

    public static let apps = ["org.fuzz.A", "org.fuzz.B", "snap.fuzz"]

    public func appID<C: Choices>(_ c: inout C) -> String {
        c.chance(200) ? c.pick(Self.apps + [""])
            : c.pick(["a", "org", "1org.x", "org..x", "org.x-y", "org.x.", ".org.x", "org.x/y", "org.ä.x",
                      String(repeating: "a.", count: 127) + "a", String(repeating: "a.", count: 128) + "a"] + [text(&c)])
    }

    /// An id to act on: one seen before (as given, in another spelling, or damaged), a new UUID,
    /// or something that is not an id at all.
    public func alarmID<C: Choices>(_ c: inout C, known: [String]) -> String {
        let id = known.isEmpty ? "" : c.pick(known)
        switch c.below(12) {
        case 0...5 where !id.isEmpty: return id
        case 6 where !id.isEmpty: return id.uppercased()
        case 7 where !id.isEmpty: return id.replacingOccurrences(of: "-", with: "_")
        case 8 where !id.isEmpty: return c.pick([String(id.dropLast()), id + "0", " " + id, id + Self.nc(0xFDD0), AlarmID.path(of: id)])
        case 9: return AlarmKey(hi: c.uint64(), lo: c.uint64()).string
        case 10: return c.pick(["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "",
                                "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a7g", "0b6c2e2a4f4e4c419d2b8f0e8c1c9a77xxxx"])
        default: return text(&c)
        }
    }

    // MARK: values

    /// `n` as one of the D-Bus integer types (small types wrap, which makes out-of-range values too).
    public func integer<C: Choices>(_ n: Int64, _ c: inout C) -> Value {
        switch c.below(8) {
        case 0: return .byte(UInt8(truncatingIfNeeded: n))
        case 1: return .int16(Int16(truncatingIfNeeded: n))
        case 2: return .uint16(UInt16(truncatingIfNeeded: n))
        case 3: return .int32(Int32(truncatingIfNeeded: n))
        case 4, 5: return .uint32(UInt32(truncatingIfNeeded: n))
        case 6: return .int64(n)
        default: return .uint64(UInt64(bitPattern: n))
        }
    }

    /// Any value of any type, at most `depth` containers deep (more for `deep`).
    public func value<C: Choices>(_ c: inout C, depth: Int = 0) -> Value {
        let leaf = depth >= 3 || c.chance(150)
        if leaf {
            switch c.below(14) {
            case 0: return .bool(c.chance(128))
            case 1: return .double(c.pick([0, -1, 0.5, 1e300, -1e300, .nan, .infinity, -.infinity, 1.7e9, Double(nowSeconds) + 60]))
            case 2: return .objectPath(c.pick(["/", "/org/alarmd/AlarmManager1", "/a/b_c"]))
            case 3: return .signature(c.pick(["", "s", "a{sv}", "(ii)", "v"]))
            case 4...7: return integer(c.pick([0, 1, -1, 59, 60, 255, 256, 65_535, 86_400, 86_401, Int64(UInt32.max), .max, .min, nowSeconds + 60]), &c)
            default: return .string(text(&c))
            }
        }
        switch c.below(7) {
        case 0: return .array(element: "s", (0..<c.below(4)).map { _ in .string(text(&c)) })
        case 1: return .array(element: "y", (0..<c.below(40)).map { _ in .byte(UInt8(c.below(256))) })
        case 2: return .structure((0..<(1 + c.below(3))).map { _ in value(&c, depth: depth + 1) })
        case 3: return .variant(value(&c, depth: depth + 1))
        case 4: return .dict(key: "s", value: "s", (0..<c.below(4)).map { _ in .init(.string(text(&c)), .string(text(&c))) })
        case 5: return deep(&c)
        default: return .vardict((0..<c.below(5)).map { i in ("k\(i)", value(&c, depth: depth + 1)) })
        }
    }

    /// A value nested as deep as D-Bus allows, and deeper: variants, arrays, structures, dictionaries.
    public func deep<C: Choices>(_ c: inout C) -> Value {
        var v: Value = .string("bottom")
        let kind = c.below(4)
        for _ in 0..<c.pick(scale.deepLevels) {
            switch kind {
            case 0: v = .variant(v)
            case 1: v = .array(element: v.signature, [v])
            case 2: v = .structure([v])
            default: v = .vardict([("k", v)])
            }
        }
        return v
    }

    /// A string→variant dictionary of thousands of keys.
    public func bigDict<C: Choices>(_ c: inout C) -> Value { c.pick(Self.bigDicts) }

    /// Built once per process: copies share their storage.
    static let bigDicts: [Value] = [1_000, 10_000].flatMap { n in
        [Value.bool(true), .string(""), .uint32(7)].map { filler in .vardict((0..<n).map { ("k\($0)", filler) }) }
    }

    // MARK: configurations

    /// A configuration (`a{sv}` entries, in order; a key may come twice): a valid base of one of
    /// the four schedule shapes, then extra keys, some with hostile values.
    public func configuration<C: Choices>(_ c: inout C) -> [(String, Value)] {
        var entries: [(String, Value)] = []
        if c.chance(235) { entries.append(("title", c.chance(220) ? .string(c.pick(["Tea", "Pizza 🍕", "Get up"])) : hostile("title", &c))) }
        switch c.below(5) {
        case 0: entries.append(("duration", valid("duration", &c)))
        case 1: entries.append(("fixed_date", valid("fixed_date", &c)))
        case 2:
            entries.append(("hour", valid("hour", &c)))
            if c.chance(128) { entries.append(("minute", valid("minute", &c))) }
            if c.chance(128) { entries.append(("weekdays", valid("weekdays", &c))) }
        case 3: entries.append(("end_date", valid("end_date", &c)))
        default: break
        }
        entries += changes(&c, count: c.below(5))
        if c.chance(8) { entries.append((c.pick(Array(AlarmConfiguration.knownKeys)), value(&c))) }
        return entries
    }

    /// `count` keys for `Update` (or extra keys of a configuration), some hostile.
    public func changes<C: Choices>(_ c: inout C, count: Int) -> [(String, Value)] {
        (0..<count).map { _ in
            if c.chance(10) { return (c.pick(["", "bogus", "Title", "title ", "🔔", "metadata\u{0}"] + [text(&c)]), value(&c)) }
            let key = c.pick(Self.keys)
            return (key, c.chance(180) ? valid(key, &c) : hostile(key, &c))
        }
    }

    /// Keys for `Update`'s clear list.
    public func clear<C: Choices>(_ c: inout C) -> [String] {
        (0..<c.below(3)).map { _ in c.chance(230) ? c.pick(Self.keys) : text(&c) }
    }

    static let keys = AlarmConfiguration.knownKeys.sorted()

    /// A value `key` accepts (mostly; ranges are probed at their edges).
    public func valid<C: Choices>(_ key: String, _ c: inout C) -> Value {
        switch key {
        case "fixed_date":
            let century: Int64 = 100 * 366 * 86_400
            let at = nowSeconds + c.pick([-10, 0, 1, 30, 59, 61, 3_600, 86_400, century - 1, century + 1] as [Int64])
            return c.chance(200) ? integer(at, &c) : .double(Double(at) + c.pick([0.25, 0.5, 0.999_999]))
        case "end_date":
            return .int64(nowSeconds + c.pick([-1, 0, 1, 2, 59, 61, 3_600, 157_788_000, 157_788_001] as [Int64]))
        case "hour": return integer(Int64(c.below(25)), &c)
        case "minute": return integer(Int64(c.below(61)), &c)
        case "weekdays":
            return .strings((0..<c.below(9)).map { _ in c.chance(240) ? c.pick(Weekday.allCases).rawValue : c.pick(["MONDAY", "funday", ""]) })
        case "duration":
            return c.chance(128) ? integer(c.pick([1, 2, 3, 59, 60, 61, 300, 3_600, 86_400, 157_788_000, 157_788_001, 0]), &c)
                : c.chance(128) ? .string(c.pick(["1s", "2s", "30s", "1m", "5m", "1h30m", "1d12h", "0s", "5y", "1500", ""]))
                : .double(c.pick([1, 1.5, 2.5, 0.4, 157_788_000.5]))
        case "pre_alert": return integer(c.pick([0, 1, 30, 600, 7 * 86_400, 7 * 86_400 + 1]), &c)
        case "post_alert": return integer(c.pick([0, 1, 2, 60, 300, 86_400, 86_401]), &c)
        case "volume_ramp": return integer(c.pick([0, 1, 60, 3_600, 3_601]), &c)
        case "warning_threshold": return integer(c.pick([0, 1, 2, 30, 60, 600, 157_788_000, 157_788_001]), &c)
        case "ring", "trigger_if_missed": return .bool(c.chance(128))
        case "icon": return .string(c.pick(["alarm-clock", "mdi:bell-ring", "org.example.Clock", "a b", ""]))
        case "accent_color", "background_color", "text_color": return .string(c.pick(["orange", "#A1B2C3", "#a1b2c3ff", "Red", "", "#12345"]))
        case "compact_label": return .string(c.pick(["", "PZ", "🍕ab", "1234", "12345", "e\u{301}e\u{301}"]))
        case "secondary_button_behavior": return .string(c.pick(["countdown", "custom", "Custom"]))
        case "stop_action", "secondary_action": return .string(c.pick(["app.stop", "snooze-1", "", "a b"]))
        case "tap_action": return .string(c.pick(["https://example.org/?q=1", "org.example.Clock:open", "javascript:x", "x"]))
        case "sound": return .string(c.pick(["default", "bell", "chime", "alarm-clock-elapsed", "/nonexistent/x.oga", "/a/../b", "Bell"]))
        case "metadata":
            switch c.below(16) {
            case 0: return bigDict(&c)
            case 1: return .vardict([("deep", deep(&c))])
            case 2: return .vardict([])
            default: return .vardict((0..<c.below(6)).map { i in ("k\(i)", value(&c, depth: 1)) })
            }
        case "completion_message": return .string(c.pick(["Done", String(repeating: "m", count: 512), String(repeating: "m", count: 513)]))
        default: return .string(c.pick(["Tea", "Baking", "Snooze", String(repeating: "t", count: 256), String(repeating: "t", count: 257)]))
        }
    }

    /// A value `key` should refuse, or one that tests the edges of what it accepts.
    public func hostile<C: Choices>(_ key: String, _ c: inout C) -> Value {
        switch c.below(16) {
        case 0: return .string(huge(&c))
        case 1: return deep(&c)
        case 2: return bigDict(&c)
        case 3, 4: return .variant(valid(key, &c))
        case 5: return .string("")
        default: return c.chance(128) ? .string(text(&c)) : value(&c)
        }
    }
}

/// Huge strings, made once each (up to 16 MiB; larger ones every time: they are rare and would
/// hold too much).
final class HugeCache {
    private var made: [String: String] = [:]

    func text(bytes: Int, unit: String) -> String {
        let key = "\(bytes) \(unit)"
        if let s = made[key] { return s }
        let u = Array(unit.utf8)
        let count = (bytes / u.count + 1) * u.count
        let filled = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count { buffer[i] = u[i % u.count] }
            initialized = count
        }
        let s = String(decoding: filled, as: UTF8.self)
        if bytes <= 16 << 20 { made[key] = s }
        return s
    }
}
