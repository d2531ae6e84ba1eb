// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import FoundationEssentials

/// A validated configuration (`Schedule`'s a{sv}), kept compact: the schedule as two words and
/// flags, the numbers the engine schedules by, the title, and everything else (the other
/// presentation fields, sound, metadata) as sparse bytes decoded only when asked (`Extras`). The keys
/// as accepted are not kept: `raw` rebuilds an equivalent dictionary from the fields (what `Update`
/// merge-patches and validates as a whole), and the flags remember which optional schedule keys were
/// given, so that clearing a key later behaves as it would have with the original dictionary.
public struct AlarmConfiguration: Equatable, Sendable {
    /// fixed: the date (µs); relative: hour | minute << 8 | weekdays << 16 (bit 0 = Monday); timer: seconds.
    var scheduleWord: UInt64
    /// A timer's end date (µs) when `Flags.hasEnd`.
    var scheduleEnd: UInt64 = 0
    /// The presentation's title, kept as it is: it is shown everywhere.
    var title: String = ""
    /// `Extras`: the other presentation texts, sound, metadata — only those not at their defaults.
    var extras: [UInt8] = []
    public var preAlert: UInt32 = 0
    public var postAlert: UInt32 = 300
    /// Seconds over which the alarm sound grows from quiet to full; 0 = full at once.
    public var volumeRamp: UInt32 = 0
    /// The presentation's `warning_threshold`, kept as it is: the engine schedules the warning by it.
    var warningThreshold: UInt32 = 0
    var flags: UInt16

    struct Flags {
        static let kindMask: UInt16 = 0b11 // 0 fixed, 1 relative, 2 timer
        static let hasEnd: UInt16 = 1 << 2
        static let ring: UInt16 = 1 << 3
        static let triggerIfMissed: UInt16 = 1 << 4
        static let secondaryCustom: UInt16 = 1 << 5
        /// `minute` was given (relative): clearing `hour` then names it.
        static let minuteGiven: UInt16 = 1 << 6
        /// `weekdays` was given (relative), possibly empty.
        static let weekdaysGiven: UInt16 = 1 << 7
        /// Switched off (`enabled: false`, alarms only): kept, listed, never rings. A store written
        /// before the switch existed has the bit clear: every alarm on.
        static let off: UInt16 = 1 << 8
        static let all: UInt16 = 0x1FF
    }

    init(schedule: AlarmSchedule) {
        scheduleWord = 0
        flags = Flags.ring
        self.schedule = schedule
    }

    var kind: AlarmKind { flags & Flags.kindMask == 2 ? .timer : .alarm }

    /// Whether the schedule is a wall-clock time (`.relative`), without building it.
    var isRelative: Bool { flags & Flags.kindMask == 1 }

    public var schedule: AlarmSchedule {
        get {
            switch flags & Flags.kindMask {
            case 0:
                return .fixed(date: scheduleWord)
            case 1:
                let mask = scheduleWord >> 16
                return .relative(hour: Int(scheduleWord & 0xFF), minute: Int(scheduleWord >> 8 & 0xFF),
                                 weekdays: Weekday.allCases.enumerated().filter { mask >> UInt64($0.offset) & 1 == 1 }.map(\.element))
            default:
                return .timer(seconds: scheduleWord, endDate: flags & Flags.hasEnd != 0 ? scheduleEnd : nil)
            }
        }
        set {
            flags &= ~(Flags.kindMask | Flags.hasEnd)
            scheduleEnd = 0
            switch newValue {
            case .fixed(let date):
                scheduleWord = date
            case .relative(let hour, let minute, let days):
                let mask = days.reduce(UInt64(0)) { $0 | 1 << UInt64(Weekday.allCases.firstIndex(of: $1)!) }
                scheduleWord = UInt64(UInt8(clamping: hour)) | UInt64(UInt8(clamping: minute)) << 8 | mask << 16
                flags |= 1
            case .timer(let seconds, let end):
                scheduleWord = seconds
                flags |= 2
                if let end {
                    scheduleEnd = end
                    flags |= Flags.hasEnd
                }
            }
        }
    }

    public var ring: Bool {
        get { flags & Flags.ring != 0 }
        set { set(Flags.ring, newValue) }
    }

    /// Whether the alarm is on (`enabled`): one that is off keeps everything but never rings.
    public var enabled: Bool {
        get { flags & Flags.off == 0 }
        set { set(Flags.off, !newValue) }
    }

    /// Ring even when found due later than the missed-alarm grace (after suspend or downtime).
    var triggerIfMissed: Bool {
        get { flags & Flags.triggerIfMissed != 0 }
        set { set(Flags.triggerIfMissed, newValue) }
    }

    private mutating func set(_ flag: UInt16, _ on: Bool) {
        if on { flags |= flag } else { flags &= ~flag }
    }

    /// Every presentation field, defaults filled in.
    public var presentation: Presentation {
        get {
            var p = Extras.decode(extras, sound: false, metadata: false).presentation
            p.title = title
            p.warningThreshold = warningThreshold
            p.secondaryButtonBehavior = flags & Flags.secondaryCustom != 0 ? .custom : .countdown
            return p
        }
        set {
            var f = Extras.decode(extras)
            f.presentation = newValue
            extras = Extras.encode(f)
            title = newValue.title
            warningThreshold = newValue.warningThreshold
            set(Flags.secondaryCustom, newValue.secondaryButtonBehavior == .custom)
        }
    }

    public var sound: String {
        get { extras.isEmpty ? "default" : Extras.decode(extras, presentation: false, metadata: false).sound }
        set { edit { $0.sound = newValue } }
    }

    public var metadata: Value {
        get { extras.isEmpty ? .vardict([]) : Extras.decode(extras, presentation: false, sound: false).metadata }
        set { edit { $0.metadata = newValue } }
    }

    /// The seconds of a `duration` given beside an `end_date` (which wins while it is there).
    var durationWithEnd: UInt64? {
        get { extras.isEmpty ? nil : Extras.decode(extras, presentation: false, sound: false, metadata: false).durationWithEnd }
        set { edit { $0.durationWithEnd = newValue } }
    }

    private mutating func edit(_ change: (inout Extras.Fields) -> Void) {
        var f = Extras.decode(extras)
        change(&f)
        extras = Extras.encode(f)
    }

    /// The configuration as a dictionary of accepted keys: parsing it again (as `Update` does, with
    /// nothing fresh) gives this configuration back. Keys at their defaults are left out, except
    /// those whose presence matters (`title`, the schedule's keys as they were given).
    var raw: [String: Value] {
        var r: [String: Value] = ["title": .string(title)]
        switch schedule {
        case .fixed(let date):
            r["fixed_date"] = date % usecPerSecond == 0 ? .int64(Int64(date / usecPerSecond)) : .double(Double(date) / 1e6)
        case .relative(let hour, let minute, let days):
            r["hour"] = .uint32(UInt32(hour))
            if flags & Flags.minuteGiven != 0 { r["minute"] = .uint32(UInt32(minute)) }
            if flags & Flags.weekdaysGiven != 0 { r["weekdays"] = .strings(days.map(\.rawValue)) }
        case .timer(let seconds, let end):
            if let end {
                r["end_date"] = .int64(Int64(end / usecPerSecond))
                if let d = durationWithEnd { r["duration"] = .uint64(d) }
            } else {
                r["duration"] = .uint64(seconds)
            }
        }
        if preAlert != 0 { r["pre_alert"] = .uint32(preAlert) }
        if postAlert != 300 { r["post_alert"] = .uint32(postAlert) }
        if volumeRamp != 0 { r["volume_ramp"] = .uint32(volumeRamp) }
        if warningThreshold != 0 { r["warning_threshold"] = .uint32(warningThreshold) }
        if !ring { r["ring"] = .bool(false) }
        if triggerIfMissed { r["trigger_if_missed"] = .bool(true) }
        if !enabled { r["enabled"] = .bool(false) }
        if flags & Flags.secondaryCustom != 0 { r["secondary_button_behavior"] = .string("custom") }
        if !extras.isEmpty {
            let f = Extras.decode(extras)
            for t in Presentation.storedTexts {
                let s = f.presentation[keyPath: t.path]
                if s != t.initial { r[t.key] = .string(s) }
            }
            if f.sound != "default" { r["sound"] = .string(f.sound) }
            if f.metadata != .vardict([]) { r["metadata"] = f.metadata }
        }
        return r
    }

    /// Builds a configuration from its parts at once (one encoding of the extras).
    init(schedule: AlarmSchedule, preAlert: UInt32, postAlert: UInt32, presentation: Presentation, ring: Bool,
         sound: String, metadata: Value, volumeRamp: UInt32, triggerIfMissed: Bool,
         minuteGiven: Bool, weekdaysGiven: Bool, durationWithEnd: UInt64?, enabled: Bool = true) {
        self.init(schedule: schedule)
        self.preAlert = preAlert
        self.postAlert = postAlert
        self.volumeRamp = volumeRamp
        title = presentation.title
        warningThreshold = presentation.warningThreshold
        extras = Extras.encode(Extras.Fields(presentation: presentation, sound: sound, metadata: metadata,
                                             durationWithEnd: durationWithEnd))
        set(Flags.ring, ring)
        set(Flags.triggerIfMissed, triggerIfMissed)
        set(Flags.secondaryCustom, presentation.secondaryButtonBehavior == .custom)
        set(Flags.off, !enabled)
        if case .relative = schedule {
            set(Flags.minuteGiven, minuteGiven)
            set(Flags.weekdaysGiven, weekdaysGiven)
        }
    }

    static let scheduleKeys: Set<String> = ["fixed_date", "hour", "minute", "weekdays", "duration", "end_date"]

    public static let knownKeys: Set<String> = scheduleKeys.union(Presentation.fields.map(\.key)).union([
        "pre_alert", "post_alert", "ring", "sound", "metadata", "volume_ramp", "trigger_if_missed", "enabled",
    ])

    /// Whether `key` is a configuration key, without hashing (and normalizing) a key of megabytes.
    static func isKnownKey(_ key: String) -> Bool {
        key.utf8.count <= longestKey && knownKeys.contains(key)
    }

    private static let longestKey = knownKeys.map(\.utf8.count).max() ?? 0

    static let maxTextLength = 256
    public static let maxCompletionLength = 512
    static let maxMetadataBytes = 4096
    /// Fixed dates further out than this are surely a unit mistake (milliseconds for seconds).
    static let maxFutureSeconds: UInt64 = 100 * 366 * 86_400

    /// Validates a whole configuration. `fresh` names the keys given in this call: only those are
    /// checked against `now` (an end date that has since passed is not an error on a later update).
    static func parse(_ raw: [String: Value], now: USec, fresh: Set<String>,
                             previous: AlarmConfiguration? = nil) throws(AlarmError) -> AlarmConfiguration {
        var p = Parser(raw: raw, now: now, fresh: fresh, previous: previous)
        return try p.run()
    }

    static func parse(_ raw: [String: Value], now: USec) throws(AlarmError) -> AlarmConfiguration {
        try parse(raw, now: now, fresh: Set(raw.keys))
    }

    /// The seconds a `duration` value stands for, nil when it is not a valid duration.
    static func durationSeconds(_ v: Value) -> UInt64? {
        try? Parser(raw: [:], now: 0, fresh: [], previous: nil).duration(v)
    }
}

private struct Parser {
    let raw: [String: Value]
    let now: USec
    let fresh: Set<String>
    let previous: AlarmConfiguration?

    mutating func run() throws(AlarmError) -> AlarmConfiguration {
        if let key = raw.keys.filter({ !AlarmConfiguration.isKnownKey($0) }).min() {
            throw .bad(key, "unknown configuration key")
        }
        let schedule = try schedule()
        var preAlert: UInt32 = 0, postAlert: UInt32 = 300, volumeRamp: UInt32 = 0
        var pr = Presentation()
        if let v = try uint("pre_alert", max: 7 * 86_400) { preAlert = UInt32(v) }
        if let v = try uint("post_alert", min: 1, max: 86_400) { postAlert = UInt32(v) }
        for field in Presentation.fields { try presentation(field, into: &pr) }
        var ring = true
        if let v = raw["ring"] {
            guard let b = v.boolValue else { throw .bad("ring", "must be a boolean ('b'), got \(v.typeDescription)") }
            ring = b
        }
        let sound = try sound("sound") ?? "default"
        var metadata: Value = .vardict([])
        if let v = raw["metadata"] { metadata = try self.metadata(v) }
        if let v = try uint("volume_ramp", max: 3_600) { volumeRamp = UInt32(v) }
        var triggerIfMissed = false
        if let v = raw["trigger_if_missed"] {
            guard let b = v.boolValue else { throw .bad("trigger_if_missed", "must be a boolean ('b'), got \(v.typeDescription)") }
            triggerIfMissed = b
        }
        var enabled = true
        if let v = raw["enabled"] {
            guard let b = v.boolValue else { throw .bad("enabled", "must be a boolean ('b'), got \(v.typeDescription)") }
            // A timer is paused, not switched off: it has no next occurrence to come back to.
            if case .timer = schedule, !b { throw .bad("enabled", "only an alarm can be switched off; pause or cancel a timer") }
            enabled = b
        }
        // A duration given beside an end date is kept, so that clearing the end date falls back to it.
        var durationWithEnd: UInt64?
        if case .timer(_, _?) = schedule, let d = raw["duration"] { durationWithEnd = try duration(d) }
        return AlarmConfiguration(schedule: schedule, preAlert: preAlert, postAlert: postAlert, presentation: pr, ring: ring,
                                  sound: sound, metadata: metadata, volumeRamp: volumeRamp, triggerIfMissed: triggerIfMissed,
                                  minuteGiven: raw["minute"] != nil, weekdaysGiven: raw["weekdays"] != nil,
                                  durationWithEnd: durationWithEnd, enabled: enabled)
    }

    // MARK: presentation

    /// Checks one key of the presentation table and sets what it gives.
    func presentation(_ field: Presentation.Field, into pr: inout Presentation) throws(AlarmError) {
        switch field {
        case .text(let f):
            if let v = try check(f) { pr[keyPath: f.path] = v }
            if f.check == .secondaryAction, pr.secondaryButtonBehavior == .custom, pr[keyPath: f.path].isEmpty {
                throw .bad(f.key, "is required when secondary_button_behavior is 'custom'")
            }
        case .secondaryButtonBehavior:
            if let v = try text(field.key) {
                guard let b = Presentation.SecondaryBehavior(rawValue: v) else {
                    throw .bad(field.key, "must be 'countdown' or 'custom', not '\(v)'")
                }
                pr.secondaryButtonBehavior = b
            }
        case .warningThreshold:
            if let v = try uint(field.key, max: DurationGrammar.maximumSeconds) { pr.warningThreshold = UInt32(v) }
        }
    }

    func check(_ f: Presentation.TextField) throws(AlarmError) -> String? {
        switch f.check {
        case .title:
            // White_Space is the set Foundation's whitespacesAndNewlines holds, without NSString's cost per call.
            guard let title = try text(f.key), title.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
                throw .bad(f.key, raw[f.key] == nil ? "is required" : "must not be empty")
            }
            return title
        case .text(let max): return try text(f.key, max: max)
        case .icon: return try icon(f.key)
        case .color: return try color(f.key)
        case .action, .secondaryAction: return try action(f.key)
        case .url: return try url(f.key)
        }
    }

    // MARK: schedule

    func schedule() throws(AlarmError) -> AlarmSchedule {
        let has = { (k: String) in raw[k] != nil }
        let isTimer = has("duration") || has("end_date")
        let isRelative = has("hour") || has("minute") || has("weekdays")
        if has("fixed_date") {
            if isTimer { throw .bad(has("duration") ? "duration" : "end_date", "cannot be combined with fixed_date") }
            if isRelative { throw .bad(firstPresent(["hour", "minute", "weekdays"]), "cannot be combined with fixed_date") }
            let date = try instant("fixed_date", allowDouble: true)
            return .fixed(date: date)
        }
        if isTimer {
            if isRelative { throw .bad(firstPresent(["hour", "minute", "weekdays"]), "cannot be combined with a timer (duration or end_date)") }
            var seconds: UInt64 = 0
            if let v = raw["duration"] { seconds = try duration(v) }
            if has("end_date") {
                let end = try instant("end_date", allowDouble: false)
                let remaining = end.minusSaturating(now) / usecPerSecond
                if fresh.contains("end_date") && remaining > DurationGrammar.maximumSeconds {
                    throw .bad("end_date", "must be at most five years ahead")
                }
                // end_date wins over duration: the countdown's length is measured from now when the end
                // is new, and kept from the previous configuration otherwise.
                if fresh.contains("end_date") { return .timer(seconds: max(1, remaining), endDate: end) }
                if case .timer(let old, let oldEnd)? = previous?.schedule, oldEnd == end { return .timer(seconds: old, endDate: end) }
                return .timer(seconds: max(1, remaining), endDate: end)
            }
            return .timer(seconds: seconds, endDate: nil)
        }
        if isRelative {
            guard let h = try uint("hour", max: 23) else {
                throw .bad("hour", "is required with \(has("minute") ? "minute" : "weekdays")")
            }
            let m = try uint("minute", max: 59) ?? 0
            var days: [Weekday] = []
            if let v = raw["weekdays"] {
                guard case .array(let el, let items) = v, el == "s" else {
                    throw .bad("weekdays", "must be an array of strings ('as'), got \(v.typeDescription)")
                }
                var set = Set<Weekday>()
                for item in items {
                    // No day name is longer than "wednesday": nothing longer is lowercased (60 MB took 1.8 s).
                    guard let name = item.stringValue, name.utf8.count <= 9, let day = Weekday(rawValue: name.lowercased()) else {
                        throw .bad("weekdays", "'\(item.stringValue ?? "?")' is not a weekday (monday … sunday)")
                    }
                    set.insert(day)
                }
                days = set.sorted()
            }
            return .relative(hour: Int(h), minute: Int(m), weekdays: days)
        }
        throw .bad("schedule", "one of fixed_date, hour (with minute, weekdays), duration or end_date is required")
    }

    func firstPresent(_ keys: [String]) -> String { keys.first { raw[$0] != nil } ?? keys[0] }

    /// Unix seconds → µs, in the future when the key is fresh.
    func instant(_ key: String, allowDouble: Bool) throws(AlarmError) -> USec {
        let v = raw[key]!
        let usec: Double
        if let i = v.integerValue {
            usec = Double(i) * 1_000_000
        } else if allowDouble, let d = v.doubleValue, d.isFinite {
            usec = d * 1_000_000
        } else {
            throw .bad(key, "must be Unix seconds (\(allowDouble ? "'x' or 'd'" : "'x'")), got \(v.typeDescription)")
        }
        if usec <= 0 { throw .bad(key, "must be after 1970") }
        if fresh.contains(key) {
            if usec <= Double(now) { throw .bad(key, "is in the past") }
            if usec > Double(now) + Double(AlarmConfiguration.maxFutureSeconds) * 1_000_000 {
                throw .bad(key, "is more than 100 years ahead (seconds expected, not milliseconds)")
            }
        }
        return USec(usec.rounded())
    }

    func duration(_ v: Value) throws(AlarmError) -> UInt64 {
        let seconds: Int64
        switch v {
        case .string(let s):
            switch DurationGrammar.parse(s) {
            case .success(let n): return n
            case .failure(let f): throw .bad("duration", f.description)
            }
        case .double(let d):
            guard d.isFinite, d >= 1, d <= Double(DurationGrammar.maximumSeconds) else {
                throw .bad("duration", d < 1 ? "must be at least one second" : "must be at most five years")
            }
            return UInt64(d.rounded())
        default:
            guard let i = v.integerValue else {
                throw .bad("duration", "must be seconds ('u', 't', 'd') or a string such as \"1h30m\", got \(v.typeDescription)")
            }
            seconds = i
        }
        if seconds <= 0 { throw .bad("duration", "must be longer than zero") }
        if UInt64(seconds) > DurationGrammar.maximumSeconds { throw .bad("duration", "must be at most five years") }
        return UInt64(seconds)
    }

    // MARK: scalar keys

    func uint(_ key: String, min: UInt64 = 0, max: UInt64) throws(AlarmError) -> UInt64? {
        guard let v = raw[key] else { return nil }
        guard let i = v.integerValue else {
            throw .bad(key, "must be an unsigned integer ('u'), got \(v.typeDescription)")
        }
        guard i >= 0, UInt64(i) >= min, UInt64(i) <= max else {
            throw .bad(key, "must be between \(min) and \(max), got \(i)")
        }
        return UInt64(i)
    }

    func text(_ key: String, max: Int = AlarmConfiguration.maxTextLength) throws(AlarmError) -> String? {
        guard let v = raw[key] else { return nil }
        guard let s = v.stringValue else { throw .bad(key, "must be a string ('s'), got \(v.typeDescription)") }
        // Counted no further than the limit: a string of megabytes must not cost seconds of the
        // daemon's one thread (a 60 MB title took 2.6 s).
        if s.utf8.count > max, let end = s.index(s.startIndex, offsetBy: max, limitedBy: s.endIndex), end != s.endIndex {
            throw .bad(key, "must be at most \(max) characters, got \(s.utf8.count > 65_536 ? "\(s.utf8.count) bytes" : "\(s.count)")")
        }
        if s.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }) {
            throw .bad(key, "must not contain control characters")
        }
        return s
    }

    func icon(_ key: String) throws(AlarmError) -> String? {
        guard let s = try text(key) else { return nil }
        let body = s.hasPrefix("mdi:") ? String(s.dropFirst(4)) : s
        let ok = !body.isEmpty && body.unicodeScalars.allSatisfy {
            ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || $0 == "-" || $0 == "_" || $0 == "."
        }
        if !ok { throw .bad(key, "'\(s)' is not a freedesktop icon name or an 'mdi:' name") }
        return s
    }

    func color(_ key: String) throws(AlarmError) -> String? {
        guard let s = try text(key) else { return nil }
        if ColorName.isValid(s) { return s.lowercased() }
        throw .bad(key, "'\(s)' is not a colour (a name such as 'orange', or #RRGGBB / #RRGGBBAA)")
    }

    func action(_ key: String) throws(AlarmError) -> String? {
        guard let s = try text(key) else { return nil }
        // GAction names: alphanumerics, '-' and '.'.
        let ok = !s.isEmpty && s.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        if !ok { throw .bad(key, "'\(s)' is not an action name (letters, digits, '-' and '.')") }
        return s
    }

    func url(_ key: String) throws(AlarmError) -> String? {
        guard let s = try text(key, max: 2048) else { return nil }
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex else {
            throw .bad(key, "'\(s)' is not a URL (scheme:…)")
        }
        let scheme = s[..<colon].lowercased()
        let schemeOK = scheme.first!.isLetter && scheme.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
        }
        if !schemeOK { throw .bad(key, "'\(s)' is not a URL (scheme:…)") }
        if ["javascript", "data", "file", "vbscript"].contains(scheme) {
            throw .bad(key, "the '\(scheme):' scheme is refused")
        }
        if s.contains(where: { $0.isWhitespace }) { throw .bad(key, "a URL must not contain spaces") }
        return s
    }

    func sound(_ key: String) throws(AlarmError) -> String? {
        guard let s = try text(key, max: 4096) else { return nil }
        if s.hasPrefix("/") {
            if s.contains("/../") || s.hasSuffix("/..") { throw .bad(key, "a sound path must not contain '..'") }
            return s
        }
        // A sound-theme event id (XDG Sound Naming Specification): lowercase words joined by '-'.
        let ok = !s.isEmpty && s.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
        if !ok { throw .bad(key, "'\(s)' is neither 'default', a sound-theme event id nor an absolute path") }
        return s
    }

    func metadata(_ v: Value) throws(AlarmError) -> Value {
        guard v.vardictEntries != nil else {
            throw .bad("metadata", "must be a dictionary ('a{sv}'), got \(v.typeDescription)")
        }
        // Its JSON is never smaller than its D-Bus form: far too big is known without encoding it.
        let marshalled = Value.marshalledSize([v])
        if marshalled > 2 * AlarmConfiguration.maxMetadataBytes {
            throw .bad("metadata", "must be at most 4 KiB serialized, got more than \(marshalled) bytes")
        }
        // A descriptor lasts only as long as the call; metadata is kept and given back.
        if v.containsUnixFD { throw .bad("metadata", "must not hold file descriptors ('h')") }
        let size = (try? JSONEncoder().encode(v).count) ?? Int.max
        if size > AlarmConfiguration.maxMetadataBytes {
            throw .bad("metadata", "must be at most 4 KiB serialized, got \(size) bytes")
        }
        // The stored form keeps what D-Bus can carry: accepting deeper nesting (4 KiB holds 200
        // levels) would lose the alarm at the next start.
        var w = ByteWriter()
        ValueCoding.write(v, to: &w)
        var r = ByteReader(w.bytes)
        if (try? ValueCoding.skip(&r)) == nil {
            throw .bad("metadata", "must not be nested more than \(ValueCoding.maxDepth) containers deep")
        }
        return v
    }
}
