// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus

// The contract's names, from the one place that defines them for the daemon and every client.
public let managerName = Contract.busName
public let managerPath = Contract.managerPath
public let managerInterface = Contract.managerInterface
public let alarmInterface = Contract.alarmInterface

/// A signal as a subscriber saw it, stamped with the realtime clock when it was dispatched.
public struct ReceivedSignal: Sendable {
    public let interface: String
    public let member: String
    public let path: String
    public let args: [Value]
    public let receivedUSec: USec

    /// For PropertiesChanged: the changed properties.
    public var changed: [String: Value] {
        guard args.count >= 2, let entries = args[1].vardictEntries else { return [:] }
        return Dictionary(entries, uniquingKeysWith: { a, _ in a })
    }
}

/// A client connection through sd-bus, as an app or applet would hold it.
public final class Client {
    public let bus: Bus
    public private(set) var signals: [ReceivedSignal] = []

    public init(address: String) throws {
        bus = try Bus.connect(address: address)
    }

    @discardableResult
    public func call(_ member: String, _ args: [Value] = []) throws(BusError) -> [Value] {
        try bus.call(managerName, managerPath, managerInterface, member, args)
    }

    /// Schedules and returns the alarm's object path.
    public func schedule(_ entries: [(String, Value)], id: String = "") throws(BusError) -> String {
        let r = try call("Schedule", [.string(id), .vardict(entries)])
        guard case .objectPath(let p)? = r.first else { throw BusError("test", "no path") }
        return p
    }

    public func alarms() throws(BusError) -> [[String: Value]] {
        guard case .array(_, let items)? = try call("GetAlarms").first else { return [] }
        return items.map { Dictionary(($0.vardictEntries ?? []), uniquingKeysWith: { a, _ in a }) }
    }

    public func property(_ path: String, _ interface: String, _ name: String) throws(BusError) -> Value {
        let r = try bus.call(managerName, path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)])
        return r.first?.unwrapped ?? .string("")
    }

    public func allProperties(_ path: String, _ interface: String = alarmInterface) throws(BusError) -> [String: Value] {
        let r = try bus.call(managerName, path, "org.freedesktop.DBus.Properties", "GetAll", [.string(interface)])
        return Dictionary((r.first?.vardictEntries ?? []), uniquingKeysWith: { a, _ in a })
    }

    public func introspect(_ path: String) throws(BusError) -> String {
        try bus.call(managerName, path, "org.freedesktop.DBus.Introspectable", "Introspect").first?.stringValue ?? ""
    }

    public func nameHasOwner(_ name: String) -> Bool {
        let r = try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
        return r?.first == .bool(true)
    }

    /// Records every signal the daemon sends: subscribes, and watches (alarmd addresses its signals
    /// to the connections that called `Watch`, and broadcasts none).
    public func subscribe() throws(BusError) {
        try listen()
        try watch()
    }

    /// Records every signal the daemon sends this connection, without asking it to (`Watch`).
    public func listen() throws(BusError) {
        try bus.addMatch("type='signal',sender='\(managerName)'") { [unowned self] m in
            let args = (try? m.readAll()) ?? []
            self.signals.append(ReceivedSignal(interface: m.interface ?? "", member: m.member ?? "", path: m.path ?? "",
                                               args: args, receivedUSec: SystemClock().now()))
        }
        // A round trip makes sure the match is installed before the caller goes on.
        _ = nameHasOwner(managerName)
    }

    /// `Watch`: alarmd sends this connection the signals about what it may see (again after a restart).
    public func watch() throws(BusError) {
        _ = try call("Watch")
    }

    /// Dispatches incoming messages until `predicate` holds or `timeout` seconds pass.
    @discardableResult
    public func waitFor(timeout: Double = 5, _ predicate: ([ReceivedSignal]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if predicate(signals) { return true }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            try? bus.processOnce(timeoutUSec: UInt64(min(left, 0.05) * 1_000_000))
        }
    }

    /// Returns once every signal alarmd emitted before now is in `signals`: alarmd answers this Ping
    /// after whatever it emitted earlier, and the bus delivers one sender's messages in order. The
    /// positive control of a test that asserts something was *not* signalled: the reply had to come,
    /// and it came after anything the test is looking for.
    public func barrier() throws(BusError) {
        _ = try bus.call(managerName, managerPath, "org.freedesktop.DBus.Peer", "Ping")
        bus.processPending()
    }

    /// Dispatches incoming messages for `seconds`.
    public func pump(_ seconds: Double) {
        _ = waitFor(timeout: seconds) { _ in false }
    }
}

extension Array where Element == ReceivedSignal {
    public func named(_ member: String) -> [ReceivedSignal] { filter { $0.member == member } }
}

/// A call whose reply arrives later (RequestAuthorization waits for the user).
public final class PendingReply {
    public fileprivate(set) var values: [Value]?
    public fileprivate(set) var error: BusError?
    public var done: Bool { values != nil || error != nil }
}

extension Client {
    public func callAsync(_ member: String, _ args: [Value] = [], timeoutSeconds: Double = 30) throws(BusError) -> PendingReply {
        let pending = PendingReply()
        try bus.callAsync(managerName, managerPath, managerInterface, member, args,
                          timeoutUSec: UInt64(timeoutSeconds * 1_000_000)) { m in
            if let e = m.error { pending.error = e } else { pending.values = (try? m.readAll()) ?? [] }
        }
        return pending
    }

    /// Dispatches until `pending` has its reply.
    @discardableResult
    public func wait(for pending: PendingReply, timeout: Double = 5) -> Bool {
        waitFor(timeout: timeout) { _ in pending.done }
    }
}
