// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// What an alert can ask of the desktop besides ringing: an app's own action
/// (`org.freedesktop.Application.ActivateAction`, Desktop Entry spec D-Bus activation) and opening a
/// `tap_action` URL (the OpenURI portal, else `xdg-open`). Failures are logged, never fatal.
final class AppActions {
    private let bus: Bus
    private let loop: EventLoop

    init(bus: Bus, loop: EventLoop) {
        self.bus = bus
        self.loop = loop
    }

    /// The object path of an app's `org.freedesktop.Application`: its id with '.' → '/', '-' → '_'.
    static func objectPath(of app: String) -> String {
        "/" + app.replacing(".", with: "/").replacing("-", with: "_")
    }

    func activate(app: String, action: String, alarm: String) {
        guard !action.isEmpty else { return }
        guard !app.isEmpty else {
            Log.warning("alarm \(alarm): action '\(action)' has no app to go to (scheduled by the user's own tools)")
            return
        }
        let args: [Value] = [.string(action), .array(element: "v", []), .vardict([])]
        do {
            try bus.callAsync(app, AppActions.objectPath(of: app), "org.freedesktop.Application", "ActivateAction", args,
                              timeoutUSec: 10_000_000) { reply in
                if let e = reply.error {
                    Log.warning("alarm \(alarm): ActivateAction('\(action)') on \(app) failed: \(e)")
                } else {
                    Log.info("alarm \(alarm): activated action '\(action)' of \(app)")
                }
            }
        } catch {
            Log.warning("alarm \(alarm): ActivateAction('\(action)') on \(app) not sent: \(error)")
        }
    }

    func open(url: String, alarm: String) {
        let args: [Value] = [.string(""), .string(url), .vardict([])]
        do {
            try bus.callAsync("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", "org.freedesktop.portal.OpenURI",
                              "OpenURI", args, timeoutUSec: 10_000_000) { [weak self] reply in
                if let e = reply.error {
                    Log.info("alarm \(alarm): the OpenURI portal did not open \(url) (\(e.name): \(e.message)); trying xdg-open")
                    self?.xdgOpen(url, alarm: alarm)
                } else {
                    Log.info("alarm \(alarm): opened \(url) through the OpenURI portal")
                }
            }
        } catch {
            xdgOpen(url, alarm: alarm)
        }
    }

    private func xdgOpen(_ url: String, alarm: String) {
        do {
            try loop.spawnDetached("xdg-open", [url]) { status, stderr in
                guard status != 0 else { return Log.info("alarm \(alarm): xdg-open opened \(url)") }
                let how = (status & 0x7f) == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(status & 0x7f)"
                let why = stderr.split(separator: "\n").last.map { ": \($0)" } ?? ""
                Log.warning("alarm \(alarm): xdg-open could not open \(url): it \(how)\(why)")
            }
            Log.info("alarm \(alarm): opening \(url) with xdg-open")
        } catch {
            Log.warning("alarm \(alarm): cannot open \(url): \(error)")
        }
    }
}
