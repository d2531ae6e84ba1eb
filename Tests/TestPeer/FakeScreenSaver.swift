import AlarmCore
import SDBus

/// A screensaver on the session bus as KDE's ksmserver (`org.freedesktop.ScreenSaver`) and
/// xfce4-screensaver (`org.xfce.ScreenSaver`) serve one (`SimulateUserActivity`, `GetActive`), under the
/// name given (the interface has the same name) at the object paths given: records every
/// `SimulateUserActivity` with its path (readable through `org.alarmd.TestScreenSaver.Activity`).
final class FakeScreenSaver: BusObject {
    var activity: [String] = []

    func handle(_ call: MethodCall) throws(BusError) -> MethodResult {
        switch call.member {
        case "SimulateUserActivity":
            activity.append(call.path)
            return .reply([])
        case "GetActive":
            return .reply([.bool(false)])
        case "Activity":
            return .reply([.strings(activity)])
        default:
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", call.member)
        }
    }

    func property(_ name: String, path: String) -> Value? { nil }

    static func serve(on bus: Bus, name: String, paths: [String]) throws(BusError) -> FakeScreenSaver {
        let peer = FakeScreenSaver()
        for path in paths {
            try bus.export(peer, path: path, interface: name, members: [
                .method("SimulateUserActivity", in: [], out: []),
                .method("GetActive", in: [], out: [("active", "b")]),
            ])
        }
        try bus.export(peer, path: "/org/alarmd/TestScreenSaver", interface: "org.alarmd.TestScreenSaver", members: [
            .method("Activity", in: [], out: [("paths", "as")]),
        ])
        try bus.requestName(name)
        return peer
    }
}
