// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSystemd
import Foundation
import Glibc
import SDBus
import TestSupport

/// What a run sent and heard.
struct FuzzStats {
    var sent = 0
    var answered = 0
    var ok: [String: Int] = [:]
    var errors: [String: Int] = [:]
    /// Calls our own sd-bus would not build (an invalid object path, a string it refuses…).
    var notSent: [String: Int] = [:]
    var raw: [String: Int] = [:]
    var invalidErrorNames: Set<String> = []
    /// Calls alarmd never answered (within the call timeout).
    var unanswered: [String] = []
    /// Raw calls that were accepted: each carries something that must be refused.
    var rawSurprises: [String] = []
    /// Our sd-bus connections that were closed: dbus-daemon closes one that sends a message nested
    /// deeper than it carries (sd-bus builds up to 128 levels).
    var droppedConnections = 0
    /// Raw connections dbus-daemon closed after a message it must refuse.
    var droppedRaw = 0
    var connectionsOpened = 0
    /// The longest wait for an answer, by kind of call.
    var slowest: [String: Double] = [:]
    var rss: [(calls: Int, kib: Int)] = []
}

/// Sends the calls with up to `inFlight` awaiting answers, over a few connections per role: three
/// apps and the user's own tools, each replaced on a fresh connection when alarmd says
/// `LimitReached` (its per-connection flood limit), plus short-lived connections of new apps and a
/// raw connection for what sd-bus will not send.
final class BusFuzzer {
    final class Connection {
        let bus: Bus
        let role: Role
        var pending = 0
        var retired = false
        var dead = false
        init(_ bus: Bus, _ role: Role) {
            self.bus = bus
            self.role = role
        }
    }

    let address: String
    let options: Options
    let watch: DaemonWatch
    var planner: CallPlanner
    private(set) var stats = FuzzStats()
    private var connections: [Connection] = []
    private var raw: RawConnection?
    private var churned = 0
    private let callTimeoutUSec: UInt64 = 120_000_000

    init(address: String, options: Options, watch: DaemonWatch, victims: Victims) throws {
        self.address = address
        self.options = options
        self.watch = watch
        planner = CallPlanner(seed: options.seed, hugeBytes: options.hugeBytes, victimIds: victims.ids)
        for app in CallPlanner.apps {
            try watch.control.call("SetAuthorization", [.string(app), .string("authorized")])
        }
        for role in CallPlanner.apps.map(Role.app) + [.shell] { connections.append(try connect(role)) }
    }

    private func connect(_ role: Role) throws -> Connection {
        let c = Connection(try Bus.connect(address: address), role)
        if case .app(let app) = role { try c.bus.call(managerName, managerPath, managerInterface, "RegisterApp", [.string(app)]) }
        stats.connectionsOpened += 1
        return c
    }

    private var inFlight: Int { connections.reduce(0) { $0 + $1.pending } }

    func run() throws {
        let every = max(1, options.calls / 40)
        stats.rss.append((0, watch.rssKiB))
        while stats.sent < options.calls {
            try Interrupt.check()
            while inFlight < options.inFlight && stats.sent < options.calls {
                sendOne()
                if stats.sent % every == 0 { stats.rss.append((stats.sent, watch.rssKiB)) }
                if stats.sent % max(1, options.calls / 10) == 0 {
                    say("… \(stats.sent) calls, \(stats.answered) answered, alarmd at \(watch.rssKiB / 1024) MiB")
                }
            }
            try pump(timeoutUSec: 10_000)
        }
        let deadline = Date().addingTimeInterval(Double(callTimeoutUSec) / 1e6 + 10)
        while inFlight > 0 && Date() < deadline { try pump(timeoutUSec: 50_000) }
        if inFlight > 0 { stats.unanswered.append("\(inFlight) calls still waiting at the end") }
        stats.rss.append((stats.sent, watch.rssKiB))
    }

    private func sendOne() {
        stats.sent += 1
        switch planner.c.below(1_000) {
        case 0..<110: sendRaw()
        case 110..<130: churn()
        case 130..<140: sendUnixFD()
        default:
            guard let conn = pickConnection() else { return }
            send(planner.next(for: conn.role), on: conn)
        }
    }

    private func pickConnection() -> Connection? {
        let usable = connections.filter { !$0.retired && !$0.dead }
        return usable.isEmpty ? nil : planner.c.pick(usable)
    }

    private func send(_ call: PlannedCall, on conn: Connection) {
        let started = Date()
        let label = call.label
        do {
            try conn.bus.callAsync(managerName, call.path, call.interface, call.member, call.args, timeoutUSec: callTimeoutUSec) { [unowned self] m in
                conn.pending -= 1
                self.answered(m, label: label, started: started, on: conn)
            }
            conn.pending += 1
        } catch {
            stats.notSent[error.name, default: 0] += 1
            // The bus closed it (after a message it refused): what comes next goes elsewhere.
            if sd_bus_is_open(conn.bus.handle) <= 0 { conn.dead = true }
        }
    }

    private func answered(_ m: Message, label: String, started: Date, on conn: Connection) {
        stats.answered += 1
        let seconds = Date().timeIntervalSince(started)
        stats.slowest[label] = max(stats.slowest[label] ?? 0, seconds)
        guard let error = m.error else {
            stats.ok[label, default: 0] += 1
            if label == "Schedule", case .objectPath(let p)? = try? m.readAll().first, let id = AlarmID.id(fromPath: p) {
                planner.remember(id, for: conn.role)
            }
            return
        }
        if error.name == "org.freedesktop.DBus.Error.NoReply" {
            if sd_bus_is_open(conn.bus.handle) > 0 && !conn.dead {
                stats.unanswered.append("\(label) after \(Int(seconds)) s: \(error.message)")
            }
            return
        }
        stats.errors[error.name, default: 0] += 1
        if !BusError.isValidName(error.name) { stats.invalidErrorNames.insert(error.name) }
        if error.name == Contract.ErrorName.limitReached && !conn.retired {
            // alarmd's per-connection flood limit: carry on from a fresh connection, as a flooding app would.
            conn.retired = true
            if let fresh = try? connect(conn.role) { connections.append(fresh) }
        }
    }

    /// Dispatches what arrived on every connection; closes drained retired ones and replaces dead ones.
    private func pump(timeoutUSec: UInt64) throws {
        var progressed = false
        for conn in connections where !conn.dead {
            while true {
                let r = sd_bus_process(conn.bus.handle, nil)
                if r < 0 {
                    conn.dead = true
                    stats.droppedConnections += 1
                    break
                }
                if r == 0 { break }
                progressed = true
            }
        }
        watch.pump()
        for conn in connections where conn.dead && !conn.retired {
            conn.retired = true
            if let fresh = try? connect(conn.role) { connections.append(fresh) }
        }
        connections.removeAll { ($0.retired && $0.pending == 0) || $0.dead }
        if !progressed && timeoutUSec > 0 {
            var fds = connections.map { pollfd(fd: sd_bus_get_fd($0.bus.handle), events: Int16(sd_bus_get_events($0.bus.handle)), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32(timeoutUSec / 1_000))
        }
    }

    /// A new app on a connection of its own: it registers, asks or schedules, and goes.
    private func churn() {
        churned += 1
        let app = "org.fuzz.churn.n\(churned)"
        guard let conn = try? connect(.app(app)) else { return }
        connections.append(conn)
        let call: PlannedCall = planner.c.chance(128)
            ? PlannedCall(member: "RequestAuthorization", args: [.string(planner.hostile.text(&planner.c))], label: "RequestAuthorization (new app)")
            : PlannedCall(member: "Schedule", args: [.string(""), .vardict(planner.hostile.configuration(&planner.c))], label: "Schedule (new app)")
        send(call, on: conn)
        conn.retired = true
    }

    /// A unix fd where a string belongs: sd-bus builds it, alarmd must refuse the type.
    private func sendUnixFD() {
        guard let conn = pickConnection() else { return }
        var m: OpaquePointer?
        guard sd_bus_message_new_method_call(conn.bus.handle, &m, managerName, managerPath, managerInterface,
                                             planner.c.pick(["Cancel", "Schedule", "RegisterApp"])) >= 0, let m else { return }
        defer { sd_bus_message_unref(m) }
        var fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        guard sd_bus_message_append_basic(m, CChar(UInt8(ascii: "h")), &fd) >= 0 else { stats.notSent["unix fd", default: 0] += 1; return }
        var err = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&err) }
        var reply: OpaquePointer?
        let r = sd_bus_call(conn.bus.handle, m, callTimeoutUSec, &err, &reply)
        sd_bus_message_unref(reply)
        stats.answered += 1
        if let name = err.name.map({ String(cString: $0) }) {
            stats.errors[name, default: 0] += 1
            if !BusError.isValidName(name) { stats.invalidErrorNames.insert(name) }
        } else if r >= 0 {
            stats.ok["unix fd", default: 0] += 1
        } else {
            stats.unanswered.append("unix fd: \(String(cString: strerror(-r)))")
        }
    }

    private func sendRaw() {
        if raw?.alive != true {
            raw = try? RawConnection(address: address)
            stats.connectionsOpened += 1
        }
        guard let raw else { stats.notSent["raw connection", default: 0] += 1; return }
        let call = planner.rawCall()
        let outcome = raw.call(destination: managerName, path: call.path, interface: call.interface, member: call.member,
                               signature: call.signature, body: call.body, timeout: Double(callTimeoutUSec) / 1e6)
        stats.answered += 1
        // Every raw call carries something alarmd must refuse (a noncharacter) or dbus-daemon must
        // (invalid UTF-8, NUL, …): accepted is a failure. Which of the two refused it is counted;
        // the fuzzer's guess of what dbus-daemon refuses only labels the call.
        switch outcome {
        case .reply:
            stats.raw["\(call.kind): accepted", default: 0] += 1
            stats.rawSurprises.append("\(call.kind) was accepted")
        case .error(let name):
            stats.raw["\(call.kind): \(name)", default: 0] += 1
            stats.errors[name, default: 0] += 1
            if !BusError.isValidName(name) { stats.invalidErrorNames.insert(name) }
        case .disconnected:
            stats.raw["\(call.kind): disconnected by the bus", default: 0] += 1
            stats.droppedRaw += 1
        case .timedOut:
            stats.unanswered.append("raw \(call.kind)")
        }
    }
}
