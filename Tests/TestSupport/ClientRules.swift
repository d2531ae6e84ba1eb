// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation

/// Tests/cases/client-rules.json: the cases of the rules alarmd's clients compute (duration grammar,
/// colours, the countdown clock, remaining time and progress, the panel view), the one file that the
/// Swift tests, the GNOME Shell extension's (gjs) and the Plasma applet's (Qt) all read. Its `about`
/// fields say what each section means.
public struct ClientRules: Decodable, Sendable {
    public var duration: Section<DurationCase>
    public var color: Section<ColorCase>
    public var clock: Section<ClockCase>
    public var remaining: Section<RemainingCase>
    public var panel: ZonedSection<PanelCase>
    public var alarmTime: Section<AlarmTimeCase>
    public var alarmDays: ZonedSection<AlarmDaysCase>
    public var nextAlarm: ZonedSection<NextAlarmCase>

    enum CodingKeys: String, CodingKey {
        case duration, color, clock, remaining, panel
        case alarmTime = "alarm_time", alarmDays = "alarm_days", nextAlarm = "next_alarm"
    }

    /// The file beside this one's directory, found from this source file's path.
    public static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("cases/client-rules.json")

    /// Reads the file; a missing or malformed file is an error, which fails the tests that read it.
    public static func load() throws -> ClientRules {
        try JSONDecoder().decode(ClientRules.self, from: Data(contentsOf: url))
    }

    public struct Section<Case: Decodable & Sendable>: Decodable, Sendable {
        public var cases: [Case]
    }

    public struct DurationCase: Decodable, Sendable, CustomStringConvertible {
        public var input: String
        /// The seconds it reads as, or nil when it is refused.
        public var seconds: UInt64?
        /// empty, malformed, zero or tooLong when it is refused.
        public var error: String?
        public var description: String { input.debugDescription }
    }

    public struct ColorCase: Decodable, Sendable, CustomStringConvertible {
        public var input: String
        /// `#rrggbb`, or nil for the theme's colour.
        public var hex: String?
        public var description: String { input.debugDescription }
    }

    public struct ClockCase: Decodable, Sendable, CustomStringConvertible {
        public var usec: Int64
        public var text: String
        public var description: String { "\(usec) µs" }
    }

    public struct RemainingCase: Decodable, Sendable, CustomStringConvertible {
        public var name: String
        public var now: USec
        public var alarm: Properties
        public var remaining: USec
        public var progress: Double
        public var description: String { name }
    }

    /// A section whose cases read local times: the zone the tests run them in.
    public struct ZonedSection<Case: Decodable & Sendable>: Decodable, Sendable {
        public var zone: String
        public var cases: [Case]
    }

    public typealias PanelCase = AlarmsCase<PanelExpectation>
    public typealias NextAlarmCase = AlarmsCase<NextAlarmExpectation>

    /// A case over a set of alarms (Alarm1 property maps) at `now`.
    public struct AlarmsCase<Expectation: Decodable & Sendable>: Decodable, Sendable, CustomStringConvertible {
        public var name: String
        /// Whether alarmd is running (the panel's cases).
        public var running: Bool?
        /// Whether the desktop shows 12-hour time (the next alarm's cases).
        public var hour12: Bool?
        public var now: USec
        public var alarms: [Properties]
        public var expect: Expectation
        public var description: String { name }
    }

    public struct PanelExpectation: Decodable, Sendable {
        /// The Id of the alarm shown, nil for none.
        public var alarm: String?
        /// off, idle, scheduled, countdown, paused, warning or alerting.
        public var mode: String
        public var label: String
        /// The shown alarm's title as text panels show it (absent where none is shown or needed).
        public var title: String?
        public var more: Int
        public var time: String
        public var color: String?
        public var ticking: Bool
    }

    public struct AlarmTimeCase: Decodable, Sendable, CustomStringConvertible {
        public var hour: Int
        public var minute: Int
        public var hour12: Bool
        public var text: String
        public var description: String { "\(hour):\(minute) \(hour12 ? "12h" : "24h")" }
    }

    public struct AlarmDaysCase: Decodable, Sendable, CustomStringConvertible {
        public var weekdays: [String]
        /// The locale's first day of the week; Monday when absent.
        public var firstDay: String?
        public var now: USec?
        public var fire: USec?
        public var text: String
        public var description: String { "\(weekdays) from \(firstDay ?? "monday"), fire \(fire ?? 0)" }

        enum CodingKeys: String, CodingKey {
            case weekdays, now, fire, text
            case firstDay = "first_day"
        }
    }

    public struct NextAlarmExpectation: Decodable, Sendable {
        /// The Id of the next alarm, nil for none.
        public var alarm: String?
        /// Its day and time ("Mon 06:45"); "" for none.
        public var text: String
    }

    /// An `org.alarmd.Alarm1` property map as the bus gives it: numbers are the `t` properties
    /// (`…USec`, the only numbers the cases hold), strings `s`, objects `a{sv}` (`Presentation`,
    /// `Schedule`), arrays of strings `as`.
    public struct Properties: Decodable, Sendable {
        public var values: [String: Value]

        public init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode([String: JSONValue].self)
            values = try raw.mapValues { try $0.busValue() }
            for (key, value) in values where (value.signature == "t") != key.hasSuffix("USec") {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "\(key): only the …USec properties are numbers"))
            }
        }
    }

    enum JSONValue: Decodable {
        case string(String), number(UInt64), bool(Bool), array([JSONValue]), object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let v = try? c.decode(String.self) { self = .string(v) }
            else if let v = try? c.decode(Bool.self) { self = .bool(v) }
            else if let v = try? c.decode(UInt64.self) { self = .number(v) }
            else if let v = try? c.decode([JSONValue].self) { self = .array(v) }
            else { self = .object(try c.decode([String: JSONValue].self)) }
        }

        func busValue() throws -> Value {
            switch self {
            case .string(let s): return .string(s)
            case .number(let n): return .uint64(n)
            case .bool(let b): return .bool(b)
            case .object(let map): return .vardict(try map.sorted { $0.key < $1.key }.map { ($0.key, try $0.value.busValue()) })
            case .array(let items):
                let strings = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
                guard strings.count == items.count else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "only arrays of strings (as)"))
                }
                return .strings(strings)
            }
        }
    }
}
