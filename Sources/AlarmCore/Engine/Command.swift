// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Everything that can ask the engine for a change, as one value: a method call of the contract, or
/// what the machine reports (time passing, a clock step, a zone change, a sound that cannot play).
/// A driver that only holds commands (a fuzzer, a replay, a test) reaches every plan the daemon does.
public enum Command: Sendable, Equatable {
    case schedule(id: String, configuration: [String: Value])
    case update(id: String, changes: [String: Value], clear: [String])
    case cancel(id: String)
    case stop(id: String)
    case pause(id: String)
    case resume(id: String)
    case countdown(id: String)
    case setAuthorization(app: String, state: AuthorizationState)
    case soundError(id: String, message: String?)
    /// The deadline timer went off: whatever is due now.
    case due
    /// The wall clock was stepped by this many µs (the clock already shows it).
    case clockStep(delta: Int64)
    case timeZoneChange(Zone)

    /// The contract's method name, nil for what the machine reports rather than a caller asks.
    public var method: String? {
        switch self {
        case .schedule: return "Schedule"
        case .update: return "Update"
        case .cancel: return "Cancel"
        case .stop: return "Stop"
        case .pause: return "Pause"
        case .resume: return "Resume"
        case .countdown: return "Countdown"
        case .setAuthorization: return "SetAuthorization"
        case .soundError, .due, .clockStep, .timeZoneChange: return nil
        }
    }
}
