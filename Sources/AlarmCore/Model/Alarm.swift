// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// AlarmKit's `Alarm.State`.
public enum AlarmState: String, Codable, Sendable, CaseIterable {
    case scheduled
    case countdown
    case paused
    case alerting
}

/// The countdown template's phases: `warning` once `warning_threshold` seconds remain.
public enum Phase: String, Codable, Sendable, CaseIterable {
    case normal
    case warning
}

/// Why an alarm left, as carried by `AlarmRemoved`.
public enum RemovalReason: String, Codable, Sendable {
    case cancelled, stopped, completed, missed, timeout, revoked
}

/// One alarm or timer with its place in the state machine. Times are realtime µs.
///
/// Kept compact, 100,000 of them in a few tens of MiB: the id as its 16 bytes (`key`; `id` prints it),
/// the app id shared with every alarm of the app (the engine interns it), and a compact
/// configuration (see `AlarmConfiguration`). `Record` is the same as plain numbers, text and bytes,
/// as the store keeps it.
public struct Alarm: Equatable, Sendable {
    public let key: AlarmKey
    /// The next alert (while scheduled or counting down), the alert that is ringing (alerting), 0 while paused.
    public var fireTime: USec = 0
    public var countdownStart: USec = 0
    public var countdownTotal: USec = 0
    /// Time already counted down before the current run (AlarmKit `previouslyElapsedDuration`).
    public var elapsed: USec = 0
    /// When the current alert began; drives the ring timeout.
    var alertingSince: USec = 0
    public internal(set) var appId: String
    /// Why the alarm could not be heard during its current alert (no sound server, missing file, …);
    /// nil while there is nothing to report.
    public var soundError: String?
    public var config: AlarmConfiguration
    public var state: AlarmState
    public var phase: Phase = .normal
    /// Whether the current countdown measures a duration (a timer by `duration`, a snooze, a resumed
    /// run) rather than leading up to an instant: a wall-clock step moves its fire time along, so it
    /// keeps its remaining time. nil in alarms stored before it existed.
    var measuresDuration: Bool?

    init(key: AlarmKey, appId: String, config: AlarmConfiguration, state: AlarmState) {
        self.key = key
        self.appId = appId
        self.config = config
        self.state = state
    }

    /// `id` must be a UUID (`AlarmID.normalize` accepts it).
    init(id: String, appId: String, config: AlarmConfiguration, state: AlarmState) {
        guard let key = AlarmKey(id) else { preconditionFailure("alarm id '\(id)' is not a UUID") }
        self.init(key: key, appId: appId, config: config, state: state)
    }

    /// The canonical id: the lowercase UUID.
    public var id: String { key.string }

    public var kind: AlarmKind { config.kind }
    public var path: String { key.path }

    /// Time left until the alert: counts down while scheduled or counting, frozen while paused.
    public func remaining(now: USec) -> USec {
        switch state {
        case .scheduled, .countdown: return fireTime.minusSaturating(now)
        case .paused: return countdownTotal.minusSaturating(elapsed)
        case .alerting: return 0
        }
    }

    /// Countdown progress 0…1 (0 before a countdown starts, 1 while alerting).
    public func progress(now: USec) -> Double {
        switch state {
        case .scheduled: return 0
        case .alerting: return 1
        case .countdown, .paused:
            guard countdownTotal > 0 else { return 0 }
            let done = countdownTotal.minusSaturating(remaining(now: now))
            return min(1, max(0, Double(done) / Double(countdownTotal)))
        }
    }

    /// The accent shown now: the template turns it orange in the warning phase.
    public var effectivePresentation: Presentation {
        var p = config.presentation
        if phase == .warning { p.accentColor = "orange" }
        return p
    }
}

extension Alarm {
    /// An alarm as the store keeps it (schema v3): numbers, text and the configuration's extras bytes.
    /// `Alarm(record:)` takes it back, refusing values no alarm can have.
    public struct Record: Equatable, Sendable {
        public var key: AlarmKey
        public var appId: String
        /// `AlarmState.allCases` index.
        public var state: UInt8
        /// `Phase.allCases` index.
        public var phase: UInt8
        /// 0 unknown (nil), 1 false, 2 true.
        public var measuresDuration: UInt8
        public var fireTime: UInt64
        public var countdownStart: UInt64
        public var countdownTotal: UInt64
        public var elapsed: UInt64
        public var alertingSince: UInt64
        /// The configuration's schedule word, end date and flags (see `AlarmConfiguration`).
        public var schedule: UInt64
        public var scheduleEnd: UInt64
        public var flags: UInt16
        public var preAlert: UInt32
        public var postAlert: UInt32
        public var volumeRamp: UInt32
        public var warningThreshold: UInt32
        public var title: String
        /// The configuration's `Extras`; empty when every field they hold is at its default.
        public var extras: [UInt8]
        public var soundError: String?

        public init(key: AlarmKey, appId: String, state: UInt8, phase: UInt8, measuresDuration: UInt8, fireTime: UInt64,
                    countdownStart: UInt64, countdownTotal: UInt64, elapsed: UInt64, alertingSince: UInt64,
                    schedule: UInt64, scheduleEnd: UInt64, flags: UInt16, preAlert: UInt32, postAlert: UInt32,
                    volumeRamp: UInt32, warningThreshold: UInt32, title: String, extras: [UInt8], soundError: String?) {
            self.key = key
            self.appId = appId
            self.state = state
            self.phase = phase
            self.measuresDuration = measuresDuration
            self.fireTime = fireTime
            self.countdownStart = countdownStart
            self.countdownTotal = countdownTotal
            self.elapsed = elapsed
            self.alertingSince = alertingSince
            self.schedule = schedule
            self.scheduleEnd = scheduleEnd
            self.flags = flags
            self.preAlert = preAlert
            self.postAlert = postAlert
            self.volumeRamp = volumeRamp
            self.warningThreshold = warningThreshold
            self.title = title
            self.extras = extras
            self.soundError = soundError
        }
    }

    public var record: Record {
        Record(key: key, appId: appId, state: UInt8(AlarmState.allCases.firstIndex(of: state)!),
               phase: UInt8(Phase.allCases.firstIndex(of: phase)!),
               measuresDuration: measuresDuration.map { $0 ? 2 : 1 } ?? 0, fireTime: fireTime,
               countdownStart: countdownStart, countdownTotal: countdownTotal, elapsed: elapsed,
               alertingSince: alertingSince, schedule: config.scheduleWord, scheduleEnd: config.scheduleEnd,
               flags: config.flags, preAlert: config.preAlert, postAlert: config.postAlert,
               volumeRamp: config.volumeRamp, warningThreshold: config.warningThreshold, title: config.title,
               extras: config.extras, soundError: soundError)
    }

    /// The alarm a record holds; nil when a field is out of range or the extras are malformed.
    public init?(record r: Record) {
        guard r.state < AlarmState.allCases.count, r.phase < Phase.allCases.count, r.measuresDuration <= 2,
              r.flags & ~AlarmConfiguration.Flags.all == 0 else { return nil }
        var c = AlarmConfiguration(schedule: .fixed(date: 0))
        c.flags = r.flags
        switch r.flags & AlarmConfiguration.Flags.kindMask {
        case 0, 2:
            break
        case 1:
            guard r.schedule & 0xFF <= 23, r.schedule >> 8 & 0xFF <= 59, r.schedule >> 16 < 1 << 7 else { return nil }
        default:
            return nil
        }
        guard r.flags & AlarmConfiguration.Flags.hasEnd == 0 || r.flags & AlarmConfiguration.Flags.kindMask == 2,
              r.extras.withUnsafeBytes({ Extras.isValid($0) }) else { return nil }
        c.scheduleWord = r.schedule
        c.scheduleEnd = r.scheduleEnd
        c.preAlert = r.preAlert
        c.postAlert = r.postAlert
        c.volumeRamp = r.volumeRamp
        c.warningThreshold = r.warningThreshold
        c.title = r.title
        c.extras = r.extras
        self.init(key: r.key, appId: r.appId, config: c, state: AlarmState.allCases[Int(r.state)])
        phase = Phase.allCases[Int(r.phase)]
        measuresDuration = r.measuresDuration == 0 ? nil : r.measuresDuration == 2
        fireTime = r.fireTime
        countdownStart = r.countdownStart
        countdownTotal = r.countdownTotal
        elapsed = r.elapsed
        alertingSince = r.alertingSince
        soundError = r.soundError
    }
}
