// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport

/// What the bus and the kernel say of the alarmd under fuzz: which connection owns its name, its
/// PID, where it keeps its store, how much memory it holds. Every change of the name's owner is
/// recorded: alarmd leaving the bus, even for a moment, is a failure.
final class DaemonWatch {
    let control: Client
    let uniqueName: String
    let pid: pid_t
    let storePath: String
    private(set) var ownerChanges: [String] = []

    init(address: String) throws {
        control = try Client(address: address)
        guard control.nameHasOwner(managerName) else { throw FuzzFailure("no alarmd owns \(managerName) on \(address)") }
        uniqueName = try Self.driver(control, "GetNameOwner", managerName).stringValue ?? ""
        guard case .uint32(let p) = try Self.driver(control, "GetConnectionUnixProcessID", managerName) else {
            throw FuzzFailure("the bus does not say which process alarmd is")
        }
        pid = pid_t(p)
        storePath = try control.property(managerPath, managerInterface, "StorePath").stringValue ?? ""
        try control.bus.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(managerName)'") { [unowned self] m in
            let args = (try? m.readAll()) ?? []
            self.ownerChanges.append(args.count == 3 ? "\(args[1].stringValue ?? "?") → \(args[2].stringValue ?? "?")" : "?")
        }
        _ = control.nameHasOwner(managerName)
    }

    private static func driver(_ c: Client, _ member: String, _ name: String) throws(BusError) -> Value {
        try c.bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", member, [.string(name)]).first ?? .string("")
    }

    /// Resident memory (VmRSS) in KiB; 0 once the process is gone.
    var rssKiB: Int {
        let status = readText("/proc/\(pid)/status")
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
        return 0
    }

    var processAlive: Bool { kill(pid, 0) == 0 && !readText("/proc/\(pid)/stat").contains(") Z ") }

    /// The name's owner now, as the bus says.
    var currentOwner: String {
        (try? Self.driver(control, "GetNameOwner", managerName))?.stringValue ?? ""
    }

    /// Dispatches what arrived on the control connection (owner changes).
    func pump() { control.bus.processPending() }
}
