import AlarmCore
import Glibc
import SDBus

/// `org.freedesktop.login1.Manager.Inhibit` as logind implements it: the caller gets one end of a
/// pipe, and the inhibitor lasts until every copy of it is closed (the read end sees EOF).
/// `org.alarmd.TestLogind.Inhibitors` lists them with whether each is still held.
final class FakeLogind: BusObject {
    struct Inhibitor {
        let what: String, who: String, why: String, mode: String
        var held = true
    }

    private let loop: EventLoop
    private let bus: Bus
    var inhibitors: [Inhibitor] = []

    init(loop: EventLoop, bus: Bus) {
        self.loop = loop
        self.bus = bus
    }

    func handle(_ call: MethodCall) throws(BusError) -> MethodResult {
        switch call.member {
        case "Inhibit":
            let s = call.args.map { $0.stringValue ?? "" }
            var fds: [Int32] = [0, 0]
            guard s.count == 4, pipe(&fds) == 0 else { throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "Inhibit") }
            let index = inhibitors.count
            inhibitors.append(Inhibitor(what: s[0], who: s[1], why: s[2], mode: s[3]))
            let readEnd = fds[0]
            try loop.watchReadable(readEnd) { [unowned self] in
                var byte: UInt8 = 0
                if read(readEnd, &byte, 1) <= 0 && self.inhibitors[index].held {
                    self.inhibitors[index].held = false
                    close(readEnd)
                }
            }
            try call.message.replyUnixFD(fds[1])
            close(fds[1])
            return .later
        case "Sleep":
            // What logind broadcasts around suspend: PrepareForSleep(true) before, (false) after.
            guard case .bool(let going)? = call.args.first else { throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "b") }
            try bus.emitSignal(path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                               member: "PrepareForSleep", [.bool(going)])
            return .reply([])
        case "Inhibitors":
            return .reply([.array(element: "(ssssb)", inhibitors.map {
                .structure([.string($0.what), .string($0.who), .string($0.why), .string($0.mode), .bool($0.held)])
            })])
        default:
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", call.member)
        }
    }

    func property(_ name: String, path: String) -> Value? { nil }

    static func serve(on bus: Bus, loop: EventLoop) throws(BusError) -> FakeLogind {
        let peer = FakeLogind(loop: loop, bus: bus)
        try bus.export(peer, path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager", members: [
            .method("Inhibit", in: [("what", "s"), ("who", "s"), ("why", "s"), ("mode", "s")], out: [("pipe_fd", "h")]),
            .signal("PrepareForSleep", [("start", "b")]),
        ])
        try bus.export(peer, path: "/org/freedesktop/login1", interface: "org.alarmd.TestLogind", members: [
            .method("Inhibitors", in: [], out: [("inhibitors", "a(ssssb)")]),
            .method("Sleep", in: [("start", "b")], out: []),
        ])
        try bus.requestName("org.freedesktop.login1")
        return peer
    }
}
