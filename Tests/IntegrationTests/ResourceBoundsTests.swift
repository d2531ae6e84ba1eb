// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// docs/API.md's limits, over the bus: each refused with its named error, the rest untouched; and
/// arguments of tens of megabytes cost alarmd neither gigabytes nor a reply or log line as big.
@Suite(.serialized) struct ResourceBoundsTests {
    func error(_ body: () throws(BusError) -> Void) -> BusError? { callError(body) }

    @Test func documentedLimitsAreNamedErrors() throws {
        let h = try Harness(config: "[limits]\nmax_alarms_per_app = 3\nmax_alarms_shell = 2\n")
        try h.client.call("SetAuthorization", [.string("org.example.Limited"), .string("authorized")])
        let app = try h.app("org.example.Limited")
        func schedule(_ c: Client, _ extra: [(String, Value)]) -> BusError? {
            error { () throws(BusError) in _ = try c.schedule([("duration", .string("1h"))] + extra) }
        }
        let cases: [(String, [(String, Value)])] = [
            ("title", [("title", .string(String(repeating: "t", count: 257)))]),
            ("subtitle", [("title", .string("T")), ("subtitle", .string(String(repeating: "é", count: 257)))]),
            ("compact_label", [("title", .string("T")), ("compact_label", .string("12345"))]),
            ("completion_message", [("title", .string("T")), ("completion_message", .string(String(repeating: "m", count: 513)))]),
            ("metadata", [("title", .string("T")), ("metadata", .vardict([("blob", .string(String(repeating: "z", count: 4_100)))]))]),
            ("metadata", [("title", .string("T")), ("metadata", .vardict((0..<10_000).map { ("k\($0)", .bool(true)) }))]),
        ]
        for (key, entries) in cases {
            let e = schedule(app, entries)
            #expect(e?.name == Contract.ErrorName.invalidArgument && e?.message.hasPrefix(key + ":") == true, "\(key): \(String(describing: e))")
        }
        // At the limits themselves: accepted.
        #expect(schedule(app, [("title", .string(String(repeating: "t", count: 256))), ("compact_label", .string("1234"))]) == nil)
        #expect(schedule(app, [("title", .string("Two"))]) == nil && schedule(app, [("title", .string("Three"))]) == nil)
        let full = schedule(app, [("title", .string("Four"))])
        #expect(full?.name == Contract.ErrorName.limitReached, "\(String(describing: full))")
        #expect(full?.message.contains("maximum of 3") == true)
        #expect(try h.client.alarms().count == 3, "the refused calls changed nothing")
        // The user's own tools have a limit of their own here.
        #expect(schedule(h.client, [("title", .string("Mine"))]) == nil && schedule(h.client, [("title", .string("Mine 2"))]) == nil)
        #expect(schedule(h.client, [("title", .string("Mine 3"))])?.name == Contract.ErrorName.limitReached)
        // Strings of the other methods.
        let why = error { () throws(BusError) in try app.call("RequestAuthorization", [.string(String(repeating: "w", count: 513))]) }
        #expect(why?.name == Contract.ErrorName.invalidArgument && why?.message.hasPrefix("usage_description:") == true)
        let fresh = try Client(address: h.bus.address)
        let longApp = error { () throws(BusError) in try fresh.call("RegisterApp", [.string("org." + String(repeating: "a", count: 252))]) }
        #expect(longApp?.name == Contract.ErrorName.invalidArgument && longApp?.message.hasPrefix("app_id:") == true)
        #expect(try h.client.alarms().count == 5)
    }

    /// Found while building the bus fuzzer: an app id of 64 MiB of dots took alarmd 7 s and 2.3 GB before it
    /// was refused; an unknown key of megabytes came back as the reply and went into the log whole.
    @Test func hugeArgumentsCostLittle() throws {
        let h = try Harness()
        let pid = h.daemon.process.pid
        func peakKiB() -> Int {
            let line = readText("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
        let peakBefore = peakKiB()
        let fresh = try Client(address: h.bus.address)
        let dots = error { () throws(BusError) in try fresh.call("RegisterApp", [.string(String(repeating: ".", count: 32 << 20))]) }
        #expect(dots?.name == Contract.ErrorName.invalidArgument)
        let grew = peakKiB() - peakBefore
        print("a 32 MiB app id raised alarmd's peak memory by \(grew / 1024) MiB")
        #expect(grew < 512 * 1024, "a 32 MiB argument raised alarmd's peak memory by \(grew / 1024) MiB")

        let logBefore = h.daemon.log.utf8.count
        let key = String(repeating: "k", count: 4 << 20)
        let unknown = error { () throws(BusError) in _ = try h.client.schedule([("duration", .uint32(60)), (key, .string("x"))]) }
        let day = error { () throws(BusError) in
            _ = try h.client.schedule([("title", .string("T")), ("hour", .uint32(7)), ("weekdays", .strings([String(repeating: "monday", count: 500_000)]))])
        }
        for e in [unknown, day] {
            #expect(e?.name == Contract.ErrorName.invalidArgument)
            #expect((e?.message.utf8.count ?? .max) <= 1_100, "the reply quotes at most a kilobyte")
        }
        #expect(h.daemon.log.utf8.count - logBefore < 16_384, "the log quotes at most a kilobyte a line")
        #expect(h.client.nameHasOwner(managerName) && (try? h.client.schedule([("title", .string("Fine")), ("duration", .uint32(60))])) != nil)
    }
}
