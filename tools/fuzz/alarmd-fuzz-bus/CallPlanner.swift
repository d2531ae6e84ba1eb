// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import AlarmDaemon
import AlarmFuzzing
import Foundation
import TestSupport

/// One call to send through sd-bus: where, what, with what, and how to count it.
struct PlannedCall {
    var path = managerPath
    var interface = managerInterface
    var member: String
    var args: [Value] = []
    var label: String
}

/// Who a connection speaks for.
enum Role: Equatable {
    case app(String)
    /// The user's own tools (the empty app id): may act on every app's alarms, so it is never given
    /// the victim's ids.
    case shell
}

/// Chooses each call: the method, its arguments, and whose alarms they name.
struct CallPlanner {
    var c: RandomChoices<SeededRandom>
    var hostile: HostileInput
    /// Ids of alarms each connection's app made (the shell's under ""), newest last.
    var made: [String: [String]] = [:]
    let victimIds: [String]

    static let apps = ["org.fuzz.A", "org.fuzz.B", "org.fuzz.C"]
    static let methods: [(String, Int)] = [
        ("Schedule", 22), ("Update", 10), ("Cancel", 8), ("Stop", 5), ("Pause", 5), ("Resume", 5), ("Countdown", 5),
        ("RegisterApp", 4), ("GetAuthorizationState", 3), ("RequestAuthorization", 4), ("SetAuthorization", 5),
        ("ListAuthorizations", 2), ("GetAlarms", 4), ("GetAlarmsPage", 6),
    ]
    static let managerProperties = ["Version", "NextFireTimeUSec", "WakeSupported", "StorePath"]

    init(seed: UInt64, hugeBytes: Int, victimIds: [String]) {
        c = RandomChoices(SeededRandom(seed: seed))
        let sizes = [257, 4_097, 65_537, 1 << 20, 16 << 20, hugeBytes].filter { $0 <= hugeBytes }
        hostile = HostileInput(scale: .init(hugeTextBytes: sizes, hugeUnits: ["x", "ü", "🍕", ".", "e\u{301}"], deepLevels: [1, 2, 8, 16, 30, 31, 32, 50, 58]),
                               nowSeconds: Int64(Date().timeIntervalSince1970))
        self.victimIds = victimIds
    }

    mutating func weighted(_ items: [(String, Int)]) -> String {
        var n = c.below(items.reduce(0) { $0 + $1.1 })
        for (item, w) in items {
            if n < w { return item }
            n -= w
        }
        return items[0].0
    }

    mutating func remember(_ id: String, for role: Role) {
        let key = role.key
        made[key, default: []].append(id)
        if made[key]!.count > 300 { made[key]!.removeFirst(100) }
    }

    /// An id for `role` to name: its own alarms mostly; for an app also the victim's and other apps'
    /// (which must be NotFound to it); damaged or unknown ids; never the victim's for the shell.
    mutating func id(for role: Role) -> String {
        hostile.nowSeconds = Int64(Date().timeIntervalSince1970)
        let own = made[role.key] ?? []
        let others = made.filter { $0.key != role.key }.flatMap(\.value)
        switch c.below(10) {
        case 0...5 where !own.isEmpty: return c.pick(own)
        case 6 where role != .shell && !victimIds.isEmpty: return c.pick(victimIds)
        case 7 where !others.isEmpty: return c.pick(others)
        default: return hostile.alarmID(&c, known: own)
        }
    }

    /// An alarm object path for `role` to read: its own, the victim's, another app's, none.
    mutating func alarmPath(for role: Role) -> String {
        switch c.below(8) {
        case 0: return Contract.alarmPathPrefix
        case 1: return Contract.alarmPathPrefix + "/" + c.pick(["x", "0", "not_an_id", String(repeating: "a", count: 255)])
        case 2 where role != .shell && !victimIds.isEmpty: return AlarmID.path(of: c.pick(victimIds))
        default:
            let id = self.id(for: role)
            return AlarmKey(id).map { $0.path } ?? Contract.alarmPathPrefix + "/none"
        }
    }

    /// A method of the manager with the arguments of its signature (hostile as they may be).
    mutating func managerCall(for role: Role) -> PlannedCall {
        let member = weighted(Self.methods)
        var call = PlannedCall(member: member, label: member)
        switch member {
        case "Schedule":
            call.args = [.string(c.chance(220) ? "" : id(for: role)), .vardict(hostile.configuration(&c))]
        case "Update":
            call.args = [.string(id(for: role)), .vardict(hostile.changes(&c, count: c.below(4))), .strings(hostile.clear(&c))]
        case "Cancel", "Stop", "Pause", "Resume", "Countdown":
            call.args = [.string(id(for: role))]
        case "RegisterApp":
            // The shell stays the shell: only ids that cannot be registered.
            if case .app(let app) = role {
                call.args = [.string(c.pick([app, app, c.pick(Self.apps), hostile.appID(&c)]))]
            } else {
                call.args = [.string(c.pick(["", "a", "1org.x", "org..x", "org.x.", "org.ä.x", String(repeating: "a.", count: 128) + "a"]))]
            }
        case "RequestAuthorization":
            call.args = [.string(c.chance(128) ? "Rings your fuzz timers" : hostile.text(&c))]
        case "SetAuthorization":
            var app = c.chance(160) ? c.pick(Self.apps) : hostile.appID(&c)
            if app == Victims.app { app = Self.apps[0] }
            call.args = [.string(app), .string(c.pick(["authorized", "authorized", "authorized", "denied", "notDetermined", hostile.text(&c)]))]
        case "GetAlarmsPage":
            call.args = [.string(c.chance(128) ? "" : id(for: role)), .uint32(c.pick([0, 1, 7, 1_000, 10_000, 10_001, .max]))]
        default:
            break
        }
        return call
    }

    /// The next call through sd-bus, of any kind but raw.
    mutating func next(for role: Role) -> PlannedCall {
        switch c.below(1_000) {
        case 0..<80:
            // Wrong types: a method of the manager with arguments of any signature.
            var call = PlannedCall(member: c.pick(Self.methods.map(\.0) + ["Bogus"]), label: "wrong signature")
            if c.chance(64) {
                call = managerCall(for: role)
                call.label = "extra argument"
                call.args.append(hostile.value(&c))
            } else {
                call.args = (0..<c.below(4)).map { _ in hostile.value(&c) }
            }
            return call
        case 80..<180:
            let onManager = c.chance(100)
            let path = onManager ? managerPath : alarmPath(for: role)
            let interface = c.pick([managerInterface, alarmInterface, alarmInterface, Contract.propertiesInterface, "org.bogus.Nope", hostile.text(&c)])
            let name = c.pick(Self.managerProperties + Alarm1.propertyNames + ["", "Bogus", hostile.text(&c)])
            switch c.below(4) {
            case 0: return PlannedCall(path: path, interface: Contract.propertiesInterface, member: "GetAll", args: [.string(interface)], label: "Properties.GetAll")
            case 1: return PlannedCall(path: path, interface: Contract.propertiesInterface, member: "Set",
                                       args: [.string(interface), .string(name), .variant(hostile.value(&c))], label: "Properties.Set")
            default: return PlannedCall(path: path, interface: Contract.propertiesInterface, member: "Get", args: [.string(interface), .string(name)], label: "Properties.Get")
            }
        case 180..<220:
            let path = c.pick(["/", "/org", "/org/alarmd", managerPath, alarmPath(for: role),
                               "/" + Array(repeating: "a", count: 100).joined(separator: "/"), "/" + String(repeating: "p", count: 255)])
            return PlannedCall(path: path, interface: "org.freedesktop.DBus.Introspectable", member: "Introspect", label: "Introspect")
        case 220..<240:
            return PlannedCall(path: c.pick([managerPath, managerPath, "/"]), interface: Contract.objectManagerInterface,
                               member: "GetManagedObjects", label: "GetManagedObjects")
        case 240..<250:
            return PlannedCall(interface: "org.freedesktop.DBus.Peer", member: c.pick(["Ping", "GetMachineId"]), label: "Peer")
        case 250..<290:
            switch c.below(4) {
            case 0: return PlannedCall(interface: "org.alarmd.Nope1", member: "Schedule", label: "unknown interface")
            case 1: return PlannedCall(path: "/org/alarmd/Nope", member: "Cancel", args: [.string(id(for: role))], label: "unknown object")
            case 2: return PlannedCall(path: alarmPath(for: role), interface: alarmInterface, member: c.pick(["Cancel", "Stop", "Nope"]),
                                       args: [.string(id(for: role))], label: "alarm object method")
            default: return PlannedCall(member: c.pick(["Nope", "schedule", "SCHEDULE", "Schedule2"]), label: "unknown method")
            }
        default:
            return managerCall(for: role)
        }
    }
}

extension Role {
    var key: String {
        switch self {
        case .app(let a): return a
        case .shell: return ""
        }
    }
}
