import AlarmCore
import SDBus

/// An app exporting `org.freedesktop.Application` (Desktop Entry spec, D-Bus activation) on its
/// well-known name and path; it records the actions it was asked to activate, readable through
/// `org.alarmd.TestApp.Activations`.
final class TestApp: BusObject {
    var activations: [String] = []

    func handle(_ call: MethodCall) throws(BusError) -> MethodResult {
        switch call.member {
        case "ActivateAction":
            guard case .string(let action)? = call.args.first else { throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "action") }
            activations.append(action)
            return .reply([])
        case "Activate", "Open":
            activations.append("<\(call.member)>")
            return .reply([])
        case "Activations":
            return .reply([.strings(activations)])
        default:
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", call.member)
        }
    }

    func property(_ name: String, path: String) -> Value? { nil }

    static func serve(_ app: String, on bus: Bus) throws(BusError) -> TestApp {
        let peer = TestApp()
        let path = "/" + app.replacingOccurrences(of: ".", with: "/").replacingOccurrences(of: "-", with: "_")
        try bus.export(peer, path: path, interface: "org.freedesktop.Application", members: [
            .method("Activate", in: [("platform_data", "a{sv}")], out: []),
            .method("Open", in: [("uris", "as"), ("platform_data", "a{sv}")], out: []),
            .method("ActivateAction", in: [("action_name", "s"), ("parameter", "av"), ("platform_data", "a{sv}")], out: []),
        ])
        try bus.export(peer, path: path, interface: "org.alarmd.TestApp", members: [
            .method("Activations", in: [], out: [("actions", "as")]),
        ])
        try bus.requestName(app)
        return peer
    }
}
