// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import FoundationEssentials

/// Alarm rows of schema v2: the JSON that `Alarm`'s synthesized `Codable` wrote until schema v3.
/// The types below are that model as it was, field for field, so that `JSONDecoder` reads exactly
/// what it read then (and refuses what it refused) however the live model changes; the store's
/// migration to v3 converts through them, and tests write v2 rows with them.
public enum SchemaV2 {
    /// The alarm a v2 row holds; nil for a row v2 itself could not read.
    static func decode(_ data: Data) -> Alarm? { Reader().alarm(from: data) }

    /// Reads many rows with one decoder.
    public struct Reader {
        private let decoder = JSONDecoder()

        public init() {}

        public func alarm(from data: Data) -> Alarm? {
            (try? decoder.decode(V2Alarm.self, from: data))?.alarm
        }
    }

    /// A v2 row for `a`, as v2 wrote it; `raw` stands in for the keys as accepted (default `a.config.raw`).
    static func encode(_ a: Alarm, raw: [String: Value]? = nil) -> Data {
        // An encoder of these plain types does not fail.
        (try? JSONEncoder().encode(V2Alarm(a, raw: raw ?? a.config.raw))) ?? Data()
    }
}

private struct V2Alarm: Codable {
    let id: String
    let appId: String
    var config: V2Configuration
    var state: AlarmState
    var fireTime: USec = 0
    var countdownStart: USec = 0
    var countdownTotal: USec = 0
    var elapsed: USec = 0
    var phase: Phase = .normal
    var alertingSince: USec = 0
    var soundError: String?
    var measuresDuration: Bool?

    init(_ a: Alarm, raw: [String: Value]) {
        id = a.id
        appId = a.appId
        config = V2Configuration(a.config, raw: raw)
        state = a.state
        let f = a.flat
        fireTime = f.fireTime
        countdownStart = f.countdownStart
        countdownTotal = f.countdownTotal
        elapsed = f.elapsed
        phase = a.phase
        alertingSince = f.alertingSince
        soundError = a.soundError
        measuresDuration = f.measuresDuration
    }

    var alarm: Alarm? {
        guard let key = AlarmKey(id), let config = config.configuration else { return nil }
        var a = Alarm(key: key, appId: appId, config: config, state: state, phase: phase, measuresDuration: measuresDuration,
                      fireTime: fireTime, countdownStart: countdownStart, countdownTotal: countdownTotal, elapsed: elapsed,
                      alertingSince: alertingSince)
        a.soundError = soundError
        return a
    }
}

private struct V2Configuration: Codable {
    var raw: [String: V2Value]
    var schedule: V2Schedule
    var preAlert: UInt32 = 0
    var postAlert: UInt32 = 300
    var presentation: V2Presentation
    var ring = true
    var sound = "default"
    var metadata: V2Value = .dict(key: "s", value: "v", [])
    var volumeRamp: UInt32 = 0
    var triggerIfMissed = false

    init(_ c: AlarmConfiguration, raw: [String: Value]) {
        self.raw = raw.mapValues(V2Value.init)
        schedule = V2Schedule(c.schedule)
        preAlert = c.preAlert
        postAlert = c.postAlert
        presentation = V2Presentation(c.presentation)
        ring = c.ring
        sound = c.sound
        metadata = V2Value(c.metadata)
        volumeRamp = c.volumeRamp
        triggerIfMissed = c.triggerIfMissed
    }

    /// The typed fields are what v2 acted on; its `raw` adds which optional schedule keys were given.
    var configuration: AlarmConfiguration? {
        guard let schedule = schedule.schedule else { return nil }
        var durationWithEnd: UInt64?
        if case .timer(_, _?) = schedule, let d = raw["duration"] { durationWithEnd = AlarmConfiguration.durationSeconds(d.value) }
        return AlarmConfiguration(schedule: schedule, preAlert: preAlert, postAlert: postAlert, presentation: presentation.presentation,
                                  ring: ring, sound: sound, metadata: metadata.value, volumeRamp: volumeRamp,
                                  triggerIfMissed: triggerIfMissed, minuteGiven: raw["minute"] != nil,
                                  weekdaysGiven: raw["weekdays"] != nil, durationWithEnd: durationWithEnd)
    }
}

private enum V2Schedule: Codable {
    case fixed(date: USec)
    case relative(hour: Int, minute: Int, weekdays: [Weekday])
    case timer(seconds: UInt64, endDate: USec?)

    init(_ s: AlarmSchedule) {
        switch s {
        case .fixed(let date): self = .fixed(date: date)
        case .relative(let hour, let minute, let weekdays): self = .relative(hour: hour, minute: minute, weekdays: weekdays)
        case .timer(let seconds, let endDate): self = .timer(seconds: seconds, endDate: endDate)
        }
    }

    /// nil for a wall-clock time no day has.
    var schedule: AlarmSchedule? {
        switch self {
        case .fixed(let date): return .fixed(date: date)
        case .relative(let hour, let minute, let weekdays):
            guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
            return .relative(hour: hour, minute: minute, weekdays: weekdays)
        case .timer(let seconds, let endDate): return .timer(seconds: seconds, endDate: endDate)
        }
    }
}

/// `Presentation` as v2 wrote it: one object of every field by the name its property had then, each
/// required. The names are v2's, kept here however the live model's change.
private struct V2Presentation: Codable {
    var presentation: Presentation

    /// v2's texts; with `secondaryButtonBehavior` and `warningThreshold`, every field it had.
    private static let texts: [(String, WritableKeyPath<Presentation, String> & Sendable)] = [
        ("title", \.title), ("subtitle", \.subtitle), ("status", \.status), ("icon", \.icon), ("accentColor", \.accentColor),
        ("backgroundColor", \.backgroundColor), ("textColor", \.textColor), ("compactLabel", \.compactLabel),
        ("stopButton", \.stopButton), ("secondaryButton", \.secondaryButton), ("countdownTitle", \.countdownTitle),
        ("pauseButton", \.pauseButton), ("pausedTitle", \.pausedTitle), ("resumeButton", \.resumeButton),
        ("stopAction", \.stopAction), ("secondaryAction", \.secondaryAction), ("tapAction", \.tapAction),
        ("completionMessage", \.completionMessage),
    ]

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
        static let behavior = Key("secondaryButtonBehavior"), threshold = Key("warningThreshold")
    }

    init(_ p: Presentation) { presentation = p }

    /// A secondary button behaviour v2 would not have read fails the row, as it did then.
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        var p = Presentation()
        for (name, path) in Self.texts { p[keyPath: path] = try c.decode(String.self, forKey: Key(name)) }
        let behavior = try c.decode(String.self, forKey: .behavior)
        guard let b = Presentation.SecondaryBehavior(rawValue: behavior) else {
            throw DecodingError.dataCorruptedError(forKey: .behavior, in: c, debugDescription: "'\(behavior)'")
        }
        p.secondaryButtonBehavior = b
        p.warningThreshold = try c.decode(UInt32.self, forKey: .threshold)
        presentation = p
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (name, path) in Self.texts { try c.encode(presentation[keyPath: path], forKey: Key(name)) }
        try c.encode(presentation.secondaryButtonBehavior.rawValue, forKey: .behavior)
        try c.encode(presentation.warningThreshold, forKey: .threshold)
    }
}

/// `Value` as it was (and its synthesized coding).
private indirect enum V2Value: Codable {
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
    case array(element: String, [V2Value])
    case dict(key: String, value: String, [DictEntry])
    case structure([V2Value])
    case variant(V2Value)

    struct DictEntry: Codable {
        var key: V2Value
        var value: V2Value
    }

    init(_ v: Value) {
        switch v {
        case .byte(let x): self = .byte(x)
        case .bool(let x): self = .bool(x)
        case .int16(let x): self = .int16(x)
        case .uint16(let x): self = .uint16(x)
        case .int32(let x): self = .int32(x)
        case .uint32(let x): self = .uint32(x)
        case .int64(let x): self = .int64(x)
        case .uint64(let x): self = .uint64(x)
        case .double(let x): self = .double(x)
        case .string(let x): self = .string(x)
        case .objectPath(let x): self = .objectPath(x)
        case .signature(let x): self = .signature(x)
        case .array(let e, let items): self = .array(element: e, items.map(V2Value.init))
        case .dict(let k, let vt, let entries): self = .dict(key: k, value: vt, entries.map { DictEntry(key: V2Value($0.key), value: V2Value($0.value)) })
        case .structure(let items): self = .structure(items.map(V2Value.init))
        case .variant(let inner): self = .variant(V2Value(inner))
        // Never stored: metadata refuses descriptors, and the schema had none.
        case .unixFD: self = .int32(-1)
        }
    }

    var value: Value {
        switch self {
        case .byte(let x): return .byte(x)
        case .bool(let x): return .bool(x)
        case .int16(let x): return .int16(x)
        case .uint16(let x): return .uint16(x)
        case .int32(let x): return .int32(x)
        case .uint32(let x): return .uint32(x)
        case .int64(let x): return .int64(x)
        case .uint64(let x): return .uint64(x)
        case .double(let x): return .double(x)
        case .string(let x): return .string(x)
        case .objectPath(let x): return .objectPath(x)
        case .signature(let x): return .signature(x)
        case .array(let e, let items): return .array(element: e, items.map(\.value))
        case .dict(let k, let vt, let entries): return .dict(key: k, value: vt, entries.map { Value.DictEntry($0.key.value, $0.value.value) })
        case .structure(let items): return .structure(items.map(\.value))
        case .variant(let inner): return .variant(inner.value)
        }
    }
}
