// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// `org.freedesktop.portal.OpenURI` of xdg-desktop-portal: records the URIs it was asked to open
/// (readable through `org.alarmd.TestPortal.Opened`) and answers with a request handle.
final class FakePortal: BusObject {
    var opened: [String] = []

    static let openURI = Interface<FakePortal>("org.freedesktop.portal.OpenURI", methods: [
        .init("OpenURI", in: [("parent_window", "s"), ("uri", "s"), ("options", "a{sv}")], out: [("handle", "o")]) { peer, call throws(BusError) in
            guard call.args.count == 3, case .string(let uri) = call.args[1] else {
                throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "OpenURI(s parent_window, s uri, a{sv} options)")
            }
            peer.opened.append(uri)
            return .reply([.objectPath("/org/freedesktop/portal/desktop/request/1/t\(peer.opened.count)")])
        },
    ])

    static let control = Interface<FakePortal>("org.alarmd.TestPortal", methods: [
        .init("Opened", out: [("uris", "as")]) { peer, _ throws(BusError) in .reply([.strings(peer.opened)]) },
    ])

    static func serve(on bus: Bus) throws(BusError) -> FakePortal {
        let peer = FakePortal()
        try bus.export(peer, path: "/org/freedesktop/portal/desktop", openURI)
        try bus.export(peer, path: "/org/freedesktop/portal/desktop", control)
        try bus.requestName("org.freedesktop.portal.Desktop")
        return peer
    }
}
