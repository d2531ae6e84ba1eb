// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus

/// The environment part of a systemd user manager (`systemd --user`) on the session bus, where it owns
/// `org.freedesktop.systemd1`: `org.freedesktop.systemd1.Manager` at `/org/freedesktop/systemd1` with
/// its `Environment` property (`as`, declared without change signals, as systemd's
/// src/core/dbus-manager.c declares it) and the three calls that change it, as startplasma (through
/// `dbus-update-activation-environment --systemd`) and `systemctl --user import-environment` call them.
///
/// As in systemd, `Environment` is the manager's own environment at start (here: this process's, as
/// the test started it) overridden by what clients set; `SetEnvironment` merges assignments into the
/// clients' part, `UnsetEnvironment` removes names (or exact assignments) from that part only,
/// `UnsetAndSetEnvironment` does both; each refuses what systemd refuses (a name not of letters,
/// digits and `_` or starting with a digit, a value with a control character but tab and newline, a
/// name twice in one call) with `InvalidArgs`, changing nothing.
///
/// Why a stand-in: a real user manager exposes its API only on the bus its own `dbus.socket` and
/// `dbus.service` serve (`manager_dbus_is_running()` in src/core/manager.c), never on the private
/// bus a test starts. `org.alarmd.TestSystemdManager.EnvironmentReads` counts the reads of
/// `Environment` (Get and GetAll).
final class FakeSystemdManager: BusObject {
    private var initial: [(String, String)]
    private var client: [(String, String)] = []
    private var reads: UInt32 = 0

    init(initial: [(String, String)]) { self.initial = initial }

    /// The manager's effective environment, `NAME=value`: its own, then the clients', a later name replacing an earlier.
    var environment: [String] {
        var merged = initial
        for (name, value) in client {
            merged.removeAll { $0.0 == name }
            merged.append((name, value))
        }
        return merged.map { "\($0.0)=\($0.1)" }
    }

    static func nameIsValid(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { b in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
        }
    }

    static func valueIsValid(_ value: Substring) -> Bool {
        value.unicodeScalars.allSatisfy { s in s == "\t" || s == "\n" || !(s.value < 0x20 || s.value == 0x7f) }
    }

    /// `NAME=value` entries as systemd's strv_env_is_valid() accepts them: each valid, no name twice.
    static func assignments(_ entries: [String]) -> [(String, String)]? {
        var out: [(String, String)] = []
        for entry in entries {
            guard let eq = entry.firstIndex(of: "="), nameIsValid(entry[..<eq]), valueIsValid(entry[entry.index(after: eq)...]),
                  !out.contains(where: { $0.0 == entry[..<eq] }) else { return nil }
            out.append((String(entry[..<eq]), String(entry[entry.index(after: eq)...])))
        }
        return out
    }

    /// Names or exact assignments to unset, as strv_env_name_or_assignment_is_valid() accepts them.
    static func unsetting(_ entries: [String]) -> [String]? {
        var names: [String] = []
        for entry in entries {
            let name = entry.firstIndex(of: "=").map { entry[..<$0] } ?? Substring(entry)
            guard nameIsValid(name), entry.firstIndex(of: "=").map({ valueIsValid(entry[entry.index(after: $0)...]) }) ?? true,
                  !names.contains(String(name)) else { return nil }
            names.append(String(name))
        }
        return names
    }

    private func modify(_ call: MethodCall, unset: Bool, set: Bool) throws(BusError) -> MethodResult {
        func strings(_ v: Value?) -> [String]? {
            guard case .array("s", let items)? = v else { return nil }
            return items.compactMap(\.stringValue)
        }
        var index = 0
        var minus: [String] = []
        var plus: [(String, String)] = []
        if unset {
            guard let given = strings(call.args.first), let names = FakeSystemdManager.unsetting(given) else {
                throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "Invalid environment variable names or assignments")
            }
            minus = names
            index = 1
        }
        if set {
            guard let given = strings(call.args.count > index ? call.args[index] : nil), let assignments = FakeSystemdManager.assignments(given) else {
                throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "Invalid environment assignments")
            }
            plus = assignments
        }
        client.removeAll { entry in minus.contains(entry.0) }
        for (name, value) in plus {
            client.removeAll { $0.0 == name }
            client.append((name, value))
        }
        return .reply([])
    }

    static let manager = Interface<FakeSystemdManager>("org.freedesktop.systemd1.Manager", methods: [
        .init("SetEnvironment", in: [("assignments", "as")]) { peer, call throws(BusError) in
            try peer.modify(call, unset: false, set: true)
        },
        .init("UnsetEnvironment", in: [("names", "as")]) { peer, call throws(BusError) in
            try peer.modify(call, unset: true, set: false)
        },
        .init("UnsetAndSetEnvironment", in: [("names", "as"), ("assignments", "as")]) { peer, call throws(BusError) in
            try peer.modify(call, unset: true, set: true)
        },
    ], properties: [
        // Flags 0 in systemd: no PropertiesChanged for it; a client reads it when it needs it.
        .init("Environment", "as", .computed) { peer, _ in
            peer.reads += 1
            return .strings(peer.environment)
        },
    ])

    static let control = Interface<FakeSystemdManager>("org.alarmd.TestSystemdManager", methods: [
        .init("EnvironmentReads", out: [("count", "u")]) { peer, _ throws(BusError) in .reply([.uint32(peer.reads)]) },
    ])

    /// Serves the manager with this process's environment as its own (as `systemd --user` starts with its own).
    static func serve(on bus: Bus) throws(BusError) -> FakeSystemdManager {
        var own: [(String, String)] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let eq = text.firstIndex(of: "="), !own.contains(where: { $0.0 == text[..<eq] }) {
                own.append((String(text[..<eq]), String(text[text.index(after: eq)...])))
            }
            entry += 1
        }
        let peer = FakeSystemdManager(initial: own)
        try bus.export(peer, path: "/org/freedesktop/systemd1", manager)
        try bus.export(peer, path: "/org/freedesktop/systemd1", control)
        try bus.requestName("org.freedesktop.systemd1")
        return peer
    }
}
