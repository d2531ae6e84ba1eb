// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// A screensaver on the session bus as KDE's ksmserver (`org.freedesktop.ScreenSaver`) and
/// xfce4-screensaver (`org.xfce.ScreenSaver`) serve one (`SimulateUserActivity`, `GetActive`), under the
/// name given (the interface has the same name) at the object paths given: records every
/// `SimulateUserActivity` with its path (readable through `org.alarmd.TestScreenSaver.Activity`).
final class FakeScreenSaver: BusObject {
    var activity: [String] = []

    /// The screensaver interface, named as the desktop names it (`org.freedesktop.ScreenSaver`, `org.xfce.ScreenSaver`).
    static func screenSaver(_ name: String) -> Interface<FakeScreenSaver> {
        Interface(name, methods: [
            .init("SimulateUserActivity") { peer, call throws(BusError) in
                peer.activity.append(call.path)
                return .reply([])
            },
            .init("GetActive", out: [("active", "b")]) { _, _ throws(BusError) in .reply([.bool(false)]) },
        ])
    }

    static let control = Interface<FakeScreenSaver>("org.alarmd.TestScreenSaver", methods: [
        .init("Activity", out: [("paths", "as")]) { peer, _ throws(BusError) in .reply([.strings(peer.activity)]) },
    ])

    static func serve(on bus: Bus, name: String, paths: [String]) throws(BusError) -> FakeScreenSaver {
        let peer = FakeScreenSaver()
        for path in paths {
            try bus.export(peer, path: path, screenSaver(name))
        }
        try bus.export(peer, path: "/org/alarmd/TestScreenSaver", control)
        try bus.requestName(name)
        return peer
    }
}
