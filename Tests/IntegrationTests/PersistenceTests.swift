// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus
import TestSupport
import Testing

@Suite(.serialized) struct PersistenceTests {
    /// Everything acknowledged survives `kill -9`: states, countdown deadlines, paused elapsed time,
    /// repeating alarms' next occurrences, authorizations.
    @Test(arguments: [true, false])
    func restartRestoresEverything(kill9: Bool) throws {
        let h = try Harness()
        let c = h.client!
        let now = Int64(Date().timeIntervalSince1970)
        _ = try c.schedule([("title", .string("Counting")), ("duration", .string("1h")), ("warning_threshold", .uint32(60)),
                            ("metadata", .vardict([("recipe", .string("bread")), ("n", .int32(3)),
                                                   ("nested", .vardict([("a", .array(element: "y", [.byte(1), .byte(2)]))]))]))])
        let pausedPath = try c.schedule([("title", .string("Paused")), ("duration", .uint32(600))])
        let repeating = try c.schedule([("title", .string("Weekdays")), ("hour", .uint32(6)), ("minute", .uint32(45)),
                                        ("weekdays", .strings(["monday", "tuesday", "wednesday", "thursday", "friday"]))])
        _ = try c.schedule([("title", .string("Dentist")), ("fixed_date", .int64(now + 86_400)), ("pre_alert", .uint32(900)),
                            ("accent_color", .string("#336699")), ("ring", .bool(true)), ("sound", .string("bell"))])
        let alerting = try c.schedule([("title", .string("Now")), ("duration", .uint32(1))])
        try c.call("SetAuthorization", [.string("org.example.Clock"), .string("denied")])
        // Real time on purpose: countdowns run on the monotonic clock, which the test clock does not move.
        usleep(300_000)
        try c.call("Pause", [.string(AlarmID.id(fromPath: pausedPath)!)])
        #expect(c.waitFor(timeout: 3) { s in s.contains { $0.path == alerting && $0.changed["State"] == .string("alerting") } })
        // The test bus has no sound server: the ring's SoundError follows from the sound thread, and belongs
        // in what is compared (the restarted alarmd rings it again, with the same error).
        #expect(c.waitFor(timeout: 5) { s in s.contains { $0.path == alerting && !($0.changed["SoundError"]?.stringValue ?? "").isEmpty } })

        let before = try c.alarms()
        #expect(before.count == 5)
        let pausedElapsed = uint64(before.first { $0["Id"]?.unwrapped == .string(AlarmID.id(fromPath: pausedPath)!) }?["ElapsedUSec"])
        #expect(pausedElapsed >= 300_000)

        try h.restart(kill9: kill9)
        let after = try h.client.alarms()
        #expect(stable(after) == stable(before))
        #expect(try h.client.call("ListAuthorizations") == [.dict(key: "s", value: "s", [.init(.string("org.example.Clock"), .string("denied"))])])
        #expect(try h.client.property(repeating, alarmInterface, "State") == .string("scheduled"))
        // The restored alarms still work: the repeating one can be cancelled, the paused one resumed.
        try h.client.call("Resume", [.string(AlarmID.id(fromPath: pausedPath)!)])
        let remaining = uint64(try h.client.property(pausedPath, alarmInterface, "RemainingUSec"))
        #expect(remaining <= 600 * usec - pausedElapsed && remaining > 590 * usec)
        #expect(h.daemon.log.contains("5 alarms loaded"))
    }

    /// Bad input of every kind over the bus: a named error naming the key, and the store untouched.
    @Test func badInputChangesNothing() throws {
        let h = try Harness()
        let c = h.client!
        let keep = try c.schedule([("title", .string("Keep")), ("duration", .uint32(900))])
        let keepId = AlarmID.id(fromPath: keep)!
        let before = try c.alarms()
        let long = String(repeating: "x", count: 300)
        let cases: [(String, [(String, Value)], String)] = [
            ("", [("title", .int32(1)), ("duration", .uint32(60))], "title"),
            ("", [("duration", .uint32(60))], "title"),
            ("", [("title", .string("")), ("duration", .uint32(60))], "title"),
            ("", [("title", .string(long)), ("duration", .uint32(60))], "title"),
            ("", [("title", .string("x")), ("duration", .string("0s"))], "duration"),
            ("", [("title", .string("x")), ("duration", .string("1x"))], "duration"),
            ("", [("title", .string("x")), ("hour", .uint32(25))], "hour"),
            ("", [("title", .string("x")), ("duration", .uint32(60)), ("wat", .bool(true))], "wat"),
            ("", [("title", .string("x")), ("duration", .uint32(60)), ("compact_label", .string("abcde"))], "compact_label"),
            ("", [("title", .string("x")), ("duration", .uint32(60)), ("tap_action", .string("javascript:1"))], "tap_action"),
            ("", [("title", .string("x")), ("duration", .uint32(60)), ("metadata", .int32(1))], "metadata"),
            ("", [("title", .string("x")), ("duration", .uint32(60)), ("post_alert", .uint32(0))], "post_alert"),
            ("", [("title", .string("x")), ("duration", .uint32(60)), ("title", .string("y"))], "title"),
            ("not-a-uuid", [("title", .string("x")), ("duration", .uint32(60))], "id"),
        ]
        for (id, entries, key) in cases {
            let e = callError { () throws(BusError) in _ = try c.schedule(entries, id: id) }
            #expect(e?.name == Contract.ErrorName.invalidArgument, "\(entries)")
            #expect(e?.message.hasPrefix("\(key):") == true, "\(key): \(e?.message ?? "accepted")")
        }
        let dup = callError { () throws(BusError) in _ = try c.schedule([("title", .string("x")), ("duration", .uint32(60))], id: keepId) }
        #expect(dup?.name == Contract.ErrorName.alreadyExists)
        let unknown = callError { () throws(BusError) in try c.call("Cancel", [.string(AlarmID.make())]) }
        #expect(unknown?.name == Contract.ErrorName.notFound)
        let malformed = callError { () throws(BusError) in try c.call("Pause", [.string("../../x")]) }
        #expect(malformed?.name == Contract.ErrorName.invalidArgument && malformed?.message.hasPrefix("id:") == true)
        let badUpdate = callError { () throws(BusError) in
            try c.call("Update", [.string(keepId), .vardict([("accent_color", .string("nope"))]), .strings(["subtitle"])])
        }
        #expect(badUpdate?.message.hasPrefix("accent_color:") == true)
        // A call with the wrong signature altogether is refused by the bus layer.
        let wrongSignature = callError { () throws(BusError) in try c.call("Schedule", [.string(""), .int32(3)]) }
        #expect(wrongSignature?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(stable(try c.alarms()) == stable(before))
        try c.barrier()
        #expect(!c.signals.contains { $0.member == "InterfacesAdded" && $0.args.first != .objectPath(keep) })
        try h.restart(kill9: true)
        #expect(stable(try h.client.alarms()) == stable(before), "the store holds exactly what was acknowledged")
    }
}
