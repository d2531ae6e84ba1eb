// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSystemd
import Foundation
import Glibc
import SDBus
import TestSupport

/// How one call ended: its reply or error, when it was sent and when its reply was dispatched.
struct CallOutcome {
    let message: Message
    let error: BusError?
    let sentUSec: UInt64
    let repliedUSec: UInt64
    var latency: Double { Double(repliedUSec - sentUSec) }
}

/// Method calls to alarmd with any number in flight, over connections that are replaced when alarmd
/// answers `LimitReached` (its per-connection flood limit on calls that change something): the call
/// is sent again on a fresh connection and counted in `limitHits`. The old connection still
/// receives its outstanding replies and is closed once it has none. Without the limit, one
/// connection carries everything.
final class Pipeline {
    final class Connection {
        let bus: Bus
        var pending = 0
        var retired = false
        init(_ bus: Bus) { self.bus = bus }
    }

    let address: String
    private(set) var connections: [Connection] = []
    private var current: Connection
    private(set) var limitHits = 0
    private(set) var inFlight = 0

    init(address: String) throws {
        self.address = address
        current = Connection(try Bus.connect(address: address))
        connections = [current]
    }

    /// The connection new calls go to (for matches and synchronous calls).
    var bus: Bus { current.bus }

    func call(_ member: String, _ args: [Value] = [], interface: String = managerInterface, destination: String = managerName,
              path: String = managerPath, _ done: @escaping (CallOutcome) -> Void) throws {
        let conn = current
        let sent = monoUSec()
        conn.pending += 1
        inFlight += 1
        try conn.bus.callAsync(destination, path, interface, member, args, timeoutUSec: 120_000_000) { [unowned self] m in
            let replied = monoUSec()
            conn.pending -= 1
            self.inFlight -= 1
            let error = m.error
            if let error, error.name == Contract.ErrorName.limitReached {
                self.limitHits += 1
                do {
                    try self.rotate(away: conn)
                    try self.call(member, args, interface: interface, destination: destination, path: path, done)
                } catch {
                    done(CallOutcome(message: m, error: BusError("bench", "resend failed: \(error)"), sentUSec: sent, repliedUSec: replied))
                }
                return
            }
            done(CallOutcome(message: m, error: error, sentUSec: sent, repliedUSec: replied))
        }
    }

    private func rotate(away conn: Connection) throws {
        conn.retired = true
        guard conn === current else { return }
        current = Connection(try Bus.connect(address: address))
        connections.append(current)
    }

    /// Dispatches everything that has arrived; whether anything had.
    @discardableResult
    func process() throws -> Bool {
        var progressed = false
        for c in connections {
            while true {
                let r = sd_bus_process(c.bus.handle, nil)
                if r < 0 { throw BenchError("bus connection failed: \(String(cString: strerror(-r)))") }
                if r == 0 { break }
                progressed = true
            }
        }
        // Never inside a callback of the connection itself: only here is a drained one let go.
        connections.removeAll { $0.retired && $0.pending == 0 }
        return progressed
    }

    /// What to poll for, for every connection.
    var pollFDs: [pollfd] {
        connections.map { pollfd(fd: sd_bus_get_fd($0.bus.handle), events: Int16(sd_bus_get_events($0.bus.handle)), revents: 0) }
    }

    /// Dispatches what has arrived; when nothing had, waits up to `timeoutUSec` for more.
    func pump(timeoutUSec: UInt64) throws {
        try ChildRegistry.check()
        if try process() || timeoutUSec == 0 { return }
        var fds = pollFDs
        _ = Glibc.poll(&fds, nfds_t(fds.count), Int32(min((timeoutUSec + 999) / 1000, 100)))
    }

    /// Pumps until `condition` holds; throws after `timeout` seconds.
    func pump(until condition: () -> Bool, timeout: Double, what: String) throws {
        let deadline = monoUSec() + UInt64(timeout * 1e6)
        while !condition() {
            if monoUSec() > deadline { throw BenchError("\(what): no answer within \(Int(timeout)) s") }
            try pump(timeoutUSec: 50_000)
        }
    }

    /// One call, waited for (a synchronous call, timed the same way as pipelined ones).
    @discardableResult
    func sync(_ member: String, _ args: [Value] = [], interface: String = managerInterface, destination: String = managerName,
              path: String = managerPath, timeout: Double = 120) throws -> CallOutcome {
        var outcome: CallOutcome?
        try call(member, args, interface: interface, destination: destination, path: path) { outcome = $0 }
        try pump(until: { outcome != nil }, timeout: timeout, what: member)
        return outcome!
    }
}

/// Parent gone (killed without a chance to clean up): a worker stops at once.
func orphaned(_ parent: pid_t) -> Bool { getppid() != parent }
