// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// A screensaver on the session bus as KDE's ksmserver (`org.freedesktop.ScreenSaver`) and
/// xfce4-screensaver (`org.xfce.ScreenSaver`) serve one (`SimulateUserActivity`, `GetActive`), under the
/// name given (the interface has the same name) at the object paths given: records every
/// `SimulateUserActivity` with its path (readable through `org.alarmd.TestScreenSaver.Activity`).
/// Whether the screen is locked (`GetActive`) is the test's to say: `org.alarmd.TestScreenSaver.SetActive(b)`
/// changes it and, when it changed, emits `ActiveChanged(b)` at every path, as ksmserver does;
/// `GetActiveCalls` counts the questions.
final class FakeScreenSaver: BusObject {
    var activity: [String] = []
    private let bus: Bus
    private let name: String
    private let paths: [String]
    private var active: Bool
    private var asked: UInt32 = 0

    init(bus: Bus, name: String, paths: [String], active: Bool) {
        self.bus = bus
        self.name = name
        self.paths = paths
        self.active = active
    }

    private func setActive(_ call: MethodCall) throws(BusError) -> MethodResult {
        guard case .bool(let now)? = call.args.first else { throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "b") }
        guard now != active else { return .reply([]) }
        active = now
        for path in paths {
            try bus.emitSignal(path: path, interface: name, member: "ActiveChanged", [.bool(now)])
        }
        return .reply([])
    }

    /// The screensaver interface, named as the desktop names it (`org.freedesktop.ScreenSaver`, `org.xfce.ScreenSaver`).
    static func screenSaver(_ name: String) -> Interface<FakeScreenSaver> {
        Interface(name, methods: [
            .init("SimulateUserActivity") { peer, call throws(BusError) in
                peer.activity.append(call.path)
                return .reply([])
            },
            .init("GetActive", out: [("active", "b")]) { peer, _ throws(BusError) in
                peer.asked += 1
                return .reply([.bool(peer.active)])
            },
        ], signals: [.init("ActiveChanged", [("active", "b")])])
    }

    static let control = Interface<FakeScreenSaver>("org.alarmd.TestScreenSaver", methods: [
        .init("Activity", out: [("paths", "as")]) { peer, _ throws(BusError) in .reply([.strings(peer.activity)]) },
        .init("SetActive", in: [("active", "b")]) { peer, call throws(BusError) in try peer.setActive(call) },
        .init("GetActiveCalls", out: [("count", "u")]) { peer, _ throws(BusError) in .reply([.uint32(peer.asked)]) },
    ])

    static func serve(on bus: Bus, name: String, paths: [String], active: Bool = false) throws(BusError) -> FakeScreenSaver {
        let peer = FakeScreenSaver(bus: bus, name: name, paths: paths, active: active)
        for path in paths {
            try bus.export(peer, path: path, screenSaver(name))
        }
        try bus.export(peer, path: "/org/alarmd/TestScreenSaver", control)
        try bus.requestName(name)
        return peer
    }
}
