// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The engine as every part of the daemon but the committer sees it: what is, never the power to
/// change it. Changes are `Command`s handed to the committer, which alone plans and applies them, so
/// the one-way flow (call → plan → commit → announce) holds by type, not by convention.
public protocol EngineView: AnyObject {
    var clock: any Clock { get }
    var timeZone: Zone { get }
    var count: Int { get }
    /// Every alarm, by id.
    var alarms: AlarmTable { get }
    var authorizations: [String: AuthorizationState] { get }
    /// The earliest pending alert of any app, 0 if none.
    var nextFireTime: USec { get }
    /// The earliest instant at which time alone changes something.
    var nextDeadline: USec? { get }
    func authorization(for app: String) -> AuthorizationState
    func alarms(visibleTo app: String) -> AlarmSelection
    func alarms(visibleTo app: String, after: String, limit: Int) -> AlarmSelection
}

extension AlarmEngine: EngineView {}
