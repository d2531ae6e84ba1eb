// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import AlarmDaemon
import Foundation
import SDBus
import TestSupport

/// Valid alarms of an app the fuzzer never speaks as: each call naming them comes from another app
/// (which must get NotFound) or names them by accident. Far enough ahead that nothing of theirs
/// changes with time during a run; snapshotted before and compared after.
final class Victims {
    static let app = "org.fuzz.Victim"
    let client: Client
    private(set) var ids: [String] = []
    private var before: [[String: Value]] = []
    private var objectsBefore: [String: [String: Value]] = [:]

    init(address: String, control: Client) throws {
        try control.call("SetAuthorization", [.string(Self.app), .string("authorized")])
        client = try Client(address: address)
        try client.call("RegisterApp", [.string(Self.app)])
        let now = Int64(Date().timeIntervalSince1970)
        // Wall-clock alarms half a day from now: none of them comes near during a run.
        let far = UInt32((Calendar.current.component(.hour, from: Date()) + 12) % 24)
        let configurations: [[(String, Value)]] = [
            [("title", .string("Tea")), ("duration", .string("26h"))],
            [("title", .string("Bread")), ("duration", .uint32(2 * 86_400)), ("warning_threshold", .uint32(60)),
             ("metadata", .vardict([("recipe", .string("rye")), ("n", .int32(3)), ("nested", .vardict([("a", .array(element: "y", [.byte(1)]))]))]))],
            [("title", .string("Paused pizza 🍕")), ("duration", .string("30h")), ("subtitle", .string("Margherita")), ("accent_color", .string("orange"))],
            [("title", .string("Dentist")), ("fixed_date", .int64(now + 3 * 86_400)), ("pre_alert", .uint32(600)), ("sound", .string("chime"))],
            [("title", .string("Trip")), ("fixed_date", .double(Double(now + 40 * 86_400) + 0.5)), ("tap_action", .string("https://example.org/trip"))],
            [("title", .string("Get up")), ("hour", .uint32(far)), ("minute", .uint32(45)),
             ("weekdays", .strings(["monday", "tuesday", "wednesday", "thursday", "friday"])), ("volume_ramp", .uint32(30))],
            [("title", .string("Sunday")), ("hour", .uint32(far)), ("weekdays", .strings(["sunday"])), ("ring", .bool(false)),
             ("secondary_button", .string("Snooze")), ("secondary_button_behavior", .string("countdown"))],
            [("title", .string("End date")), ("end_date", .int64(now + 5 * 86_400)), ("completion_message", .string("Done!")), ("compact_label", .string("ED"))],
        ]
        for c in configurations {
            ids.append(AlarmID.id(fromPath: try client.schedule(c)) ?? "")
        }
        ids.append(AlarmID.id(fromPath: try client.schedule([("title", .string("Mine")), ("duration", .string("25h"))], id: AlarmID.make())) ?? "")
        // Timers paused: their state must stay frozen however the run goes.
        try client.call("Pause", [.string(ids[2])])
        try client.call("Pause", [.string(ids[0])])
        before = try snapshot()
        objectsBefore = try objects()
    }

    /// Every property of every victim alarm, without those computed from the clock, by id.
    func snapshot() throws(BusError) -> [[String: Value]] {
        try client.alarms().map { $0.filter { !Alarm1.computedProperties.contains($0.key) } }
            .sorted { ($0["Id"]?.stringValue ?? "") < ($1["Id"]?.stringValue ?? "") }
    }

    /// The same, through each alarm object's properties.
    private func objects() throws(BusError) -> [String: [String: Value]] {
        var out: [String: [String: Value]] = [:]
        for id in ids { out[id] = try client.allProperties(AlarmID.path(of: id)).filter { !Alarm1.computedProperties.contains($0.key) } }
        return out
    }

    /// What changed about the victim's alarms since the snapshot; empty when nothing did.
    func changes() -> [String] {
        do {
            let after = try snapshot()
            var out: [String] = []
            if after.count != before.count { out.append("the victim has \(after.count) alarms, had \(before.count)") }
            for (a, b) in zip(before, after) where a != b {
                let keys = Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
                out.append("victim alarm \(a["Id"]?.stringValue ?? "?") changed: \(keys.joined(separator: ", "))")
            }
            let objectsAfter = try objects()
            for id in ids where objectsAfter[id] != objectsBefore[id] { out.append("victim object \(id) reads differently") }
            return out
        } catch {
            return ["the victim's alarms cannot be read: \(error)"]
        }
    }
}
