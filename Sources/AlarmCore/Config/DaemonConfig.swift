// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// `alarmd.conf`: every key optional; a malformed line is reported with its file and line, and its
/// default is kept. The daemon never refuses to start over its configuration.
public struct DaemonConfig: Equatable, Sendable {
    public var policy = AuthorizationPolicy()
    /// Seconds a consent prompt waits for an answer.
    public var promptTimeout: UInt64 = 120
    public var limits = Limits()
    /// Seconds before an unanswered alarm stops and counts as missed.
    public var ringTimeout: UInt64 = 600
    /// While anything rings, the output is unmuted and raised to at least this many percent.
    public var alarmVolume = 70
    /// Whether alarmd touches the output's mute and volume at all while ringing.
    public var overrideOutputVolume = true
    /// Seconds late an alarm may still ring after suspend or downtime.
    public var missedGrace: UInt64 = 60
    /// Calls that change something, per connection: a burst, then so many a second (0 = unlimited).
    public var callLimit = CallLimit(burst: 1_000, perSecond: 500)
    /// The same for the user's own tools, which are not limited unless configured.
    public var shellCallLimit = CallLimit(burst: 0, perSecond: 0)
    /// The largest sound file an app may hand over (`sound_file`), in bytes; 0 refuses them all.
    public var maxSoundBytes = 8 << 20
    /// Calls of one app that may wait for the user's answer to its consent prompt (`RequestAuthorization`,
    /// a first `Schedule`): each holds its message, and a `Schedule` its sound file open, until then.
    public var maxWaitingCalls = 16
    /// libcanberra reads no file of 64 MiB or more.
    public static let maxSoundBytesCeiling = 64 << 20

    public struct CallLimit: Equatable, Sendable {
        public var burst: Int
        public var perSecond: Int
        init(burst: Int, perSecond: Int) {
            self.burst = burst
            self.perSecond = perSecond
        }
        public var isUnlimited: Bool { burst == 0 || perSecond == 0 }
    }

    public init() {}

    /// Parses `text`; the returned warnings read `file:line: message`.
    public static func parse(_ text: String, file: String) -> (DaemonConfig, [String]) {
        var c = DaemonConfig()
        let kf = KeyFile(text)
        var warnings = kf.problems.map { "\(file):\($0.line): \($0.message)" }
        for e in kf.entries {
            func warn(_ m: String) { warnings.append("\(file):\(e.line): \(e.key): \(m); keeping the default") }
            func seconds(max: UInt64, min: UInt64 = 0) -> UInt64? {
                guard let v = UInt64(e.value), v >= min, v <= max else {
                    warn("'\(e.value)' is not a whole number of seconds between \(min) and \(max)")
                    return nil
                }
                return v
            }
            func count(max: Int) -> Int? {
                guard let v = Int(e.value), v >= 0, v <= max else {
                    warn("'\(e.value)' is not a number between 0 and \(max)")
                    return nil
                }
                return v
            }
            switch (e.group, e.key) {
            case ("authorization", "default"):
                if let d = AuthorizationPolicy.Default(rawValue: e.value) { c.policy.unknownApps = d } else { warn("expected ask, allow or deny, got '\(e.value)'") }
            case ("authorization", "shell"):
                switch e.value {
                case "allow": c.policy.shellAuthorized = true
                case "deny": c.policy.shellAuthorized = false
                default: warn("expected allow or deny, got '\(e.value)'")
                }
            case ("authorization", "prompt_timeout"):
                if let v = seconds(max: 86_400, min: 1) { c.promptTimeout = v }
            case ("limits", "max_alarms_per_app"):
                if let v = count(max: 1_000_000), v > 0 { c.limits.maxAlarmsPerApp = v } else if e.value == "0" { warn("must be at least 1") }
            case ("limits", "max_alarms_shell"):
                if let v = count(max: 1_000_000) { c.limits.maxAlarmsShell = v }
            case ("limits", "calls_burst"):
                if let v = count(max: 1_000_000_000) { c.callLimit.burst = v }
            case ("limits", "calls_per_second"):
                if let v = count(max: 1_000_000_000) { c.callLimit.perSecond = v }
            case ("limits", "shell_calls_burst"):
                if let v = count(max: 1_000_000_000) { c.shellCallLimit.burst = v }
            case ("limits", "shell_calls_per_second"):
                if let v = count(max: 1_000_000_000) { c.shellCallLimit.perSecond = v }
            case ("limits", "max_waiting_calls"):
                if let v = count(max: 10_000), v > 0 { c.maxWaitingCalls = v } else if e.value == "0" { warn("must be at least 1") }
            case ("limits", "max_sound_bytes"):
                if let v = byteCount(e.value), v <= maxSoundBytesCeiling {
                    c.maxSoundBytes = v
                } else {
                    warn("'\(e.value)' is not a size between 0 and 64 MiB (bytes, or with K or M: 512K, 8M)")
                }
            case ("ringing", "ring_timeout"):
                if let v = seconds(max: 86_400, min: 1) { c.ringTimeout = v }
            case ("ringing", "alarm_volume"):
                if let v = Int(e.value.hasSuffix("%") ? String(e.value.dropLast()) : e.value), (1...100).contains(v) {
                    c.alarmVolume = v
                } else {
                    warn("'\(e.value)' is not a percentage between 1 and 100")
                }
            case ("ringing", "override_output_volume"):
                switch e.value {
                case "true": c.overrideOutputVolume = true
                case "false": c.overrideOutputVolume = false
                default: warn("expected true or false, got '\(e.value)'")
                }
            case ("time", "missed_grace"):
                if let v = seconds(max: 86_400) { c.missedGrace = v }
            default:
                warnings.append("\(file):\(e.line): unknown key '\(e.key)' in [\(e.group)]; ignored")
            }
        }
        return (c, warnings)
    }

    /// Bytes, or KiB and MiB with a `K`/`KiB` or `M`/`MiB` suffix: `8388608`, `512K`, `8MiB`.
    static func byteCount(_ text: String) -> Int? {
        for (suffixes, unit) in [(["KiB", "K"], 1 << 10), (["MiB", "M"], 1 << 20), ([""], 1)] {
            for suffix in suffixes where text.hasSuffix(suffix) {
                let digits = text.dropLast(suffix.count)
                guard !digits.isEmpty, digits.utf8.count <= 12, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                      let n = Int(digits) else { return nil }
                return n * unit
            }
        }
        return nil
    }
}
