// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// The example clients (examples/python, examples/c), built and run by the commands docs/app-developers.md
/// gives, against the real alarmd, as an app's user meets them: each asks for consent, the test
/// clicks Allow on the prompt, and each app's timer rings and is stopped.
@Suite struct ExampleClientTests {
    static let apps = ["org.alarmd.examples.PythonTimer", "org.alarmd.examples.CTimer"]

    @Test func exampleClientsRunAsTheGuideSays() throws {
        let block = try DocumentationTests.docBlock("examples")
        let h = try Harness(notifications: true)
        // A copy of the parts of the repository the block uses: `make -C examples/c` writes its
        // generated code and program there, not into the source tree.
        let root = TempDir("alarmd-examples")
        try FileManager.default.createDirectory(atPath: root.path + "/data", withIntermediateDirectories: true)
        for part in ["examples", "dbus"] {
            try FileManager.default.copyItem(atPath: Products.sourceRoot + "/" + part, toPath: root.path + "/" + part)
        }
        for leftover in ["alarmd-timer", "org.alarmd.AlarmManager1.c", "org.alarmd.AlarmManager1.h", "org.alarmd.Alarm1.c", "org.alarmd.Alarm1.h"] {
            try? FileManager.default.removeItem(atPath: root.path + "/examples/c/" + leftover)
        }
        try writeExecutable("cd '\(root.path)'\nset -e\n" + block, to: root.path + "/run.sh")
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = h.bus.address
        env["CFLAGS"] = "-O2 -Wall -Wextra -Werror -Wno-unused-parameter"   // the example builds without a warning
        let outPath = root.path + "/out", errPath = root.path + "/err"
        let fd = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(fd) }
        let run = try ChildProcess("/bin/bash", [root.path + "/run.sh"], environment: env, stdoutPipe: fd, stderrPath: errPath)

        // The user's part: Allow on each consent prompt, as it comes.
        var allowed: Set<UInt32> = []
        let deadline = Date().addingTimeInterval(120)
        while run.wait(timeout: 0.05) == nil, Date() < deadline {
            for n in (try? h.notifier!.notifications()) ?? [] where n.uint32("closed_reason") == 0 && !allowed.contains(n.uint32("id")) {
                guard case .array(_, let actions)? = n["actions"]?.unwrapped, actions.contains(.string("allow")) else { continue }
                #expect(n.string("body").contains("Rings the example's 3-second timer"), "the usage description: \(n)")
                try h.notifier!.invoke(n.uint32("id"), "allow")
                allowed.insert(n.uint32("id"))
            }
        }
        let status = try #require(run.wait(timeout: 1), "the examples did not finish: \(readText(errPath))")
        let out = readText(outPath)
        #expect(status == 0, "the examples failed (\(status)):\n\(out)\n\(readText(errPath))")
        #expect(allowed.count == 2, "one consent prompt per app")

        // Each prints its four steps, in order (make prints its commands in between).
        let steps = out.split(separator: "\n").filter {
            $0.hasPrefix("authorization: ") || $0.hasPrefix("scheduled ") || $0 == "ringing" || $0.hasPrefix("removed: ")
        }.map { $0.hasPrefix("scheduled /org/alarmd/AlarmManager1/alarm/") ? "scheduled" : String($0) }
        let each = ["authorization: authorized", "scheduled", "ringing", "removed: stopped"]
        #expect(steps == each + each, "\(out)")

        // alarmd's side: each app authorized, its timer rang and was stopped by it, nothing left.
        try h.client.barrier()
        let authorized = try AlarmManagerProxy(bus: h.client.bus).authorizations().map { "\($0.app)=\($0.state?.rawValue ?? "?")" }.sorted()
        #expect(authorized == Self.apps.map { "\($0)=authorized" }.sorted())
        let removed = h.client.signals.named("AlarmRemoved").map { $0.args.compactMap { $0.stringValue } }
        #expect(removed.map { $0.dropFirst().map { $0 } } == Self.apps.map { [$0, "stopped"] })
        for r in removed {
            let path = managerPath + "/alarm/" + r[0].replacingOccurrences(of: "-", with: "_")
            #expect(h.client.signals.contains { $0.path == path && $0.changed["State"]?.unwrapped == .string("alerting") },
                    "\(r[1])'s timer rang")
        }
        #expect(try h.client.alarms().isEmpty)
    }

    /// Where nobody can be asked (no notification server), the example says how to allow it, and
    /// runs once the user has, as docs/app-developers.md says.
    @Test func withoutANotificationServerTheUserAllowsTheExampleBeforehand() throws {
        let h = try Harness()
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = h.bus.address
        let example = Products.sourceRoot + "/examples/python/alarmd-timer.py"
        let refused = try runCommand("/usr/bin/python3", [example], environment: env)
        #expect(refused.status == 1 && refused.out == "authorization: notDetermined\n", "\(refused)")
        #expect(refused.err.contains("alarmctl auth allow org.alarmd.examples.PythonTimer"), "\(refused.err)")
        #expect(try h.client.alarms().isEmpty)
        let allow = try runCommand(Products.alarmctl, ["--address", h.bus.address, "auth", "allow", "org.alarmd.examples.PythonTimer"])
        #expect(allow.status == 0, "\(allow.err)")
        let ran = try runCommand("/usr/bin/python3", [example], environment: env)
        #expect(ran.status == 0 && ran.out.hasSuffix("ringing\nremoved: stopped\n"), "\(ran)")
    }
}
