// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus

/// `org.freedesktop.login1.Manager.Inhibit` as logind implements it: the caller gets one end of a
/// pipe, and the inhibitor lasts until every copy of it is closed (the read end sees EOF); while a
/// sleep operation runs (from `Sleep(true)` to `Sleep(false)`) it is refused with
/// `OperationInProgress`, as systemd 257's logind refuses it until the suspend job has finished, also
/// for a while after user space is thawed. `org.alarmd.TestLogind.Inhibitors` lists the inhibitors
/// with whether each is still held; `Refused` counts the refusals.
final class FakeLogind: BusObject {
    struct Inhibitor {
        let what: String, who: String, why: String, mode: String
        var held = true
    }

    private let loop: EventLoop
    private let bus: Bus
    var inhibitors: [Inhibitor] = []
    private var sleeping = false
    private var refused: UInt32 = 0

    init(loop: EventLoop, bus: Bus) {
        self.loop = loop
        self.bus = bus
    }

    private func inhibit(_ call: MethodCall) throws(BusError) -> MethodResult {
        let s = call.args.map { $0.stringValue ?? "" }
        var fds: [Int32] = [0, 0]
        guard s.count == 4 else { throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "Inhibit") }
        if sleeping {
            refused += 1
            throw BusError("org.freedesktop.login1.OperationInProgress", "The operation inhibition has been requested for is already running")
        }
        guard pipe(&fds) == 0 else { throw BusError("org.freedesktop.DBus.Error.Failed", "pipe") }
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
    }

    /// What logind broadcasts around suspend: PrepareForSleep(true) before, (false) after.
    private func sleep(_ call: MethodCall) throws(BusError) -> MethodResult {
        guard case .bool(let going)? = call.args.first else { throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "b") }
        sleeping = going
        try bus.emit(FakeLogind.prepareForSleep, of: FakeLogind.manager, path: "/org/freedesktop/login1", [.bool(going)])
        return .reply([])
    }

    static let prepareForSleep = Interface<FakeLogind>.Signal("PrepareForSleep", [("start", "b")])

    static let manager = Interface<FakeLogind>("org.freedesktop.login1.Manager", methods: [
        .init("Inhibit", in: [("what", "s"), ("who", "s"), ("why", "s"), ("mode", "s")], out: [("pipe_fd", "h")]) { peer, call throws(BusError) in
            try peer.inhibit(call)
        },
    ], signals: [prepareForSleep])

    static let control = Interface<FakeLogind>("org.alarmd.TestLogind", methods: [
        .init("Inhibitors", out: [("inhibitors", "a(ssssb)")]) { peer, _ throws(BusError) in
            .reply([.array(element: "(ssssb)", peer.inhibitors.map {
                .structure([.string($0.what), .string($0.who), .string($0.why), .string($0.mode), .bool($0.held)])
            })])
        },
        .init("Sleep", in: [("start", "b")]) { peer, call throws(BusError) in try peer.sleep(call) },
        .init("Refused", out: [("count", "u")]) { peer, _ throws(BusError) in .reply([.uint32(peer.refused)]) },
    ])

    static func serve(on bus: Bus, loop: EventLoop) throws(BusError) -> FakeLogind {
        let peer = FakeLogind(loop: loop, bus: bus)
        try bus.export(peer, path: "/org/freedesktop/login1", manager)
        try bus.export(peer, path: "/org/freedesktop/login1", control)
        try bus.requestName("org.freedesktop.login1")
        return peer
    }
}
