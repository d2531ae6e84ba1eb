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

    init(bus: Bus) { self.bus = bus }

    func handle(_ call: MethodCall) throws(BusError) -> MethodResult {
        let a = call.args
        switch call.member {
        case "Notify":
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
        case "CloseNotification":
            guard case .uint32(let id)? = a.first else { return .reply([]) }
            if let i = records.firstIndex(where: { $0.id == id }) {
                records[i].closeCalls += 1
                if records[i].closedReason == 0 { close(i, reason: 3) }
            }
            return .reply([])
        case "GetCapabilities":
            return .reply([.strings(["actions", "body", "body-markup", "persistence", "icon-static"])])
        case "GetServerInformation":
            return .reply([.string("alarmd-test-peer"), .string("alarmd"), .string("1.0"), .string("1.2")])
        case "Notifications":
            return .reply([.array(element: "a{sv}", records.map { r in
                .vardict([("id", .uint32(r.id)), ("app_name", .string(r.appName)), ("replaces_id", .uint32(r.replacesId)),
                          ("icon", .string(r.icon)), ("summary", .string(r.summary)), ("body", .string(r.body)),
                          ("actions", .strings(r.actions)), ("hints", .vardict(r.hints)), ("expire_timeout", .int32(r.expireTimeout)),
                          ("closed_reason", .uint32(r.closedReason)), ("close_calls", .uint32(UInt32(r.closeCalls))),
                          ("updates", .uint32(UInt32(r.updates)))])
            })])
        case "Invoke":
            guard a.count == 2, case .uint32(let id) = a[0], case .string(let action) = a[1],
                  let i = records.firstIndex(where: { $0.id == id && $0.closedReason == 0 }) else {
                throw BusError("org.alarmd.TestNotifier.Error", "no open notification with that id")
            }
            emit("ActionInvoked", [.uint32(id), .string(action)])
            // Per the spec a notification that is not resident closes once an action was invoked.
            let resident = records[i].hints.contains { $0.0 == "resident" && $0.1 == .bool(true) }
            if !resident { close(i, reason: 2) }
            return .reply([])
        case "Dismiss", "Expire":
            guard case .uint32(let id)? = a.first, let i = records.firstIndex(where: { $0.id == id && $0.closedReason == 0 }) else {
                throw BusError("org.alarmd.TestNotifier.Error", "no open notification with that id")
            }
            close(i, reason: call.member == "Dismiss" ? 2 : 1)
            return .reply([])
        default:
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", call.member)
        }
    }

    func property(_ name: String, path: String) -> Value? { nil }

    private func close(_ i: Int, reason: UInt32) {
        records[i].closedReason = reason
        emit("NotificationClosed", [.uint32(records[i].id), .uint32(reason)])
    }

    private func emit(_ member: String, _ args: [Value]) {
        try? bus.emitSignal(path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications", member: member, args)
    }
}


extension NotificationServer {
    static func serve(on bus: Bus) throws(BusError) -> NotificationServer {
        let peer = NotificationServer(bus: bus)
        try bus.export(peer, path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications", members: [
            .method("Notify", in: [("app_name", "s"), ("replaces_id", "u"), ("app_icon", "s"), ("summary", "s"), ("body", "s"),
                                   ("actions", "as"), ("hints", "a{sv}"), ("expire_timeout", "i")], out: [("id", "u")]),
            .method("CloseNotification", in: [("id", "u")], out: []),
            .method("GetCapabilities", in: [], out: [("capabilities", "as")]),
            .method("GetServerInformation", in: [], out: [("name", "s"), ("vendor", "s"), ("version", "s"), ("spec_version", "s")]),
            .signal("NotificationClosed", [("id", "u"), ("reason", "u")]),
            .signal("ActionInvoked", [("id", "u"), ("action_key", "s")]),
        ])
        try bus.export(peer, path: "/org/freedesktop/Notifications", interface: "org.alarmd.TestNotifier", members: [
            .method("Notifications", in: [], out: [("notifications", "aa{sv}")]),
            .method("Invoke", in: [("id", "u"), ("action", "s")], out: []),
            .method("Dismiss", in: [("id", "u")], out: []),
            .method("Expire", in: [("id", "u")], out: []),
        ])
        try bus.requestName("org.freedesktop.Notifications")
        return peer
    }
}
