import AlarmCore
import Foundation
import SDBus
import TestSupport

/// Method calls through a real dbus-daemon to the built alarmd, against a baseline in the same run:
/// `org.freedesktop.DBus.Peer.Ping` on the same daemon (one bus round trip, no work). Schedule and
/// Cancel each commit to SQLite with fsync before replying; the ratio shows what durability costs.
func busBench(alarmd: String) throws {
    let bus = try TestBus()
    let state = TempDir("alarmd-bench")
    let process = try ChildProcess(alarmd, ["--bus-address", bus.address, "--state-dir", state.path],
                                   stderrPath: state.path + "/alarmd.log")
    defer { process.stop() }
    let c = try Client(address: bus.address)
    let deadline = Date().addingTimeInterval(20)
    while !c.nameHasOwner(managerName) && Date() < deadline { usleep(10_000) }

    func time(_ n: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        let t0 = Date()
        for i in 0..<n { try body(i) }
        return Date().timeIntervalSince(t0) / Double(n) * 1e6
    }
    let n = 400
    let ping = try time(n) { _ in try c.bus.call(managerName, managerPath, "org.freedesktop.DBus.Peer", "Ping") }
    var ids: [String] = []
    let schedule = try time(n) { i in
        let p = try c.schedule([("title", .string("bench \(i)")), ("duration", .uint32(3_600 + UInt32(i)))])
        ids.append(AlarmID.id(fromPath: p)!)
    }
    let property = try time(n) { i in _ = try c.property(AlarmID.path(of: ids[i]), alarmInterface, "RemainingUSec") }
    let cancel = try time(n) { i in try c.call("Cancel", [.string(ids[i])]) }
    print("")
    print("through dbus-daemon, \(n) calls each")
    print("call                      µs/call   × Ping")
    for (name, v) in [("Ping (baseline)", ping), ("Get RemainingUSec", property), ("Schedule (durable)", schedule), ("Cancel (durable)", cancel)] {
        print(name.padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: "%8.1f   ×%.1f", v, v / ping))
    }
}
