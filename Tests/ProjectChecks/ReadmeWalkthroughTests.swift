// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus
import TestSupport
import Testing

/// The `busctl` walk-through of docs/app-developers.md, pasted whole into a shell where alarmd runs,
/// and then in the same shell its countdown-activity block (which uses the walk-through's `$M`): every
/// command succeeds in order, and they leave, remove and authorize what they say they do.
@Suite struct ReadmeWalkthroughTests {
    @Test func busctlWalkthroughRunsAsPasted() throws {
        let block = try DocumentationTests.docBlock("busctl-walkthrough") + DocumentationTests.docBlock("countdown-activity")
        let h = try Harness()
        let dir = TempDir("alarmd-walkthrough")
        // `set -e`: the first command that fails ends the run with its status; `-x` traces every
        // command run, so the test can count them.
        try writeExecutable("set -e\n" + block, to: dir.path + "/walkthrough.sh")
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = h.bus.address   // what busctl --user reaches
        env["LC_ALL"] = "C.UTF-8"
        let r = try runCommand("/bin/bash", ["-x", dir.path + "/walkthrough.sh"], environment: env)
        let tail = r.err.split(separator: "\n").suffix(6).joined(separator: "\n")
        try #require(r.status == 0, "the walk-through stopped with status \(r.status):\n\(tail)")

        // Every `busctl --user call` line of the block ran (none was skipped), in order.
        let written = block.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
            .filter { $0.hasPrefix("busctl --user call ") }
            .map { $0.split(separator: " ", maxSplits: 5)[4].description }   // the method, after `call $M`
        let ran = r.err.split(separator: "\n").filter { $0.hasPrefix("+ busctl --user call ") }
            .map { $0.split(separator: " ")[7].description }               // after the expanded $M
        #expect(written.count >= 15)
        #expect(ran == written, "ran \(ran)\nwritten \(written)")
        #expect(r.out.contains(#"o "/org/alarmd/AlarmManager1/alarm/3f8f8e00_a75c_4163_9b08_b277213fb980""#))
        #expect(r.out.contains(#"a{ss} 1 "org.example.Clock" "authorized""#), "\(r.out)")

        // What they leave: the Pizza timer of each, counting down its new 30 minutes, and the weekday alarm.
        let pizza = "3f8f8e00-a75c-4163-9b08-b277213fb980", dentist = "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77"
        let tea = "7c1e0b52-2f1a-4d3e-9a55-0d7f3c8b2e61", activity = "5e7a4c1d-93b0-4f6e-8a21-c4d2e9f07b13"
        let alarms = try h.client.alarms()
        #expect(alarms.count == 3)
        let left = Dictionary(alarms.map { (($0["Id"]?.unwrapped.stringValue ?? ""), $0) }, uniquingKeysWith: { a, _ in a })
        for id in [pizza, activity] {
            let timer = try #require(left[id])
            #expect(timer["State"]?.unwrapped == .string("countdown"))
            #expect(uint64(timer["CountdownTotalUSec"]) == 1800 * usec)
        }
        let presentation = Dictionary(left[activity]?["Presentation"]?.unwrapped.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
        #expect(presentation["icon"]?.unwrapped == .string("flame") && presentation["completion_message"]?.unwrapped == .string("Done baking!"))
        let getUp = try #require(left.values.first { ![pizza, activity].contains($0["Id"]?.unwrapped.stringValue ?? "") })
        #expect(getUp["Kind"]?.unwrapped == .string("alarm"))
        // Scheduled; counting down its 10 minutes, or even ringing, when the test runs at 06:35–06:45 on a weekday.
        #expect([.string("scheduled"), .string("countdown"), .string("alerting")].contains(getUp["State"]?.unwrapped))

        // What it did on the way, as a subscriber saw it.
        try h.client.barrier()
        let signals = h.client.signals
        func states(_ id: String) -> [String] {
            let path = managerPath + "/alarm/" + id.replacingOccurrences(of: "-", with: "_")
            return signals.filter { $0.member == "PropertiesChanged" && $0.path == path }.compactMap { $0.changed["State"]?.unwrapped.stringValue }
        }
        #expect(states(pizza) == ["paused", "countdown"], "Pause then Resume of the timer")
        #expect(states(tea) == ["alerting", "countdown", "alerting"], "the short timer rang, was snoozed and rang again")
        let dentistPath = managerPath + "/alarm/" + dentist.replacingOccurrences(of: "-", with: "_")
        let switched = signals.filter { $0.path == dentistPath }.compactMap { $0.changed["Enabled"]?.unwrapped }
        #expect(switched == [.bool(false), .bool(true)], "the dentist's alarm was switched off and on")
        let removed = signals.named("AlarmRemoved").map { $0.args.compactMap { $0.stringValue } }
        #expect(removed == [[dentist, "", "cancelled"], [tea, "", "stopped"]])
        #expect(try h.client.call("ListAuthorizations") == [.dict(key: "s", value: "s", [.init(.string("org.example.Clock"), .string("authorized"))])])
    }
}
