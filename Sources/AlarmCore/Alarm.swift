/// AlarmKit's `Alarm.State`.
public enum AlarmState: String, Codable, Sendable {
    case scheduled
    case countdown
    case paused
    case alerting
}

/// The countdown template's phases: `warning` once `warning_threshold` seconds remain.
public enum Phase: String, Codable, Sendable {
    case normal
    case warning
}

/// Why an alarm left, as carried by `AlarmRemoved`.
public enum RemovalReason: String, Codable, Sendable {
    case cancelled, stopped, completed, missed, timeout, revoked
}

/// One alarm or timer with its place in the state machine. Times are realtime µs.
public struct Alarm: Codable, Equatable, Sendable {
    public let id: String
    public let appId: String
    public var config: AlarmConfiguration
    public var state: AlarmState
    /// The next alert (while scheduled or counting down), the alert that is ringing (alerting), 0 while paused.
    public var fireTime: USec = 0
    public var countdownStart: USec = 0
    public var countdownTotal: USec = 0
    /// Time already counted down before the current run (AlarmKit `previouslyElapsedDuration`).
    public var elapsed: USec = 0
    public var phase: Phase = .normal
    /// When the current alert began; drives the ring timeout.
    public var alertingSince: USec = 0
    /// Why the alarm could not be heard during its current alert (no sound server, missing file, …);
    /// nil while there is nothing to report. Optional so that stores written before it still load.
    public var soundError: String?
    /// Whether the current countdown measures a duration (a timer by `duration`, a snooze, a resumed
    /// run) rather than leading up to an instant: a wall-clock step moves its fire time along, so it
    /// keeps its remaining time. Optional so that stores written before it still load.
    public var measuresDuration: Bool?

    public init(id: String, appId: String, config: AlarmConfiguration, state: AlarmState) {
        self.id = id
        self.appId = appId
        self.config = config
        self.state = state
    }

    public var kind: AlarmKind { config.kind }
    public var path: String { AlarmID.path(of: id) }

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

    /// Every `org.alarmd.Alarm1` property, in introspection order.
    public static let propertyNames = ["Id", "AppId", "Kind", "State", "Schedule", "FireTimeUSec", "CountdownStartUSec",
                                       "CountdownTotalUSec", "ElapsedUSec", "PreAlert", "PostAlert", "Presentation", "Phase",
                                       "Metadata", "Sound", "Ring", "VolumeRamp", "SoundError", "Progress", "RemainingUSec"]

    public func properties(now: USec) -> [(String, Value)] {
        Alarm.propertyNames.map { ($0, property($0, now: now)!) }
    }

    /// One property's value; nil for a name the interface does not have.
    public func property(_ name: String, now: USec) -> Value? {
        switch name {
        case "Id": return .string(id)
        case "AppId": return .string(appId)
        case "Kind": return .string(kind.rawValue)
        case "State": return .string(state.rawValue)
        case "Schedule": return .vardict(config.schedule.entries)
        case "FireTimeUSec": return .uint64(fireTime)
        case "CountdownStartUSec": return .uint64(countdownStart)
        case "CountdownTotalUSec": return .uint64(countdownTotal)
        case "ElapsedUSec": return .uint64(elapsed)
        case "PreAlert": return .uint32(config.preAlert)
        case "PostAlert": return .uint32(config.postAlert)
        case "Presentation": return .vardict(effectivePresentation.entries)
        case "Phase": return .string(phase.rawValue)
        case "Metadata": return config.metadata
        case "Sound": return .string(config.sound)
        case "Ring": return .bool(config.ring)
        case "VolumeRamp": return .uint32(config.volumeRamp)
        case "SoundError": return .string(soundError ?? "")
        case "Progress": return .double(progress(now: now))
        case "RemainingUSec": return .uint64(remaining(now: now))
        default: return nil
        }
    }

    /// Properties computed from the clock: never announced by PropertiesChanged.
    public static let computedProperties: Set<String> = ["Progress", "RemainingUSec"]

    /// The names of the emits-change properties whose values differ between two versions.
    public static func changedProperties(from old: Alarm, to new: Alarm) -> [String] {
        let a = old.properties(now: 0), b = new.properties(now: 0)
        return zip(a, b).compactMap { pa, pb in
            computedProperties.contains(pa.0) || pa.1 == pb.1 ? nil : pa.0
        }
    }
}
