// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import AlarmDaemon
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// `alarmd-fuzz-bus` at the suite's size against the real alarmd on a private bus (docs/fuzzing.md;
/// `make fuzz-bus` is the 100,000-call run): afterwards alarmd is the same process on the same
/// connection, the victim app's alarms are unchanged, the store passes integrity_check and holds
/// what alarmd shows, memory did not grow after warm-up, and every alarm survives a restart.
@Suite(.serialized) struct BusFuzzTests {
    /// Every alarm of every app that time will leave alone for `margin` seconds, by id.
    func settled(_ c: Client, margin: UInt64) throws -> [String: [String: Value]] {
        let horizon = SystemClock().now() + margin * usecPerSecond
        let r = try c.call("GetAlarmsPage", [.string(""), .uint32(10_000)])
        guard case .array(_, let items)? = r.first else { return [:] }
        var out: [String: [String: Value]] = [:]
        for item in items {
            let p = Dictionary(item.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
            guard let id = p["Id"]?.stringValue, p["State"]?.stringValue != "alerting" else { continue }
            if case .uint64(let fire)? = p["FireTimeUSec"], fire != 0, fire <= horizon { continue }
            out[id] = p.filter { !Alarm1.computedProperties.contains($0.key) }
        }
        return out
    }

    @Test func hostileCallsLeaveAlarmdItsAlarmsAndItsStoreIntact() throws {
        let seed = ProcessInfo.processInfo.environment["ALARMD_TEST_SEED"] ?? "20251201"
        print("hostileCallsLeaveAlarmdItsAlarmsAndItsStoreIntact: seed \(seed) (ALARMD_TEST_SEED=\(seed) replays it)")
        let h = try Harness()
        let pid = h.daemon.process.pid
        // Under a sanitizer alarmd is sanitized too, and its allocator keeps what was freed in
        // quarantine: its memory says nothing about leaks there.
        let sanitized = dlsym(nil, "__asan_init") != nil
            || dlsym(nil, "__tsan_init") != nil
        let r = try runCommand(Products.tool("alarmd-fuzz-bus"),
                               ["--address", h.bus.address, "--calls", "3000", "--seed", seed, "--huge-bytes", "1048576"]
                                + (sanitized ? [] : ["--rss-growth-kib", "4096"]), timeout: 120)
        print(r.out)
        #expect(r.status == 0, "alarmd-fuzz-bus failed:\n\(r.out)\n\(r.err)\nalarmd's log ends:\n\(h.daemon.log.suffix(3_000))")
        #expect(r.out.contains("victims: 9 alarms of org.fuzz.Victim, unchanged"))
        #expect(r.out.contains("store: integrity_check ok"))
        // Checked here too, not only by the tool: the same alarmd, on the bus, answering.
        #expect(kill(pid, 0) == 0 && !readText("/proc/\(pid)/stat").contains(") Z "), "alarmd is gone")
        #expect(h.client.nameHasOwner(managerName))
        #expect(!h.client.signals.contains { $0.member == "NameOwnerChanged" })

        // Through the store and back: nothing the run left is lost or altered by a restart.
        // The victims ring half a day away or later, whatever the weekday: all of them are here.
        let before = try settled(h.client, margin: 120)
        var victims: [String] = []
        if case .array(_, let items)? = try h.client.call("GetAlarmsPage", [.string(""), .uint32(10_000)]).first {
            for item in items {
                let p = Dictionary(item.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
                if p["AppId"]?.stringValue == "org.fuzz.Victim", let id = p["Id"]?.stringValue { victims.append(id) }
            }
        }
        #expect(victims.count == 9, "the victim's alarms are listed")
        #expect(Set(victims).subtracting(before.keys).isEmpty, "every victim alarm is settled: \(before.count) of \(victims.count)")
        try h.restart(kill9: false)
        let after = try settled(h.client, margin: 0)
        #expect(Set(before.keys).subtracting(after.keys).isEmpty, "alarms lost through a restart")
        for (id, props) in before where after[id] != nil { #expect(after[id] == props, "\(id) changed through a restart") }
    }
}
