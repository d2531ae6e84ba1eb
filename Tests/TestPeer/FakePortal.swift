import AlarmCore
import SDBus

/// `org.freedesktop.portal.OpenURI` of xdg-desktop-portal: records the URIs it was asked to open
/// (readable through `org.alarmd.TestPortal.Opened`) and answers with a request handle.
final class FakePortal: BusObject {
    var opened: [String] = []

    func handle(_ call: MethodCall) throws(BusError) -> MethodResult {
        switch call.member {
        case "OpenURI":
            guard call.args.count == 3, case .string(let uri) = call.args[1] else {
                throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "OpenURI(s parent_window, s uri, a{sv} options)")
            }
            opened.append(uri)
            return .reply([.objectPath("/org/freedesktop/portal/desktop/request/1/t\(opened.count)")])
        case "Opened":
            return .reply([.strings(opened)])
        default:
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", call.member)
        }
    }

    func property(_ name: String, path: String) -> Value? { nil }

    static func serve(on bus: Bus) throws(BusError) -> FakePortal {
        let peer = FakePortal()
        try bus.export(peer, path: "/org/freedesktop/portal/desktop", interface: "org.freedesktop.portal.OpenURI", members: [
            .method("OpenURI", in: [("parent_window", "s"), ("uri", "s"), ("options", "a{sv}")], out: [("handle", "o")]),
        ])
        try bus.export(peer, path: "/org/freedesktop/portal/desktop", interface: "org.alarmd.TestPortal", members: [
            .method("Opened", in: [], out: [("uris", "as")]),
        ])
        try bus.requestName("org.freedesktop.portal.Desktop")
        return peer
    }
}
