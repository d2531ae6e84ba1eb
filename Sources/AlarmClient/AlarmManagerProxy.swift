// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// The typed face of `org.alarmd.AlarmManager1`: every method and property of docs/API.md.
public final class AlarmManagerProxy {
    public let bus: Bus

    public init(bus: Bus) { self.bus = bus }

    /// The session bus, or the bus at `address`.
    public convenience init(address: String?) throws(BusError) {
        let bus: Bus
        if let address { bus = try Bus.connect(address: address) } else { bus = try Bus.session() }
        self.init(bus: bus)
    }

    @discardableResult
    public func call(_ member: String, _ args: [Value] = []) throws(BusError) -> [Value] {
        try bus.call(Contract.busName, Contract.managerPath, Contract.managerInterface, member, args)
    }

    /// Whether alarmd owns its name now (without starting it through D-Bus activation).
    public var isRunning: Bool {
        let r = try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                              [.string(Contract.busName)])
        return r?.first == .bool(true)
    }

    // MARK: identity and authorization

    public func registerApp(_ appId: String) throws(BusError) { try call("RegisterApp", [.string(appId)]) }

    public func authorizationState() throws(BusError) -> String {
        try call("GetAuthorizationState").first?.stringValue ?? ""
    }

    public func requestAuthorization(usage: String) throws(BusError) -> String {
        try call("RequestAuthorization", [.string(usage)]).first?.stringValue ?? ""
    }

    /// `state`: `authorized`, `denied` or `notDetermined` (reset).
    public func setAuthorization(app: String, state: String) throws(BusError) {
        try call("SetAuthorization", [.string(app), .string(state)])
    }

    public func authorizations() throws(BusError) -> [(app: String, state: String)] {
        guard case .dict(_, _, let entries)? = try call("ListAuthorizations").first else { return [] }
        return entries.compactMap { e in
            guard let app = e.key.stringValue, let state = e.value.stringValue else { return nil }
            return (app, state)
        }
    }

    // MARK: alarms

    /// Schedules and returns the new alarm's id.
    @discardableResult
    public func schedule(id: String = "", _ configuration: [(String, Value)]) throws(BusError) -> String {
        let r = try call("Schedule", [.string(id), .vardict(configuration)])
        guard case .objectPath(let p)? = r.first, let id = AlarmID.id(fromPath: p) else {
            throw BusError(BusError.failed, "Schedule answered without an alarm path")
        }
        return id
    }

    public func update(_ id: String, changes: [(String, Value)], clear: [String] = []) throws(BusError) {
        try call("Update", [.string(id), .vardict(changes), .strings(clear)])
    }

    public func cancel(_ id: String) throws(BusError) { try call("Cancel", [.string(id)]) }
    public func stop(_ id: String) throws(BusError) { try call("Stop", [.string(id)]) }
    public func pause(_ id: String) throws(BusError) { try call("Pause", [.string(id)]) }
    public func resume(_ id: String) throws(BusError) { try call("Resume", [.string(id)]) }
    /// Snooze (or repeat) an alerting alarm: AlarmKit's countdown intent.
    public func countdown(_ id: String) throws(BusError) { try call("Countdown", [.string(id)]) }

    /// Every alarm the caller may see; pages through `GetAlarmsPage` when one reply cannot hold them.
    public func alarms() throws(BusError) -> [AlarmSnapshot] {
        do {
            guard case .array(_, let items)? = try call("GetAlarms").first else { return [] }
            return items.compactMap(AlarmSnapshot.init)
        } catch where error.name == Contract.ErrorName.limitsExceeded {
            var out: [AlarmSnapshot] = [], after = ""
            repeat {
                let r = try call("GetAlarmsPage", [.string(after), .uint32(0)])
                guard r.count == 2, case .array(_, let items) = r[0], case .string(let next) = r[1] else { break }
                out += items.compactMap(AlarmSnapshot.init)
                after = next
            } while !after.isEmpty
            return out
        }
    }

    // MARK: properties

    public func property(_ name: String) throws(BusError) -> Value {
        let r = try bus.call(Contract.busName, Contract.managerPath, Contract.propertiesInterface, "Get",
                             [.string(Contract.managerInterface), .string(name)])
        return r.first?.unwrapped ?? .string("")
    }

    public var version: String { (try? property("Version"))?.stringValue ?? "" }
    /// Realtime µs of the earliest pending alert of any app, 0 if none.
    public var nextFireTime: USec {
        if case .uint64(let t)? = try? property("NextFireTimeUSec") { return t }
        return 0
    }
    public var wakeSupported: Bool { (try? property("WakeSupported"))?.boolValue ?? false }
    /// Where alarmd keeps its alarms (an extension: `StorePath`).
    public var storePath: String { (try? property("StorePath"))?.stringValue ?? "" }
    /// Why the store began empty, when alarmd set a damaged one aside (an extension:
    /// `StoreRecovery`, keys in `Contract.StoreRecovery`); empty otherwise, and from an alarmd
    /// that predates it.
    public var storeRecovery: [String: String] {
        guard case .dict(_, _, let entries)? = try? property(Contract.StoreRecovery.property) else { return [:] }
        return Dictionary(entries.compactMap { e in e.key.stringValue.flatMap { k in e.value.stringValue.map { (k, $0) } } },
                          uniquingKeysWith: { a, _ in a })
    }
}
