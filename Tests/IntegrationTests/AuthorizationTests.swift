// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus
import TestSupport
import Testing

/// RequestAuthorization over a real bus, with a notification server that speaks the published protocol.
@Suite(.serialized) struct AuthorizationTests {
    static let clockEntry = """
        [Desktop Entry]
        Type=Application
        Name=Example Clock
        Name[de]=Beispieluhr
        Icon=org.example.Clock
        Exec=example-clock
        """

    func promptHarness(config: String? = nil) throws -> Harness {
        try Harness(config: config, notifications: true, desktopEntries: ["org.example.Clock": Self.clockEntry])
    }

    @Test func allowAuthorizesAndAnswersTheCaller() throws {
        let h = try promptHarness()
        let app = try h.app("org.example.Clock")
        let pending = try app.callAsync("RequestAuthorization", [.string("Rings your kitchen timers & <alarms>")])
        let shown = try #require(h.notifier!.waitFor(pump: [app]) { $0.count == 1 })
        let n = shown[0]
        #expect(n.string("summary").contains("Example Clock"), "the app's display name from its desktop file")
        #expect(n.string("body").contains("Rings your kitchen timers &amp; &lt;alarms&gt;"), "the usage description, escaped")
        #expect(n["actions"]?.unwrapped == .strings(["allow", "Allow", "deny", "Don't Allow"]))
        #expect(n.string("icon") == "org.example.Clock")
        #expect(!pending.done, "the caller waits for the user")
        try h.notifier!.invoke(n.uint32("id"), "allow")
        #expect(app.wait(for: pending))
        #expect(pending.values == [.string("authorized")])
        #expect(try app.call("GetAuthorizationState") == [.string("authorized")])
        #expect(h.client.waitFor { $0.contains { $0.member == "AuthorizationChanged" && $0.args == [.string("org.example.Clock"), .string("authorized")] } })
        _ = try app.schedule([("title", .string("Tea")), ("duration", .uint32(60))])
        // Asking again does not prompt again.
        #expect(try app.call("RequestAuthorization", [.string("again")]) == [.string("authorized")])
        #expect(try h.notifier!.notifications().count == 1)
        #expect(try h.notifier!.notifications()[0].uint32("closed_reason") != 0, "the prompt is gone")
    }

    @Test func dontAllowDenies() throws {
        let h = try promptHarness()
        let app = try h.app("org.example.Clock")
        let pending = try app.callAsync("RequestAuthorization", [.string("Timers")])
        let n = try #require(h.notifier!.waitFor(pump: [app]) { $0.count == 1 })[0]
        try h.notifier!.invoke(n.uint32("id"), "deny")
        #expect(app.wait(for: pending))
        #expect(pending.values == [.string("denied")])
        let e = callError { () throws(BusError) in _ = try app.schedule([("title", .string("x")), ("duration", .uint32(60))]) }
        #expect(e?.name == Contract.ErrorName.notAuthorized)
        // Positive control in the same window: another app's request does bring a prompt.
        let other = try h.app("org.example.Other")
        _ = try other.callAsync("RequestAuthorization", [.string("Timers")])
        let now = try #require(h.notifier!.waitFor(pump: [app, other]) { $0.count == 2 })
        #expect(now.filter { $0.string("summary").contains("Example Clock") }.count == 1, "a denied app is not asked about again")
        #expect(try h.client.call("ListAuthorizations") == [.dict(key: "s", value: "s", [.init(.string("org.example.Clock"), .string("denied"))])])
    }

    @Test func closingThePromptLeavesItUndecided() throws {
        let h = try promptHarness()
        let app = try h.app("org.example.Clock")
        let pending = try app.callAsync("RequestAuthorization", [.string("Timers")])
        let n = try #require(h.notifier!.waitFor(pump: [app]) { $0.count == 1 })[0]
        try h.notifier!.dismiss(n.uint32("id"))
        #expect(app.wait(for: pending))
        #expect(pending.values == [.string("notDetermined")])
        #expect(try h.client.call("ListAuthorizations") == [.dict(key: "s", value: "s", [])], "nothing was decided")
        // The next request asks anew.
        let again = try app.callAsync("RequestAuthorization", [.string("Timers")])
        #expect(h.notifier!.waitFor(pump: [app]) { $0.count == 2 } != nil)
        #expect(!again.done)
    }

    @Test func unansweredPromptTimesOut() throws {
        let h = try promptHarness(config: "[authorization]\nprompt_timeout = 1\n")
        let app = try h.app("org.example.Clock")
        let start = Date()
        let pending = try app.callAsync("RequestAuthorization", [.string("Timers")])
        #expect(app.wait(for: pending, timeout: 5))
        let waited = Date().timeIntervalSince(start)
        #expect(pending.values == [.string("notDetermined")])
        #expect(waited >= 0.9, "answered after the prompt timeout, not before (\(waited) s)")
        let n = try #require(h.notifier!.waitFor { $0.count == 1 && $0[0].uint32("closed_reason") != 0 })[0]
        #expect(n.uint32("closed_reason") == 3 && n.uint32("close_calls") == 1, "alarmd withdrew its prompt")
    }

    @Test func concurrentRequestsShareOnePrompt() throws {
        let h = try promptHarness()
        let first = try h.app("org.example.Clock"), second = try h.app("org.example.Clock")
        let p1 = try first.callAsync("RequestAuthorization", [.string("Timers")])
        let p2 = try second.callAsync("RequestAuthorization", [.string("Timers")])
        let p3 = try first.callAsync("RequestAuthorization", [.string("Timers")])
        let shown = try #require(h.notifier!.waitFor(pump: [first, second]) { $0.count == 1 })
        // Positive control in the same window: a request from another app, sent after all three,
        // does bring a prompt of its own.
        let other = try h.app("org.example.Other")
        _ = try other.callAsync("RequestAuthorization", [.string("Timers")])
        let all = try #require(h.notifier!.waitFor(pump: [first, second, other]) { $0.count == 2 })
        #expect(all.filter { $0.string("summary").contains("Example Clock") }.count == 1, "one prompt for one app")
        try h.notifier!.invoke(shown[0].uint32("id"), "allow")
        #expect(first.wait(for: p1) && second.wait(for: p2) && first.wait(for: p3))
        #expect([p1, p2, p3].map(\.values) == Array(repeating: [.string("authorized")], count: 3))
    }

    /// AlarmKit: the first Schedule of an undecided app asks the user and waits for the answer.
    /// Concurrent Schedules share the prompt; Allow schedules every one of them, in order.
    @Test func aFirstScheduleAsksAndWaitsForTheAnswer() throws {
        let h = try promptHarness()
        let app = try h.app("org.example.Clock"), other = try h.app("org.example.Clock")
        let tea = try app.callAsync("Schedule", [.string(""), .vardict([("title", .string("Tea")), ("duration", .uint32(600))])])
        let eggs = try other.callAsync("Schedule", [.string(""), .vardict([("title", .string("Eggs")), ("duration", .uint32(300))])])
        let n = try #require(h.notifier!.waitFor(pump: [app, other]) { $0.count == 1 })[0]
        #expect(n.string("summary").contains("Example Clock"))
        // Both wait: nothing is scheduled, nothing answered, while the prompt is open.
        #expect(try h.client.alarms().isEmpty)
        #expect(!tea.done && !eggs.done)
        // A bad configuration is refused at once, without a second prompt, while the others wait.
        let bad = callError { () throws(BusError) in _ = try app.schedule([("title", .string("x")), ("duration", .string("soon"))]) }
        #expect(bad?.name == Contract.ErrorName.invalidArgument && bad?.message.hasPrefix("duration:") == true, "\(bad?.description ?? "")")
        try h.notifier!.invoke(n.uint32("id"), "allow")
        #expect(app.wait(for: tea) && other.wait(for: eggs))
        let paths = [tea, eggs].compactMap { $0.values?.first }.compactMap { v -> String? in
            if case .objectPath(let p) = v { return p } else { return nil }
        }
        #expect(paths.count == 2, "\([tea, eggs].map(\.values)) \([tea, eggs].map(\.error))")
        let titles = try h.client.alarms().compactMap { $0["Presentation"]?.unwrapped.vardictEntries?.first { $0.0 == "title" }?.1.unwrapped.stringValue }
        #expect(Set(titles) == ["Tea", "Eggs"], "\(titles)")
        #expect(try h.notifier!.notifications().count == 1, "one prompt for all of it")
    }

    /// An undecided app cannot make alarmd hold its calls (and the sound files they hand over) without
    /// bound while the prompt shows: past `max_waiting_calls` its calls are LimitReached at once,
    /// while those that wait go through when the user allows it.
    @Test func anUndecidedAppMayKeepOnlySoManyCallsWaiting() throws {
        let h = try promptHarness(config: "[limits]\nmax_waiting_calls = 3\n")
        let app = try h.app("org.example.Clock"), again = try h.app("org.example.Clock")
        let files = TempDir("alarmd-sound-files")
        let sound = try soundFile(SoundFiles.wav(), "a.wav", in: files)
        let calls = try (0..<3).map { i in
            try (i == 1 ? again : app).callAsync("Schedule", [.string(""), .vardict([("title", .string("Tea \(i)")), ("duration", .uint32(600)),
                                                                                  ("sound_file", try descriptor(sound))])])
        }
        let n = try #require(h.notifier!.waitFor(pump: [app, again]) { $0.count == 1 })[0]
        let fdsWaiting = openDescriptors(h)
        // The fourth and fifth, from either connection of the app: refused at once, naming the limit.
        for c in [app, again] {
            let e = callError { () throws(BusError) in
                _ = try c.schedule([("title", .string("More")), ("duration", .uint32(60)), ("sound_file", try descriptor(sound))])
            }
            #expect(e?.name == Contract.ErrorName.limitReached && e?.message.contains("3 calls waiting") == true
                    && e?.message.contains("max_waiting_calls") == true, "\(e?.description ?? "accepted")")
        }
        let asked = callError { () throws(BusError) in _ = try app.call("RequestAuthorization", [.string("Timers")]) }
        #expect(asked?.name == Contract.ErrorName.limitReached, "\(asked?.description ?? "answered")")
        #expect(eventually { openDescriptors(h) == fdsWaiting }, "the refused calls' files are not kept open: \(openDescriptors(h)) > \(fdsWaiting)")
        #expect(calls.allSatisfy { !$0.done }, "the three still wait")
        // Another app is asked as usual meanwhile.
        let other = try h.app("org.example.Other")
        _ = try other.callAsync("RequestAuthorization", [.string("Timers")])
        #expect(h.notifier!.waitFor(pump: [other]) { $0.count == 2 } != nil, "another app's prompt")
        try h.notifier!.invoke(n.uint32("id"), "allow")
        #expect(calls.enumerated().allSatisfy { i, p in (i == 1 ? again : app).wait(for: p) })
        #expect(calls.allSatisfy { $0.error == nil }, "\(calls.map { $0.error?.description ?? "ok" })")
        #expect(try h.client.alarms().count == 3)
    }

    /// Don't Allow, or no answer within the prompt's time, fails the waiting Schedule with
    /// NotAuthorized and schedules nothing; a denied app then fails at once, without a prompt.
    @Test(arguments: ["deny", "timeout"]) func aFirstScheduleThatIsNotAllowedFails(_ answer: String) throws {
        let h = try promptHarness(config: answer == "timeout" ? "[authorization]\nprompt_timeout = 1\n" : nil)
        let app = try h.app("org.example.Clock")
        let pending = try app.callAsync("Schedule", [.string(""), .vardict([("title", .string("Tea")), ("duration", .uint32(600))])])
        let n = try #require(h.notifier!.waitFor(pump: [app]) { $0.count == 1 })[0]
        if answer == "deny" { try h.notifier!.invoke(n.uint32("id"), "deny") }
        #expect(app.wait(for: pending, timeout: 10))
        #expect(pending.error?.name == Contract.ErrorName.notAuthorized, "\(pending.values ?? []) \(pending.error?.description ?? "")")
        #expect(try h.client.alarms().isEmpty)
        if answer == "deny" {
            let e = callError { () throws(BusError) in _ = try app.schedule([("title", .string("x")), ("duration", .uint32(60))]) }
            #expect(e?.name == Contract.ErrorName.notAuthorized)
            #expect(try h.notifier!.notifications().count == 1, "no second prompt for a denied app")
        }
    }

    /// The user can decide from the command line while a Schedule waits: the prompt closes, and the
    /// Schedule goes through.
    @Test func aWaitingScheduleGoesThroughWhenTheUserAllowsElsewhere() throws {
        let h = try promptHarness()
        let app = try h.app("org.example.Clock")
        let pending = try app.callAsync("Schedule", [.string(""), .vardict([("title", .string("x")), ("duration", .uint32(60))])])
        _ = try #require(h.notifier!.waitFor(pump: [app]) { $0.count == 1 })
        try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string("authorized")])
        #expect(h.notifier!.waitFor { $0[0].uint32("closed_reason") != 0 } != nil)
        #expect(app.wait(for: pending))
        #expect(pending.error == nil && pending.values?.count == 1, "\(pending.error?.description ?? "")")
        #expect(try h.client.alarms().count == 1)
    }

    @Test(arguments: [("ask", "notDetermined"), ("allow", "authorized"), ("deny", "denied")])
    func withoutANotificationServerThePolicyDecides(policy: String, expected: String) throws {
        let h = try Harness(config: "[authorization]\ndefault = \(policy)\n")
        let app = try h.app("org.example.Clock")
        let pending = try app.callAsync("RequestAuthorization", [.string("Timers")])
        #expect(app.wait(for: pending))
        #expect(pending.values == [.string(expected)])
        #expect(try app.call("GetAuthorizationState") == [.string(expected)])
        // Only `ask` needs someone to ask; `allow` and `deny` decide new apps outright.
        #expect(h.daemon.log.contains("no notification server") == (policy == "ask"))
    }

    @Test func revokingRemovesTheAppsAlarmsAndSurvivesRestart() throws {
        let h = try Harness()
        try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string("authorized")])
        let app = try h.app("org.example.Clock")
        let a = try app.schedule([("title", .string("a")), ("duration", .uint32(600))])
        let b = try app.schedule([("title", .string("b")), ("hour", .uint32(7))])
        let mine = try h.client.schedule([("title", .string("mine")), ("duration", .uint32(600))])
        try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string("denied")])
        #expect(h.client.waitFor { $0.named("AlarmRemoved").count == 2 })
        let removed = h.client.signals.named("AlarmRemoved")
        #expect(Set(removed.map { $0.args[0] }) == [.string(AlarmID.id(fromPath: a)!), .string(AlarmID.id(fromPath: b)!)])
        #expect(removed.allSatisfy { $0.args[1] == .string("org.example.Clock") && $0.args[2] == .string("revoked") })
        #expect(h.client.waitFor { $0.contains { $0.member == "AuthorizationChanged" && $0.args == [.string("org.example.Clock"), .string("denied")] } })
        #expect(try h.client.alarms().map { $0.string("Id") } == [AlarmID.id(fromPath: mine)!])
        try h.restart(kill9: true)
        let again = try h.app("org.example.Clock")
        #expect(try again.call("GetAuthorizationState") == [.string("denied")])
        try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string("notDetermined")])
        #expect(try again.call("GetAuthorizationState") == [.string("notDetermined")])
    }

    @Test func perAppLimitFromTheConfiguration() throws {
        let h = try Harness(config: "[limits]\nmax_alarms_per_app = 2\nmax_alarms_shell = 3\n[authorization]\ndefault = allow\n")
        let app = try h.app("org.example.Clock")
        for i in 0..<2 { _ = try app.schedule([("title", .string("\(i)")), ("duration", .uint32(600))]) }
        let e = callError { () throws(BusError) in _ = try app.schedule([("title", .string("x")), ("duration", .uint32(600))]) }
        #expect(e?.name == Contract.ErrorName.limitReached)
        for i in 0..<3 { _ = try h.client.schedule([("title", .string("\(i)")), ("duration", .uint32(600))]) }
        let shell = callError { () throws(BusError) in _ = try h.client.schedule([("title", .string("x")), ("duration", .uint32(600))]) }
        #expect(shell?.name == Contract.ErrorName.limitReached)
    }

    @Test func malformedConfigurationIsReportedAndDefaultsKept() throws {
        let h = try Harness(config: """
            [authorization]
            default = maybe
            prompt_timeout = soon
            this line is wrong
            [limits]
            max_alarms_per_app = 1
            """)
        let log = h.daemon.log
        #expect(log.contains("alarmd.conf:2: default: expected ask, allow or deny"))
        #expect(log.contains("alarmd.conf:3: prompt_timeout"))
        #expect(log.contains("alarmd.conf:4: expected 'key = value'"))
        let app = try h.app("org.example.Clock")
        #expect(try app.call("GetAuthorizationState") == [.string("notDetermined")], "the default policy (ask) is kept")
    }

    @Test func objectsAndEnumerationAreFilteredByCaller() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n")
        let a = try h.app("org.example.A"), b = try h.app("org.example.B")
        let pathA = try a.schedule([("title", .string("A")), ("duration", .uint32(600))])
        let pathB = try b.schedule([("title", .string("B")), ("duration", .uint32(600))])
        func managed(_ c: Client) throws -> Set<String> {
            let r = try c.bus.call(managerName, managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            guard case .dict(_, _, let entries)? = r.first else { return [] }
            return Set(entries.compactMap { if case .objectPath(let p) = $0.key { p } else { nil } })
        }
        #expect(try managed(a) == [pathA])
        #expect(try managed(b) == [pathB])
        #expect(try managed(h.client) == [pathA, pathB])
        #expect(!(try a.introspect(Contract.alarmPathPrefix)).contains(String(pathB.split(separator: "/").last!)))
        let e = callError { () throws(BusError) in _ = try a.allProperties(pathB) }
        #expect(e != nil)
        // A dropped connection's identity goes with it: a new connection is the user's tool again.
        let c = try Client(address: h.bus.address)
        #expect(try c.alarms().count == 2)
        var gone: Client? = try h.app("org.example.Gone")
        let name = gone!.bus.uniqueName
        gone = nil
        #expect(h.daemon.logs("connection \(name) of app org.example.Gone closed"))
        _ = gone
    }
}

/// A Flatpak caller over a real bus: its `/proc/PID/root/.flatpak-info` decides who it is.
@Suite(.serialized) struct SandboxIdentityTests {
    let flatpakInfo = "[Application]\nname=org.gnome.Clocks\nruntime=runtime/org.gnome.Platform/x86_64/45\n\n[Instance]\nflatpak-version=1.14.4\n"

    @Test func flatpakCallerIsItsAppAndCannotClaimAnother() throws {
        let proc = TempDir("alarmd-proc")
        let root = "\(proc.path)/\(getpid())/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try flatpakInfo.write(toFile: root + "/.flatpak-info", atomically: true, encoding: .utf8)
        let h = try Harness(config: "[authorization]\ndefault = allow\n", extraArgs: ["--proc-root", proc.path])
        // Every connection of this (test) process is now the sandboxed org.gnome.Clocks.
        let e = callError { () throws(BusError) in try h.client.call("RegisterApp", [.string("org.example.Other")]) }
        #expect(e?.name == Contract.ErrorName.notAuthorized)
        try h.client.call("RegisterApp", [.string("org.gnome.Clocks")])
        let path = try h.client.schedule([("title", .string("x")), ("duration", .uint32(60))])
        #expect(try h.client.property(path, alarmInterface, "AppId") == .string("org.gnome.Clocks"))
        let shellOnly = callError { () throws(BusError) in try h.client.call("ListAuthorizations") }
        #expect(shellOnly?.name == Contract.ErrorName.notAuthorized, "a sandboxed app is not the user's tool")
        #expect(h.daemon.log.contains("is sandboxed app org.gnome.Clocks"))
        // SoundError would tell a sandboxed app whether a file outside its sandbox exists.
        let probe = callError { () throws(BusError) in
            _ = try h.client.schedule([("title", .string("x")), ("duration", .uint32(60)), ("sound", .string("/home/user/.ssh/id_ed25519"))])
        }
        #expect(probe?.name == Contract.ErrorName.invalidArgument && probe?.message.hasPrefix("sound:") == true)
        _ = try h.client.schedule([("title", .string("x")), ("duration", .uint32(60)), ("sound", .string("beacon"))])
    }

    /// A caller whose root alarmd cannot look into (another user namespace, a setuid sandbox) is
    /// not taken for the user's own tool: alarmd fails closed.
    @Test func aRootThatCannotBeInspectedIsNotTheUsersTool() throws {
        let proc = TempDir("alarmd-proc")
        try FileManager.default.createDirectory(atPath: "\(proc.path)/\(getpid())", withIntermediateDirectories: true)
        // A root that loops: looking into it fails with ELOOP, neither "no such file" nor a file.
        try FileManager.default.createSymbolicLink(atPath: "\(proc.path)/\(getpid())/root", withDestinationPath: "root")
        let h = try Harness(extraArgs: ["--proc-root", proc.path])
        let e = callError { () throws(BusError) in try h.client.call("ListAuthorizations") }
        #expect(e?.name == Contract.ErrorName.notAuthorized, "\(e?.description ?? "served as the user's tool")")
        #expect(h.daemon.logs("cannot tell whether it is sandboxed"))
        // The positive control, same daemon: another process (busctl), whose root is simply not
        // there to look into (ENOENT), is the user's tool.
        let r = try h.busctlCall(["ListAuthorizations"])
        #expect(r.status == 0 && r.out.hasPrefix("a{ss} 0"), "\(r.out) \(r.err)")
    }
}
