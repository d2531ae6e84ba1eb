import AlarmCore
import SDBus

/// systemd-timedated as seen by its clients: `PropertiesChanged` on `org.freedesktop.timedate1`
/// when the time zone was set. The test says when, through `org.alarmd.TestTimedated.Announce`.
final class FakeTimedated: BusObject {
    private let bus: Bus
    private var zone = "UTC"

    init(bus: Bus) { self.bus = bus }

    func handle(_ call: MethodCall) throws(BusError) -> MethodResult {
        guard call.member == "Announce", case .string(let z)? = call.args.first else {
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", call.member)
        }
        zone = z
        try bus.emitPropertiesChanged(path: "/org/freedesktop/timedate1", interface: "org.freedesktop.timedate1", ["Timezone"])
        return .reply([])
    }

    func property(_ name: String, path: String) -> Value? { name == "Timezone" ? .string(zone) : nil }

    static func serve(on bus: Bus) throws(BusError) -> FakeTimedated {
        let peer = FakeTimedated(bus: bus)
        try bus.export(peer, path: "/org/freedesktop/timedate1", interface: "org.freedesktop.timedate1", members: [
            .property("Timezone", "s", .emitsChange),
        ])
        try bus.export(peer, path: "/org/freedesktop/timedate1", interface: "org.alarmd.TestTimedated", members: [
            .method("Announce", in: [("zone", "s")], out: []),
        ])
        try bus.requestName("org.freedesktop.timedate1")
        return peer
    }
}
