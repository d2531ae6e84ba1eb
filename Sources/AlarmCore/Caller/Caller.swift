// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Who a change or a read is for, as the engine sees it: the user's own tools (alarmctl, busctl,
/// a script, and what alarmd does on the user's word: a notification's Stop, a prompt's answer, a
/// clock step), which see and may change every alarm; or an app, which sees only its own.
public enum Caller: Hashable, Sendable, CustomStringConvertible {
    case user
    case app(String)

    /// From the contract's `AppId`, where the user's own tools are the empty id.
    public init(appId: String) { self = appId.isEmpty ? .user : .app(appId) }

    /// The contract's `AppId` of what it sets: empty for the user's own tools.
    public var appId: String {
        switch self {
        case .user: return ""
        case .app(let id): return id
        }
    }

    /// Whether it may see and change `alarm`: the user everything, an app its own.
    public func owns(_ alarm: Alarm) -> Bool {
        switch self {
        case .user: return true
        case .app(let id): return alarm.appId == id
        }
    }

    /// For log lines: "app 'org.example.Clock'", or "the user's own tools".
    public var description: String {
        switch self {
        case .user: return "the user's own tools"
        case .app(let id): return "app '\(id)'"
        }
    }
}

extension Alarm {
    /// Who set it, and so who may see and change it besides the user.
    public var owner: Caller { Caller(appId: appId) }
}
