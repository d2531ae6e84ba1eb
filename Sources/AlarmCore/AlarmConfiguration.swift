import Foundation

/// A validated configuration (`Schedule`'s a{sv}). `raw` keeps the keys exactly as accepted so that
/// `Update` can merge-patch them and validate the result as a whole.
public struct AlarmConfiguration: Codable, Equatable, Sendable {
    public var raw: [String: Value]
    public var schedule: AlarmSchedule
    public var preAlert: UInt32 = 0
    public var postAlert: UInt32 = 300
    public var presentation = Presentation()
    public var ring = true
    public var sound = "default"
    public var metadata: Value = .vardict([])
    /// Seconds over which the alarm sound grows from quiet to full; 0 = full at once.
    public var volumeRamp: UInt32 = 0
    /// Ring even when found due later than the missed-alarm grace (after suspend or downtime).
    public var triggerIfMissed = false

    public var kind: AlarmKind { schedule.kind }

    public static let scheduleKeys: Set<String> = ["fixed_date", "hour", "minute", "weekdays", "duration", "end_date"]

    public static let knownKeys: Set<String> = scheduleKeys.union([
        "pre_alert", "post_alert", "title", "subtitle", "status", "icon", "accent_color", "background_color",
        "text_color", "compact_label", "stop_button", "secondary_button", "secondary_button_behavior",
        "countdown_title", "pause_button", "paused_title", "resume_button", "stop_action", "secondary_action",
        "tap_action", "warning_threshold", "completion_message", "ring", "sound", "metadata", "volume_ramp", "trigger_if_missed",
    ])

    public static let maxTextLength = 256
    public static let maxCompletionLength = 512
    public static let maxMetadataBytes = 4096
    /// Fixed dates further out than this are surely a unit mistake (milliseconds for seconds).
    public static let maxFutureSeconds: UInt64 = 100 * 366 * 86_400

    /// Validates a whole configuration. `fresh` names the keys given in this call: only those are
    /// checked against `now` (an end date that has since passed is not an error on a later update).
    public static func parse(_ raw: [String: Value], now: USec, fresh: Set<String>,
                             previous: AlarmConfiguration? = nil) throws(AlarmError) -> AlarmConfiguration {
        var p = Parser(raw: raw, now: now, fresh: fresh, previous: previous)
        return try p.run()
    }

    public static func parse(_ raw: [String: Value], now: USec) throws(AlarmError) -> AlarmConfiguration {
        try parse(raw, now: now, fresh: Set(raw.keys))
    }
}

private struct Parser {
    let raw: [String: Value]
    let now: USec
    let fresh: Set<String>
    let previous: AlarmConfiguration?

    mutating func run() throws(AlarmError) -> AlarmConfiguration {
        for key in raw.keys.sorted() where !AlarmConfiguration.knownKeys.contains(key) {
            throw .bad(key, "unknown configuration key")
        }
        var c = AlarmConfiguration(raw: raw, schedule: try schedule())
        var pr = Presentation()
        if let v = try uint("pre_alert", max: 7 * 86_400) { c.preAlert = UInt32(v) }
        if let v = try uint("post_alert", min: 1, max: 86_400) { c.postAlert = UInt32(v) }
        guard let title = try text("title"), !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .bad("title", raw["title"] == nil ? "is required" : "must not be empty")
        }
        pr.title = title
        if let v = try text("subtitle") { pr.subtitle = v }
        if let v = try text("status") { pr.status = v }
        if let v = try icon("icon") { pr.icon = v }
        if let v = try color("accent_color") { pr.accentColor = v }
        if let v = try color("background_color") { pr.backgroundColor = v }
        if let v = try color("text_color") { pr.textColor = v }
        if let v = try text("compact_label", max: 4) { pr.compactLabel = v }
        if let v = try text("stop_button") { pr.stopButton = v }
        if let v = try text("secondary_button") { pr.secondaryButton = v }
        if let v = try text("secondary_button_behavior") {
            guard let b = Presentation.SecondaryBehavior(rawValue: v) else {
                throw .bad("secondary_button_behavior", "must be 'countdown' or 'custom', not '\(v)'")
            }
            pr.secondaryButtonBehavior = b
        }
        if let v = try text("countdown_title") { pr.countdownTitle = v }
        if let v = try text("pause_button") { pr.pauseButton = v }
        if let v = try text("paused_title") { pr.pausedTitle = v }
        if let v = try text("resume_button") { pr.resumeButton = v }
        if let v = try action("stop_action") { pr.stopAction = v }
        if let v = try action("secondary_action") { pr.secondaryAction = v }
        if pr.secondaryButtonBehavior == .custom && pr.secondaryAction.isEmpty {
            throw .bad("secondary_action", "is required when secondary_button_behavior is 'custom'")
        }
        if let v = try url("tap_action") { pr.tapAction = v }
        if let v = try uint("warning_threshold", max: DurationGrammar.maximumSeconds) { pr.warningThreshold = UInt32(v) }
        if let v = try text("completion_message", max: AlarmConfiguration.maxCompletionLength) { pr.completionMessage = v }
        c.presentation = pr
        if let v = raw["ring"] {
            guard let b = v.boolValue else { throw .bad("ring", "must be a boolean ('b'), got \(v.typeDescription)") }
            c.ring = b
        }
        if let v = try sound("sound") { c.sound = v }
        if let v = raw["metadata"] { c.metadata = try metadata(v) }
        if let v = try uint("volume_ramp", max: 3_600) { c.volumeRamp = UInt32(v) }
        if let v = raw["trigger_if_missed"] {
            guard let b = v.boolValue else { throw .bad("trigger_if_missed", "must be a boolean ('b'), got \(v.typeDescription)") }
            c.triggerIfMissed = b
        }
        return c
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
                    guard let name = item.stringValue, let day = Weekday(rawValue: name.lowercased()) else {
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
        if s.count > max { throw .bad(key, "must be at most \(max) characters, got \(s.count)") }
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
        let size = (try? JSONEncoder().encode(v).count) ?? Int.max
        if size > AlarmConfiguration.maxMetadataBytes {
            throw .bad("metadata", "must be at most 4 KiB serialized, got \(size) bytes")
        }
        return v
    }
}
