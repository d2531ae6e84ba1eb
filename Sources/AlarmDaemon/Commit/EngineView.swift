// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// The engine as every part of the daemon but the committer sees it: what is, never the power to
/// change it. Changes are `Command`s handed to the committer, which alone plans and applies them, so
/// the one-way flow (call → plan → commit → announce) holds by type, not by convention.
struct EngineView {
    private let engine: AlarmEngine

    init(_ engine: AlarmEngine) { self.engine = engine }

    var clock: any Clock { engine.clock }
    var count: Int { engine.count }
    var timeZone: Zone { engine.timeZone }
    /// Every alarm, by id.
    var alarms: AlarmTable { engine.alarms }
    var authorizations: [String: AuthorizationState] { engine.authorizations }
    /// The earliest pending alert of any app; nil when none is pending.
    var nextFireTime: USec? { engine.nextFireTime }
    /// The earliest pending alert among the alarms `caller` may see.
    func nextFireTime(visibleTo caller: Caller) -> USec? { engine.nextFireTime(visibleTo: caller) }
    func authorization(for caller: Caller) -> AuthorizationState { engine.authorization(for: caller) }
    func alarms(visibleTo caller: Caller) -> AlarmSelection { engine.alarms(visibleTo: caller) }
    func alarms(visibleTo caller: Caller, after: String, limit: Int) -> AlarmSelection {
        engine.alarms(visibleTo: caller, after: after, limit: limit)
    }
}
