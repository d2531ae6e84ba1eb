// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// An app exporting `org.freedesktop.Application` (Desktop Entry spec, D-Bus activation) on its
/// well-known name and path; it records the actions it was asked to activate, readable through
/// `org.alarmd.TestApp.Activations`.
final class TestApp: BusObject {
    var activations: [String] = []

    static let application = Interface<TestApp>("org.freedesktop.Application", methods: [
        .init("Activate", in: [("platform_data", "a{sv}")]) { peer, _ throws(BusError) in
            peer.activations.append("<Activate>")
            return .reply([])
        },
        .init("Open", in: [("uris", "as"), ("platform_data", "a{sv}")]) { peer, _ throws(BusError) in
            peer.activations.append("<Open>")
            return .reply([])
        },
        .init("ActivateAction", in: [("action_name", "s"), ("parameter", "av"), ("platform_data", "a{sv}")]) { peer, call throws(BusError) in
            guard case .string(let action)? = call.args.first else { throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "action") }
            peer.activations.append(action)
            return .reply([])
        },
    ])

    static let control = Interface<TestApp>("org.alarmd.TestApp", methods: [
        .init("Activations", out: [("actions", "as")]) { peer, _ throws(BusError) in .reply([.strings(peer.activations)]) },
    ])

    static func serve(_ app: String, on bus: Bus) throws(BusError) -> TestApp {
        let peer = TestApp()
        let path = "/" + app.replacingOccurrences(of: ".", with: "/").replacingOccurrences(of: "-", with: "_")
        try bus.export(peer, path: path, application)
        try bus.export(peer, path: path, control)
        try bus.requestName(app)
        return peer
    }
}
