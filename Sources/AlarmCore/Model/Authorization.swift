// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// AlarmKit's `AlarmManager.AuthorizationState`.
public enum AuthorizationState: String, Codable, Sendable, CaseIterable {
    case notDetermined
    case authorized
    case denied
}

/// What the daemon does where no decision was stored (configuration `[authorization]`).
public struct AuthorizationPolicy: Sendable, Equatable {
    public enum Default: String, Sendable { case ask, allow, deny }
    /// For apps never seen before.
    public var unknownApps: Default = .ask
    /// For the user's own tools.
    public var shellAuthorized: Bool = true

    public init(unknownApps: Default = .ask, shellAuthorized: Bool = true) {
        self.unknownApps = unknownApps
        self.shellAuthorized = shellAuthorized
    }

    public func initialState(for caller: Caller) -> AuthorizationState {
        guard case .app = caller else { return shellAuthorized ? .authorized : .denied }
        switch unknownApps {
        case .ask: return .notDetermined
        case .allow: return .authorized
        case .deny: return .denied
        }
    }
}

/// Per-app limits (configuration `[limits]`).
public struct Limits: Sendable, Equatable {
    public var maxAlarmsPerApp: Int = 1024
    /// 0 = unlimited.
    var maxAlarmsShell: Int = 0

    public init(maxAlarmsPerApp: Int = 1024, maxAlarmsShell: Int = 0) {
        self.maxAlarmsPerApp = maxAlarmsPerApp
        self.maxAlarmsShell = maxAlarmsShell
    }

    func limit(for caller: Caller) -> Int? {
        guard case .app = caller else { return maxAlarmsShell > 0 ? maxAlarmsShell : nil }
        return maxAlarmsPerApp
    }
}
