// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CrashModel
import SDBus
import TestSupport

/// One client: its own connection, registered as its own app, so the alarms it sees are the ones
/// it made; its calls go out asynchronously, several at a time.
final class ClientConnection {
    let index: Int
    let app: String
    let bus: Bus
    private(set) var inFlight = 0

    init(index: Int, address: String) throws {
        self.index = index
        app = "org.alarmd.crash.Client\(index)"
        bus = try Bus.connect(address: address)
    }

    /// Each run of alarmd learns the app of a connection anew.
    func register() throws(BusError) {
        try bus.call(managerName, managerPath, managerInterface, "RegisterApp", [.string(app)])
    }

    /// Sends `op`; `answered` gets its reply or error when it comes.
    func send(_ op: Call, _ answered: @escaping (Message) -> Void) throws(BusError) {
        inFlight += 1
        try bus.callAsync(managerName, managerPath, managerInterface, op.member, op.arguments, timeoutUSec: 60_000_000) { [unowned self] m in
            inFlight -= 1
            answered(m)
        }
    }

    /// The client's alarms as the store holds them.
    func alarms() throws(BusError) -> [String: [String: Value]] {
        Observed.alarms(try bus.call(managerName, managerPath, managerInterface, "GetAlarms"))
    }
}
