// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus
import TestSupport
import Testing

/// What a hostile or careless client can send through dbus-daemon: every call gets an answer with a
/// valid error name, changes nothing, and alarmd stays on the bus for everyone else.
@Suite(.serialized) struct HostileInputTests {
    /// Strings dbus-daemon delivers but sd-bus refuses to read: Unicode noncharacters.
    static let noncharacters = ["a\(nc(0xFDDC))b", "\(nc(0xFDD0))", "x\(nc(0xFFFE))", "\(nc(0xFFFF))", "\(nc(0x1FFFE))", "\(nc(0x10FFFF))"]

    /// gdbus (GLib) sends noncharacters as the specification allows; sd-bus clients cannot.
    func gdbus(_ h: Harness, _ method: String, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try runCommand("/usr/bin/gdbus", ["call", "--address", h.bus.address, "--dest", managerName, "--object-path", managerPath,
                                          "--method", "\(managerInterface).\(method)"] + args)
    }

    /// The GVariant text form of a string, with every non-ASCII scalar escaped.
    static func gvariant(_ s: String) -> String {
        "'" + s.unicodeScalars.map { $0.isASCII ? String($0) : String(format: "\\U%08x", $0.value) }.joined() + "'"
    }

    @Test func noncharactersAreRefusedAndTheDaemonStays() throws {
        let h = try Harness()
        let kept = try h.client.schedule([("title", .string("Kept")), ("duration", .string("1h")), ("metadata", .vardict([("k", .string("v"))]))])
        let keptId = try #require(AlarmID.id(fromPath: kept))
        let before = stable(try h.client.alarms())
        for bad in Self.noncharacters {
            let s = Self.gvariant(bad)
            let calls: [(String, [String])] = [
                ("Schedule", ["''", "{'title': <\(s)>, 'duration': <uint32 60>}"]),
                ("Schedule", ["\(s)", "{'title': <'t'>, 'duration': <uint32 60>}"]),
                ("Schedule", ["''", "{\(s): <'t'>, 'duration': <uint32 60>}"]),
                ("Schedule", ["''", "{'title': <'t'>, 'duration': <uint32 60>, 'metadata': <{'k': <[\(s)]>}>}"]),
                ("Update", ["'\(keptId)'", "{'title': <\(s)>}", "@as []"]),
                ("Update", ["'\(keptId)'", "@a{sv} {}", "[\(s)]"]),
                ("Cancel", [s]), ("Stop", [s]), ("Pause", [s]),
                ("RegisterApp", [s]),
                ("RequestAuthorization", [s]),
                ("SetAuthorization", [s, "'denied'"]),
            ]
            for (method, args) in calls {
                let r = try gdbus(h, method, args)
                #expect(r.status != 0, "\(method) \(args) was accepted")
                #expect(r.err.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(method) \(args): \(r.err)")
                #expect(r.err.contains("noncharacters"), "the error says what was wrong: \(r.err)")
            }
            // The positive control in the same window: alarmd still answers, and acts.
            #expect(h.client.nameHasOwner(managerName), "alarmd left the bus after \(bad.unicodeScalars.map { String($0.value, radix: 16) })")
            let r = try gdbus(h, "Schedule", ["''", "{'title': <'fine'>, 'duration': <uint32 60>}"])
            #expect(r.status == 0, "a valid call after the hostile ones: \(r.err)")
            let ok = try #require(r.out.split(separator: "'").dropFirst().first.map(String.init))
            try h.client.call("Cancel", [.string(AlarmID.id(fromPath: ok) ?? "")])
        }
        #expect(stable(try h.client.alarms()) == before, "no refused call changed anything")
        #expect(try h.client.call("ListAuthorizations") == [.dict(key: "s", value: "s", [])])
    }

    @Test func wrongSignaturesGetInvalidArgs() throws {
        let h = try Harness()
        let cases: [[String]] = [
            ["Schedule", "int32:5"],
            ["Schedule", "string:", "string:title"],
            ["Cancel"],
            ["GetAlarmsPage", "string:", "string:5"],
            ["Update", "string:x", "array:string:a,b", "array:string:title"],
        ]
        for c in cases {
            // --session rather than --address: with --address, dbus-send never says Hello and hears no reply.
            var env = ProcessInfo.processInfo.environment
            env["DBUS_SESSION_BUS_ADDRESS"] = h.bus.address
            let r = try runCommand("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=\(managerName)",
                                                          managerPath, "\(managerInterface).\(c[0])"] + c.dropFirst(), environment: env)
            #expect(r.status != 0)
            #expect(r.err.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(c): \(r.err)")
            #expect(h.client.nameHasOwner(managerName))
        }
        #expect(try h.client.alarms().isEmpty)
    }

    @Test func everyErrorNameThatLeavesTheDaemonIsValid() throws {
        let h = try Harness()
        var names: [String] = []
        func record(_ body: () throws(BusError) -> Void) {
            if let e = callError(body) { names.append(e.name) }
        }
        record { () throws(BusError) in try h.client.call("Cancel", [.string("nope")]) }
        record { () throws(BusError) in try h.client.call("Cancel", [.string(AlarmID.make())]) }
        record { () throws(BusError) in _ = try h.client.schedule([("title", .string("x"))]) }
        record { () throws(BusError) in _ = try h.client.schedule([("bogus", .string("x")), ("duration", .uint32(1))]) }
        record { () throws(BusError) in try h.client.call("RequestAuthorization", [.string("")]) }
        record { () throws(BusError) in try h.client.call("SetAuthorization", [.string("org.example.X"), .string("maybe")]) }
        record { () throws(BusError) in try h.client.call("GetAlarmsPage", [.string("not-an-id"), .uint32(1)]) }
        record { () throws(BusError) in _ = try h.client.property("/org/alarmd/AlarmManager1/alarm/x", alarmInterface, "State") }
        record { () throws(BusError) in
            try h.client.bus.call(managerName, managerPath, "org.freedesktop.DBus.Properties", "Get", [.string(managerInterface), .string("Nope")])
        }
        #expect(names.count == 9, "every call above is refused: \(names)")
        for n in names { #expect(BusError.isValidName(n), "invalid error name \(n)") }
        #expect(names.contains(Contract.ErrorName.invalidArgument) && names.contains(Contract.ErrorName.notFound))
    }

    @Test func repliesTooLargeForOneMessageAreRefusedAndPagesCoverEverything() throws {
        // About 1.3 KB an alarm: 7 fit in a page, 20 do not fit in one reply.
        let h = try Harness(extraArgs: ["--max-reply-bytes", "12000"])
        var ids: [String] = []
        for i in 0..<20 {
            let p = try h.client.schedule([("title", .string("Alarm \(i)")), ("duration", .string("\(i + 1)h"))])
            ids.append(try #require(AlarmID.id(fromPath: p)))
        }
        let e = callError { () throws(BusError) in _ = try h.client.alarms() }
        #expect(e?.name == "org.freedesktop.DBus.Error.LimitsExceeded")
        #expect(e?.message.contains("GetAlarmsPage") == true, "the error says how to page: \(e?.message ?? "")")
        let m = callError { () throws(BusError) in
            try h.client.bus.call(managerName, managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        }
        #expect(m?.name == "org.freedesktop.DBus.Error.LimitsExceeded")
        #expect(m?.message.contains("GetAlarmsPage") == true)
        #expect(h.client.nameHasOwner(managerName), "refusing kept alarmd on the bus")

        var seen: [String] = [], after = "", pages = 0
        repeat {
            let r = try h.client.call("GetAlarmsPage", [.string(after), .uint32(7)])
            guard r.count == 2, case .array(_, let items) = r[0], case .string(let next) = r[1] else {
                Issue.record("bad page \(r)"); break
            }
            #expect(items.count <= 7)
            seen += items.compactMap { Dictionary($0.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })["Id"]?.stringValue }
            after = next
            pages += 1
        } while !after.isEmpty && pages < 10
        #expect(pages == 3)
        #expect(seen == ids.sorted(), "every alarm once, in id order")

        // A page never outgrows the limit either: max_count 0 means "as many as fit".
        let big = try h.client.call("GetAlarmsPage", [.string(""), .uint32(0)])
        if case .array(_, let items)? = big.first { #expect(items.count > 0 && items.count < 20) }
        #expect(big.last != .string(""), "more remain after a page cut by size")
    }

    @Test func textFromElsewhereIsMadeSendable() throws {
        // A desktop file may name the app with a noncharacter; the prompt must still reach the user.
        let entry = "[Desktop Entry]\nType=Application\nName=Evil\(nc(0xFDDC))Clock\nExec=evil\n"
        let h = try Harness(notifications: true, desktopEntries: ["org.example.Evil": entry])
        let app = try h.app("org.example.Evil")
        let pending = try app.callAsync("RequestAuthorization", [.string("Timers")])
        let shown = try #require(h.notifier!.waitFor(pump: [app]) { $0.count == 1 })
        #expect(shown[0].string("summary").contains("Evil\u{FFFD}Clock"), "\(shown[0].string("summary"))")
        try h.notifier!.invoke(shown[0].uint32("id"), "allow")
        #expect(app.wait(for: pending))
        #expect(pending.values == [.string("authorized")])
    }
}

/// A noncharacter as a string: Swift refuses them in literals.
private func nc(_ v: UInt32) -> String { String(Unicode.Scalar(v)!) }
