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

/// A countdown's run: where it began, how long it is, what it had counted before it last resumed,
/// its template phase, and whether it measures a duration (a timer by `duration`, a snooze, a
/// resumed run) rather than leading up to an instant: a wall-clock step moves a measuring
/// countdown's fire time along, so it keeps its remaining time.
public struct Countdown: Equatable, Sendable {
    public var start: USec
    public var total: USec
    /// Time already counted down before the current run (AlarmKit `previouslyElapsedDuration`).
    public var elapsed: USec = 0
    public var phase: Phase = .normal
    public var measuresDuration: Bool

    init(start: USec, total: USec, elapsed: USec = 0, phase: Phase = .normal, measuresDuration: Bool) {
        self.start = start
        self.total = total
        self.elapsed = elapsed
        self.phase = phase
        self.measuresDuration = measuresDuration
    }
}

/// Where an alarm is in AlarmKit's state machine, with what that state has and nothing else.
public enum AlarmRun: Equatable, Sendable {
    /// Waiting for `fireTime` (an alarm, or a timer's pre-alert not yet begun).
    case scheduled(fireTime: USec)
    /// Counting down to `fireTime`.
    case countdown(Countdown, fireTime: USec)
    /// A countdown held: its `elapsed` is all it has counted; it has no fire time until resumed.
    case paused(Countdown)
    /// Ringing since `since` for the alert due at `fireTime`; `countdown` is the one that led to it,
    /// nil when the alarm was scheduled.
    case alerting(fireTime: USec, since: USec, countdown: Countdown?)
    /// Switched off (`enabled: false`): no alert and nothing to wait for until switched on, when it is
    /// armed for its next occurrence from then.
    case off

    /// The wire's `State`: an alarm that is off reads `scheduled` (with `FireTimeUSec` 0), which a
    /// client that knows nothing of `Enabled` can show without harm (docs/API.md).
    public var state: AlarmState {
        switch self {
        case .scheduled, .off: return .scheduled
        case .countdown: return .countdown
        case .paused: return .paused
        case .alerting: return .alerting
        }
    }

    /// The countdown it runs, holds, or rang after.
    public var countdown: Countdown? {
        switch self {
        case .scheduled, .off: return nil
        case .countdown(let c, _), .paused(let c): return c
        case .alerting(_, _, let c): return c
        }
    }

    /// When it next alerts (scheduled, counting down) or alerted (alerting); nil while paused or off.
    public var fireTime: USec? {
        switch self {
        case .scheduled(let t), .countdown(_, let t), .alerting(let t, _, _): return t
        case .paused, .off: return nil
        }
    }

    /// Sets the phase of its countdown, wherever it has one.
    mutating func setPhase(_ phase: Phase) {
        switch self {
        case .scheduled, .off, .alerting(_, _, nil): return
        case .countdown(var c, let t):
            c.phase = phase
            self = .countdown(c, fireTime: t)
        case .paused(var c):
            c.phase = phase
            self = .paused(c)
        case .alerting(let t, let since, var c?):
            c.phase = phase
            self = .alerting(fireTime: t, since: since, countdown: c)
        }
    }
}

/// One alarm or timer with its place in the state machine (`run`). Times are realtime µs.
///
/// Kept compact, 100,000 of them in a few tens of MiB: the id as its 16 bytes (`key`; `id` prints it),
/// the app id shared with every alarm of the app (the engine interns it), and a compact
/// configuration (see `AlarmConfiguration`). `Record` is the same as plain numbers, text and bytes,
/// as the store keeps it.
public struct Alarm: Equatable, Sendable {
    public let key: AlarmKey
    public internal(set) var appId: String
    /// Why the alarm could not be heard during its current alert (no sound server, missing file, …);
    /// nil while there is nothing to report.
    public var soundError: String?
    public var config: AlarmConfiguration
    public var run: AlarmRun

    init(key: AlarmKey, appId: String, config: AlarmConfiguration, run: AlarmRun) {
        self.key = key
        self.appId = appId
        self.config = config
        self.run = run
    }

    /// `id` must be a UUID (`AlarmID.normalize` accepts it).
    init(id: String, appId: String, config: AlarmConfiguration, run: AlarmRun) {
        guard let key = AlarmKey(id) else { preconditionFailure("alarm id '\(id)' is not a UUID") }
        self.init(key: key, appId: appId, config: config, run: run)
    }

    /// The canonical id: the lowercase UUID.
    public var id: String { key.string }

    public var kind: AlarmKind { config.kind }
    public var path: String { key.path }
    public var state: AlarmState { run.state }
    /// When it next alerts, or alerted; nil while paused.
    public var fireTime: USec? { run.fireTime }
    /// The template phase: that of its countdown; `normal` without one.
    public var phase: Phase { run.countdown?.phase ?? .normal }
    /// When its alert began (drives the ring timeout); nil unless alerting.
    var alertingSince: USec? {
        if case .alerting(_, let since, _) = run { return since }
        return nil
    }

    /// Time left until the alert: counts down while scheduled or counting, frozen while paused.
    public func remaining(now: USec) -> USec {
        switch run {
        case .scheduled(let t), .countdown(_, let t): return t.minusSaturating(now)
        case .paused(let c): return c.total.minusSaturating(c.elapsed)
        case .alerting, .off: return 0
        }
    }

    /// Countdown progress 0…1 (0 before a countdown starts, 1 while alerting).
    public func progress(now: USec) -> Double {
        switch run {
        case .scheduled, .off: return 0
        case .alerting: return 1
        case .countdown(let c, _), .paused(let c):
            guard c.total > 0 else { return 0 }
            let done = c.total.minusSaturating(remaining(now: now))
            return min(1, max(0, Double(done) / Double(c.total)))
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
    /// The alarm the stores' flat fields describe (v2's JSON, v3's columns), keeping of them what
    /// its state has: a countdown's fields for a countdown, the fire time unless paused, the alert's
    /// start while alerting. `measuresDuration` nil (stored before it existed) reads as false, which
    /// is what the engine always took it for.
    init(key: AlarmKey, appId: String, config: AlarmConfiguration, state: AlarmState, phase: Phase,
         measuresDuration: Bool?, fireTime: USec, countdownStart: USec, countdownTotal: USec, elapsed: USec,
         alertingSince: USec) {
        let countdown = Countdown(start: countdownStart, total: countdownTotal, elapsed: elapsed, phase: phase,
                                  measuresDuration: measuresDuration ?? false)
        let run: AlarmRun
        switch state {
        case .scheduled: run = config.enabled ? .scheduled(fireTime: fireTime) : .off
        case .countdown: run = .countdown(countdown, fireTime: fireTime)
        case .paused: run = .paused(countdown)
        case .alerting:
            // An alert after a countdown keeps it (the wire shows its start and length); one after a
            // plain schedule has none.
            let none = countdownStart == 0 && countdownTotal == 0 && elapsed == 0 && phase == .normal
            run = .alerting(fireTime: fireTime, since: alertingSince, countdown: none ? nil : countdown)
        }
        self.init(key: key, appId: appId, config: config, run: run)
    }

    /// The stores' flat fields, 0 (and `normal`, false) for what its state does not have; the wire's
    /// `FireTimeUSec`, `CountdownStartUSec`, `CountdownTotalUSec` and `ElapsedUSec` are these.
    public var flat: (fireTime: USec, countdownStart: USec, countdownTotal: USec, elapsed: USec, alertingSince: USec,
                             measuresDuration: Bool) {
        let c = run.countdown
        return (run.fireTime ?? 0, c?.start ?? 0, c?.total ?? 0, c?.elapsed ?? 0, alertingSince ?? 0, c?.measuresDuration ?? false)
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
        /// 1 false, 2 true; 0 (unknown: stored before it existed) reads as false.
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
        let f = flat
        return Record(key: key, appId: appId, state: UInt8(AlarmState.allCases.firstIndex(of: state)!),
               phase: UInt8(Phase.allCases.firstIndex(of: phase)!),
               measuresDuration: f.measuresDuration ? 2 : 1, fireTime: f.fireTime,
               countdownStart: f.countdownStart, countdownTotal: f.countdownTotal, elapsed: f.elapsed,
               alertingSince: f.alertingSince, schedule: config.scheduleWord, scheduleEnd: config.scheduleEnd,
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
        // Only an alarm is switched off, and an alarm that is off waits for nothing.
        guard r.flags & AlarmConfiguration.Flags.off == 0
                || (r.flags & AlarmConfiguration.Flags.kindMask != 2 && AlarmState.allCases[Int(r.state)] == .scheduled) else { return nil }
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
        self.init(key: r.key, appId: r.appId, config: c, state: AlarmState.allCases[Int(r.state)],
                  phase: Phase.allCases[Int(r.phase)], measuresDuration: r.measuresDuration == 0 ? nil : r.measuresDuration == 2,
                  fireTime: r.fireTime, countdownStart: r.countdownStart, countdownTotal: r.countdownTotal,
                  elapsed: r.elapsed, alertingSince: r.alertingSince)
        soundError = r.soundError
    }
}
