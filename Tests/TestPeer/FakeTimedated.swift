// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// systemd-timedated as seen by its clients: `PropertiesChanged` on `org.freedesktop.timedate1`
/// when the time zone was set. The test says when, through `org.alarmd.TestTimedated.Announce`.
final class FakeTimedated: BusObject {
    private let bus: Bus
    private var zone = "UTC"

    init(bus: Bus) { self.bus = bus }

    static let timedate1 = Interface<FakeTimedated>("org.freedesktop.timedate1", properties: [
        .init("Timezone", "s", .emitsChange) { peer, _ in .string(peer.zone) },
    ])

    static let control = Interface<FakeTimedated>("org.alarmd.TestTimedated", methods: [
        .init("Announce", in: [("zone", "s")]) { peer, call throws(BusError) in
            guard case .string(let z)? = call.args.first else { throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "zone") }
            peer.zone = z
            try peer.bus.emitPropertiesChanged(path: "/org/freedesktop/timedate1", interface: timedate1.name, ["Timezone"])
            return .reply([])
        },
    ])

    static func serve(on bus: Bus) throws(BusError) -> FakeTimedated {
        let peer = FakeTimedated(bus: bus)
        try bus.export(peer, path: "/org/freedesktop/timedate1", timedate1)
        try bus.export(peer, path: "/org/freedesktop/timedate1", control)
        try bus.requestName("org.freedesktop.timedate1")
        return peer
    }
}
