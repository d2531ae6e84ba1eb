// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// Lights a dark screen when an alarm starts ringing, on desktops whose session bus answers a
/// screensaver's `SimulateUserActivity`, once, asynchronously: the freedesktop interface
/// (`org.freedesktop.ScreenSaver`, KDE's ksmserver: at `/ScreenSaver` and
/// `/org/freedesktop/ScreenSaver`), else xfce4-screensaver's own (`org.xfce.ScreenSaver` at
/// `/org/xfce/ScreenSaver`: XFCE serves no freedesktop one). The first that answers ends the round.
/// Where none does (GNOME, whose `org.gnome.ScreenSaver` has no such method and whose extension wakes
/// the shield itself; sway and swaylock) the sound is what wakes the user: an absent screensaver is
/// no error and no log line.
final class ScreenWaker {
    static let targets = [("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"),
                          ("org.freedesktop.ScreenSaver", "/ScreenSaver"),
                          ("org.xfce.ScreenSaver", "/org/xfce/ScreenSaver")]
    /// Errors that say "not here": try the next target quietly.
    static let absent: Set<String> = ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                                      "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
                                      "org.freedesktop.DBus.Error.UnknownInterface"]
    private let bus: Bus

    init(bus: Bus) { self.bus = bus }

    func wake(alarm id: String) { send(alarm: id, target: 0) }

    private func send(alarm id: String, target index: Int) {
        guard index < ScreenWaker.targets.count else { return }
        let (name, path) = ScreenWaker.targets[index]
        do {
            try bus.callAsync(name, path, name, "SimulateUserActivity", [], timeoutUSec: 5_000_000) { [weak self] reply in
                guard let e = reply.error else { return Log.info("alarm \(id): woke the screen (\(name) at \(path))") }
                if !ScreenWaker.absent.contains(e.name) {
                    Log.info("alarm \(id): \(name) at \(path) did not take SimulateUserActivity (\(e.name))")
                }
                self?.send(alarm: id, target: index + 1)
            }
        } catch {
            Log.info("alarm \(id): SimulateUserActivity not sent to \(name): \(error)")
            send(alarm: id, target: index + 1)
        }
    }
}
