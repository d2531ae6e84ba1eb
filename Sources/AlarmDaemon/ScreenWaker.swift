import AlarmCore
import SDBus

/// Lights a dark screen when an alarm starts ringing, on desktops whose session bus answers the
/// freedesktop screensaver interface (KDE's ksmserver, xfce4-screensaver, …):
/// `org.freedesktop.ScreenSaver.SimulateUserActivity`, once, asynchronously. KDE serves it at
/// `/ScreenSaver` and `/org/freedesktop/ScreenSaver`, others at the latter only, so that path goes
/// first and `/ScreenSaver` only when the object is not there. Where nothing answers (GNOME, whose
/// `org.gnome.ScreenSaver` has no such method and whose extension wakes the shield itself; sway) the
/// sound is what wakes the user: an absent screensaver is no error.
final class ScreenWaker {
    static let name = "org.freedesktop.ScreenSaver"
    static let paths = ["/org/freedesktop/ScreenSaver", "/ScreenSaver"]
    private let bus: Bus

    init(bus: Bus) { self.bus = bus }

    func wake(alarm id: String) { send(alarm: id, path: 0) }

    private func send(alarm id: String, path index: Int) {
        let path = ScreenWaker.paths[index]
        do {
            try bus.callAsync(ScreenWaker.name, path, ScreenWaker.name, "SimulateUserActivity", [], timeoutUSec: 5_000_000) { [weak self] reply in
                guard let e = reply.error else { return Log.info("alarm \(id): woke the screen (\(ScreenWaker.name) at \(path))") }
                let elsewhere = ["org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
                                 "org.freedesktop.DBus.Error.UnknownInterface"].contains(e.name)
                if elsewhere, index + 1 < ScreenWaker.paths.count {
                    self?.send(alarm: id, path: index + 1)
                    return
                }
                if e.name != "org.freedesktop.DBus.Error.ServiceUnknown" && e.name != "org.freedesktop.DBus.Error.NameHasNoOwner" {
                    Log.info("alarm \(id): the screensaver did not take SimulateUserActivity (\(e.name))")
                }
            }
        } catch {
            Log.info("alarm \(id): SimulateUserActivity not sent: \(error)")
        }
    }
}
