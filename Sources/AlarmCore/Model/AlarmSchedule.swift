// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

public enum AlarmKind: String, Codable, Sendable {
    case alarm
    case timer
}

/// When an alarm alerts: AlarmKit's `.fixed(date)` and `.relative(time, repeats)`, plus timers.
public enum AlarmSchedule: Codable, Equatable, Sendable {
    /// An absolute instant; ignores time-zone changes.
    case fixed(date: USec)
    /// Local wall-clock time in the current zone; `weekdays` empty = one-shot.
    case relative(hour: Int, minute: Int, weekdays: [Weekday])
    /// A countdown of `seconds`; `endDate` set when the timer was given as an absolute end instead.
    case timer(seconds: UInt64, endDate: USec?)

    var kind: AlarmKind {
        if case .timer = self { return .timer }
        return .alarm
    }

    var isRepeating: Bool {
        if case .relative(_, _, let days) = self { return !days.isEmpty }
        return false
    }

    /// The `Schedule` property: the schedule keys as accepted.
    public var entries: [(String, Value)] {
        switch self {
        case .fixed(let date):
            return [("fixed_date", .int64(Int64(date / usecPerSecond)))]
        case .relative(let hour, let minute, let days):
            return [("hour", .uint32(UInt32(hour))), ("minute", .uint32(UInt32(minute))),
                    ("weekdays", .strings(days.map(\.rawValue)))]
        case .timer(let seconds, let end):
            var e: [(String, Value)] = [("duration", .uint64(seconds))]
            if let end { e.append(("end_date", .int64(Int64(end / usecPerSecond)))) }
            return e
        }
    }
}
