// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus

/// A notification server for tests: speaks the Desktop Notifications protocol (Notify,
/// CloseNotification, GetCapabilities, GetServerInformation; signals ActionInvoked and
/// NotificationClosed) and lets the test act as the user through `org.alarmd.TestNotifier`
/// (Notifications, Invoke, Dismiss, Expire).
final class NotificationServer: BusObject {
    struct Record {
        var id: UInt32
        var appName: String
        var replacesId: UInt32
        var icon: String
        var summary: String
        var body: String
        var actions: [String]
        var hints: [(String, Value)]
        var expireTimeout: Int32
        var closedReason: UInt32 = 0
        var closeCalls = 0
        var updates = 0
    }

    let bus: Bus
    var records: [Record] = []
    var nextId: UInt32 = 1
    /// What `GetServerInformation` says: this peer's own, or a desktop's (`--vendor Phosh`: Phosh's words).
    let serverName: String
    let vendor: String

    init(bus: Bus, vendor: String?) {
        self.bus = bus
        serverName = vendor == "Phosh" ? "Phosh Notify Daemon" : "alarmd-test-peer"
        self.vendor = vendor ?? "alarmd"
    }

    private func notify(_ a: [Value]) throws(BusError) -> MethodResult {
        guard a.count == 8, case .string(let app) = a[0], case .uint32(let replaces) = a[1], case .string(let icon) = a[2],
              case .string(let summary) = a[3], case .string(let body) = a[4], case .array(_, let actions) = a[5],
              let hints = a[6].vardictEntries, case .int32(let timeout) = a[7] else {
            throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "bad Notify")
        }
        var r = Record(id: 0, appName: app, replacesId: replaces, icon: icon, summary: summary, body: body,
                       actions: actions.compactMap(\.stringValue), hints: hints, expireTimeout: timeout)
        // Replacing an open notification keeps its id (spec: "replaces_id").
        if replaces != 0, let i = records.firstIndex(where: { $0.id == replaces && $0.closedReason == 0 }) {
            r.id = replaces
            r.updates = records[i].updates + 1
            records[i] = r
        } else {
            r.id = nextId
            nextId += 1
            records.append(r)
        }
        return .reply([.uint32(r.id)])
    }

    private func closeNotification(_ a: [Value]) -> MethodResult {
        guard case .uint32(let id)? = a.first else { return .reply([]) }
        if let i = records.firstIndex(where: { $0.id == id }) {
            records[i].closeCalls += 1
            if records[i].closedReason == 0 { close(i, reason: 3) }
        }
        return .reply([])
    }

    private func listed() -> MethodResult {
        .reply([.array(element: "a{sv}", records.map { r in
            .vardict([("id", .uint32(r.id)), ("app_name", .string(r.appName)), ("replaces_id", .uint32(r.replacesId)),
                      ("icon", .string(r.icon)), ("summary", .string(r.summary)), ("body", .string(r.body)),
                      ("actions", .strings(r.actions)), ("hints", .vardict(r.hints)), ("expire_timeout", .int32(r.expireTimeout)),
                      ("closed_reason", .uint32(r.closedReason)), ("close_calls", .uint32(UInt32(r.closeCalls))),
                      ("updates", .uint32(UInt32(r.updates)))])
        })])
    }

    private func invoke(_ a: [Value]) throws(BusError) -> MethodResult {
        guard a.count == 2, case .uint32(let id) = a[0], case .string(let action) = a[1],
              let i = records.firstIndex(where: { $0.id == id && $0.closedReason == 0 }) else {
            throw BusError("org.alarmd.TestNotifier.Error", "no open notification with that id")
        }
        emit(NotificationServer.actionInvoked, [.uint32(id), .string(action)])
        // Per the spec a notification that is not resident closes once an action was invoked.
        let resident = records[i].hints.contains { $0.0 == "resident" && $0.1 == .bool(true) }
        if !resident { close(i, reason: 2) }
        return .reply([])
    }

    /// The user dismissed it (reason 2) or it expired (reason 1).
    private func closeOpen(_ a: [Value], reason: UInt32) throws(BusError) -> MethodResult {
        guard case .uint32(let id)? = a.first, let i = records.firstIndex(where: { $0.id == id && $0.closedReason == 0 }) else {
            throw BusError("org.alarmd.TestNotifier.Error", "no open notification with that id")
        }
        close(i, reason: reason)
        return .reply([])
    }

    private func close(_ i: Int, reason: UInt32) {
        records[i].closedReason = reason
        emit(NotificationServer.notificationClosed, [.uint32(records[i].id), .uint32(reason)])
    }

    private func emit(_ signal: Interface<NotificationServer>.Signal, _ args: [Value]) {
        try? bus.emit(signal, of: NotificationServer.notifications, path: "/org/freedesktop/Notifications", args)
    }
}


extension NotificationServer {
    static let notificationClosed = Interface<NotificationServer>.Signal("NotificationClosed", [("id", "u"), ("reason", "u")])
    static let actionInvoked = Interface<NotificationServer>.Signal("ActionInvoked", [("id", "u"), ("action_key", "s")])

    static let notifications = Interface<NotificationServer>("org.freedesktop.Notifications", methods: [
        .init("Notify", in: [("app_name", "s"), ("replaces_id", "u"), ("app_icon", "s"), ("summary", "s"), ("body", "s"),
                             ("actions", "as"), ("hints", "a{sv}"), ("expire_timeout", "i")], out: [("id", "u")]) { peer, call throws(BusError) in
            try peer.notify(call.args)
        },
        .init("CloseNotification", in: [("id", "u")]) { peer, call throws(BusError) in peer.closeNotification(call.args) },
        .init("GetCapabilities", out: [("capabilities", "as")]) { _, _ throws(BusError) in
            .reply([.strings(["actions", "body", "body-markup", "persistence", "icon-static"])])
        },
        .init("GetServerInformation", out: [("name", "s"), ("vendor", "s"), ("version", "s"), ("spec_version", "s")]) { peer, _ throws(BusError) in
            .reply([.string(peer.serverName), .string(peer.vendor), .string("1.0"), .string("1.2")])
        },
    ], signals: [notificationClosed, actionInvoked])

    /// The test acting as the user.
    static let control = Interface<NotificationServer>("org.alarmd.TestNotifier", methods: [
        .init("Notifications", out: [("notifications", "aa{sv}")]) { peer, _ throws(BusError) in peer.listed() },
        .init("Invoke", in: [("id", "u"), ("action", "s")]) { peer, call throws(BusError) in try peer.invoke(call.args) },
        .init("Dismiss", in: [("id", "u")]) { peer, call throws(BusError) in try peer.closeOpen(call.args, reason: 2) },
        .init("Expire", in: [("id", "u")]) { peer, call throws(BusError) in try peer.closeOpen(call.args, reason: 1) },
    ])

    static func serve(on bus: Bus, vendor: String?) throws(BusError) -> NotificationServer {
        let peer = NotificationServer(bus: bus, vendor: vendor)
        try bus.export(peer, path: "/org/freedesktop/Notifications", notifications)
        try bus.export(peer, path: "/org/freedesktop/Notifications", control)
        try bus.requestName("org.freedesktop.Notifications")
        return peer
    }
}
