import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport

/// One private bus, one state directory, the real daemon and a subscribed client.
final class Harness {
    let bus: TestBus
    let state = TempDir("alarmd-state")
    private(set) var daemon: DaemonProcess!
    private(set) var client: Client!

    init() throws {
        bus = try TestBus()
        try start()
    }

    func start() throws {
        daemon = try DaemonProcess(bus: bus, stateDir: state.path)
        client = try Client(address: bus.address)
        try client.subscribe()
    }

    /// Ends the daemon (SIGKILL or SIGTERM), waits until the bus has forgotten it, and starts a new one.
    func restart(kill9: Bool) throws {
        if kill9 { daemon.kill9() } else { daemon.process.stop() }
        let probe = try Client(address: bus.address)
        let deadline = Date().addingTimeInterval(5)
        while probe.nameHasOwner(managerName) && Date() < deadline { usleep(10_000) }
        try start()
    }

    func busctl(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try runCommand("/usr/bin/busctl", ["--address=\(bus.address)"] + args)
    }

    /// `busctl call` on the manager.
    func busctlCall(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try busctl(["call", managerName, managerPath, managerInterface] + args)
    }
}

let usec = usecPerSecond

/// The error a call failed with, or nil if it succeeded.
func callError(_ body: () throws(BusError) -> Void) -> BusError? {
    do { try body() } catch { return error }
    return nil
}

/// Property maps without the clock-computed entries, for comparing snapshots taken at different times.
func stable(_ alarms: [[String: Value]]) -> [[String: Value]] {
    alarms.map { $0.filter { $0.key != "Progress" && $0.key != "RemainingUSec" } }
        .sorted { ($0["Id"]?.stringValue ?? "") < ($1["Id"]?.stringValue ?? "") }
}

func uint64(_ v: Value?) -> UInt64 {
    if case .uint64(let x)? = v?.unwrapped { return x }
    return 0
}
