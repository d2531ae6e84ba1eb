// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

extension Harness {
    /// `alarmctl --address BUS ARGS…` to completion.
    func alarmctl(_ args: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        var env = ProcessInfo.processInfo.environment
        env.merge(extra) { _, new in new }
        return try runCommand(Products.alarmctl, ["--address", bus.address] + args, environment: env)
    }

    /// `alarmctl --address BUS ARGS…` left running, its output read as it comes.
    func liveAlarmctl(_ args: [String]) throws -> LiveCommand {
        try LiveCommand(Products.alarmctl, ["--address", bus.address] + args)
    }

    func snapshots() throws -> [AlarmSnapshot] { try AlarmManagerProxy(bus: client.bus).alarms() }

    func snapshot(_ id: String) throws -> AlarmSnapshot? { try snapshots().first { $0.id == id } }

    /// Waits (dispatching the subscribed client) until alarm `id` is in `state`.
    func waitForState(_ id: String, _ state: AlarmState, timeout: Double = 8) -> Bool {
        eventually(timeout: timeout, pumping: client) { (try? snapshot(id))??.state == state }
    }
}

/// The id alarmctl printed ("Timer 3f8f8e00 …"), resolved to the full id.
func printedId(_ h: Harness, _ out: String) throws -> String {
    let prefix = try #require(out.split(separator: " ").dropFirst().first.map(String.init))
    return try #require(try h.snapshots().first { $0.id.hasPrefix(prefix) }?.id)
}

@Suite(.serialized) struct AlarmctlTests {
    @Test func setsAlarmsAndTimersAsTyped() throws {
        let h = try Harness()
        let a = try h.alarmctl(["alarm", "07:30", "--days", "mon-fri", "--title", "Get up", "--snooze", "10m", "--pre-alert", "5m"])
        #expect(a.status == 0, "\(a.err)")
        #expect(a.out.contains("\"Get up\" set for") && a.out.contains("mon-fri"))
        let alarm = try #require(try h.snapshot(try printedId(h, a.out)))
        #expect(alarm.schedule["hour"] == .uint32(7) && alarm.schedule["minute"] == .uint32(30))
        #expect(alarm.weekdays == ["monday", "tuesday", "wednesday", "thursday", "friday"])
        #expect(alarm.postAlert == 600 && alarm.preAlert == 300 && alarm.title == "Get up")

        let fixed = try h.alarmctl(["alarm", "2026-12-24 18:00", "--title", "Dinner"], environment: ["TZ": "Europe/Berlin"])
        #expect(fixed.status == 0, "\(fixed.err)")
        let dinner = try #require(try h.snapshot(try printedId(h, fixed.out)))
        #expect(dinner.schedule["fixed_date"]?.integerValue == 1_798_131_600, "18:00 in Berlin is 17:00 UTC")

        let t = try h.alarmctl(["timer", "25m", "--title", "Tea", "--warn", "1m", "--message", "Done", "--silent"])
        #expect(t.status == 0, "\(t.err)")
        #expect(t.out.contains("\"Tea\" ends in 25 min"), "\(t.out)")
        let tea = try #require(try h.snapshot(try printedId(h, t.out)))
        #expect(tea.isTimer && tea.isCountingDown && tea.countdownTotal == 1500 * usec && !tea.ring)
        #expect(tea.presentation["warning_threshold"] == .uint32(60) && tea.text("completion_message") == "Done")

        let u = try h.alarmctl(["update", String(tea.id.prefix(10)), "--title", "Green tea", "--duration", "3m"])
        #expect(u.status == 0, "\(u.err)")
        let updated = try #require(try h.snapshot(tea.id))
        #expect(updated.title == "Green tea" && updated.countdownTotal == 180 * usec)
    }

    @Test func listAndJSONAgreeWithGetAlarms() throws {
        let h = try Harness()
        _ = try h.alarmctl(["timer", "25m", "--title", "Tea"])
        _ = try h.alarmctl(["alarm", "06:45", "--days", "weekends", "--title", "Run"])
        let list = try h.alarmctl(["list"])
        #expect(list.status == 0)
        let lines = list.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("NEXT") == true && lines.first?.contains("APP") == true)
        let snapshots = try h.snapshots()
        for s in snapshots { #expect(list.out.contains(String(s.id.prefix(8))), "id prefix of \(s.title)") }
        #expect(lines[1].contains("Tea") && lines[1].contains("in 25 min"), "the sooner one first: \(lines[1])")
        #expect(lines[2].contains("Run") && lines[2].contains("weekends"))
        #expect(!list.out.contains("\u{1B}["), "no colour into a pipe")

        let json = try h.alarmctl(["list", "--json"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        #expect(parsed.count == snapshots.count)
        for s in snapshots {
            let o = try #require(parsed.first { $0["Id"] as? String == s.id })
            #expect(o["State"] as? String == s.state?.rawValue && o["Kind"] as? String == s.kind?.rawValue)
            #expect(s.state != nil && s.kind != nil)
            #expect((o["FireTimeUSec"] as? NSNumber)?.uint64Value == s.fireTime)
            #expect((o["Presentation"] as? [String: Any])?["title"] as? String == s.title)
            #expect(Set(o.keys) == Set(s.properties.keys), "every property GetAlarms has")
        }
        #expect(try h.alarmctl(["list", "--all"]).out.contains(snapshots[0].id), "--all shows full ids")
        let empty = try Harness()
        #expect(try empty.alarmctl([]).out.contains("No alarms or timers"), "the default command lists")
    }

    @Test func transitionsTakeUniquePrefixes() throws {
        let h = try Harness()
        let ids = ["aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002"]
        for id in ids { #expect(try h.alarmctl(["timer", "10m", "--id", id]).status == 0) }
        let ambiguous = try h.alarmctl(["pause", "aaaa"])
        #expect(ambiguous.status == 6)
        #expect(ambiguous.err.contains("matches 2 alarms") && ambiguous.err.contains(ids[0]) && ambiguous.err.contains(ids[1]))
        let paused = try h.alarmctl(["pause", "aaaaaaaa-0000-4000-8000-000000000001"])
        #expect(paused.status == 0 && paused.out.contains("Paused aaaaaaaa"))
        #expect(try h.snapshot(ids[0])?.state == .paused && h.snapshot(ids[1])?.state == .countdown)
        #expect(try h.alarmctl(["resume", "AAAAAAAA_0000_4000_8000_000000000001"]).status == 0, "any case, path form")
        #expect(try h.snapshot(ids[0])?.state == .countdown)
        let cancel = try h.alarmctl(["cancel", ids[0], ids[1]])
        #expect(cancel.status == 0 && cancel.out.split(separator: "\n").count == 2)
        #expect(try h.snapshots().isEmpty)

        // A ringing alarm: snooze, then stop.
        let egg = try h.client.schedule([("title", .string("Egg")), ("duration", .uint32(1)), ("post_alert", .uint32(1))])
        let id = try #require(AlarmID.id(fromPath: egg))
        #expect(h.waitForState(id, .alerting))
        let snooze = try h.alarmctl(["snooze", String(id.prefix(8))])
        #expect(snooze.status == 0 && snooze.out.contains("Snoozed"), "\(snooze.err)")
        #expect(try h.snapshot(id)?.state == .countdown)
        #expect(h.waitForState(id, .alerting))
        // Without an id (a waybar click): every ringing alarm, and nothing else.
        let other = try h.client.schedule([("title", .string("Later")), ("duration", .string("1h"))])
        let stopped = try h.alarmctl(["stop"])
        #expect(stopped.status == 0 && stopped.out.contains("Stopped \(id.prefix(8))"), "\(stopped.err)")
        #expect(h.client.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.last == .string("stopped") } })
        #expect(try h.snapshot(AlarmID.id(fromPath: other) ?? "")?.state == .countdown, "the countdown is untouched")
        let none = try h.alarmctl(["snooze"])
        #expect(none.status == 5 && none.err.contains("nothing is ringing"))
        #expect(try h.alarmctl(["pause"]).status == 2, "other verbs need ids")
    }

    @Test func errorsNameTheProblemAndExitCodesTellThemApart() throws {
        let h = try Harness(config: "[authorization]\nshell = deny\n")
        let denied = try h.alarmctl(["timer", "5m"])
        #expect(denied.status == 4 && denied.err.contains("not authorized") && denied.err.contains("shell = deny"))

        let ok = try Harness()
        let scheduled = try ok.alarmctl(["alarm", "07:30"])
        let alarm = try printedId(ok, scheduled.out)
        let refused = try ok.alarmctl(["pause", alarm])
        #expect(refused.status == 1 && refused.err.contains(Contract.ErrorName.invalidState), "\(refused.err)")
        let missing = try ok.alarmctl(["stop", "0123"])
        #expect(missing.status == 5 && missing.err.contains("no alarm matches '0123'") && missing.err.contains("alarmctl list"))
        for (args, needle) in [(["timer", "5 minutes"], "cannot read the duration"),
                               (["alarm", "7h30"], "cannot read the time '7h30'"), (["alarm", "25:00"], "there is no hour 25"),
                               (["alarm", "07:30", "--days", "funday"], "cannot read the days"), (["frobnicate"], "unknown command"),
                               (["list", "--bogus"], "unknown option --bogus"), (["timer"], "needs one duration"),
                               (["panel", "--format", "xml"], "unknown format")] {
            let r = try ok.alarmctl(args)
            #expect(r.status == 2, "\(args): \(r.status)")
            #expect(r.err.contains(needle) && r.err.contains("--help"), "\(args): \(r.err)")
        }

        // A bus without alarmd (and no activation file): not running, and how to start it.
        let bare = try TestBus()
        let notRunning = try runCommand(Products.alarmctl, ["--address", bare.address, "list"])
        #expect(notRunning.status == 3 && notRunning.err.contains("alarmd is not running"))
        #expect(notRunning.err.contains("systemctl --user start alarmd"))
        let status = try runCommand(Products.alarmctl, ["--address", bare.address, "status"])
        #expect(status.status == 3 && status.out.contains("not running"))
        let noBus = try runCommand(Products.alarmctl, ["--address", "unix:path=/nonexistent/bus", "list"])
        #expect(noBus.status == 3 && noBus.err.contains("cannot connect to the session bus"))
    }

    /// Every `alarmctl` line of a code block in the README and docs/, in the order a reader meets them.
    @Test func documentedAlarmctlExamplesRun() throws {
        let h = try Harness()
        var commands: [String] = []
        for (_, text) in try readerDocuments() {
            var inCode = false
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if raw.hasPrefix("```") { inCode.toggle(); continue }
                let line = raw.components(separatedBy: "   #").first!.trimmingCharacters(in: .whitespaces)
                // watch, monitor and panel run until their reader goes: other tests drive them.
                if inCode, line.hasPrefix("alarmctl"), !line.hasPrefix("alarmctl watch"), !line.hasPrefix("alarmctl monitor"),
                   !line.hasPrefix("alarmctl panel") {
                    commands.append(line)
                }
            }
        }
        #expect(commands.count >= 10, "\(commands)")
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = h.bus.address
        env["PATH"] = Products.directory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        var prefix = "3f8f", alarmPrefix = "0b6c"
        // A fixed date in the docs passes one day; then the same day of a later year stands in for it, as
        // a reader would set it: alarmctl refuses a date in the past.
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        let date = try Regex(#"\b(20[0-9][0-9])-([01][0-9])-([0-3][0-9]) "#)
        for documented in commands {
            var command = documented.replacingOccurrences(of: "3f8f", with: prefix).replacingOccurrences(of: "0b6c", with: alarmPrefix)
            if let m = command.firstMatch(of: date), let year = Int(m.output[1].substring ?? ""), year <= thisYear {
                command.replaceSubrange(m.output[1].range!, with: String(thisYear + 1))
            }
            let r = try runCommand("/bin/sh", ["-c", command], environment: env)
            // The tour's snooze finds nothing ringing here; that is its documented answer.
            let fine = r.status == 0 || (command.hasPrefix("alarmctl snooze") && r.status == 5 && r.err.contains("nothing is ringing"))
            #expect(fine, "\(command): \(r.status) \(r.err)")
            if command.hasPrefix("alarmctl timer 25m") { prefix = try printedId(h, r.out).prefix(8).description }
            if command.hasPrefix("alarmctl alarm 06:45") { alarmPrefix = try printedId(h, r.out).prefix(8).description }
        }
        #expect(try h.snapshots().count == 2, "the tour's alarms are set and its timer cancelled")
    }

    @Test func helpForEveryCommand() throws {
        let h = try Harness()
        for command in ["list", "alarm", "timer", "update", "pause", "resume", "stop", "snooze", "cancel", "watch",
                        "monitor", "panel", "auth", "status"] {
            let r = try h.alarmctl([command, "--help"])
            #expect(r.status == 0 && r.out.hasPrefix("usage: alarmctl \(command)"), "\(command): \(r.out)")
        }
        let top = try h.alarmctl(["--help"])
        #expect(top.status == 0 && top.out.contains("Exit status"))
        #expect(try h.alarmctl(["help", "timer"]).out.hasPrefix("usage: alarmctl timer"))
    }

    @Test func authAndStatus() throws {
        let h = try Harness()
        #expect(try h.alarmctl(["auth", "list"]).out.contains("No app has asked"))
        #expect(try h.alarmctl(["auth", "allow", "org.example.Clock"]).status == 0)
        #expect(try h.alarmctl(["auth", "deny", "org.example.Spam"]).status == 0)
        let listed = try h.alarmctl(["auth", "list"]).out
        #expect(listed.contains("org.example.Clock") && listed.contains("authorized") && listed.contains("denied"))
        #expect(try AlarmManagerProxy(bus: h.client.bus).authorizations().map { "\($0.app)=\($0.state?.rawValue ?? "?")" }.sorted()
                == ["org.example.Clock=authorized", "org.example.Spam=denied"])
        #expect(try h.alarmctl(["auth", "reset", "org.example.Spam"]).status == 0)
        #expect(try h.alarmctl(["auth", "frob", "x"]).status == 2)
        #expect(try h.alarmctl(["__complete", "apps"]).out.contains("org.example.Clock"))

        _ = try h.alarmctl(["timer", "10m", "--title", "Tea"])
        let status = try h.alarmctl(["status"])
        #expect(status.status == 0)
        #expect(status.out.contains("running, version \(AlarmManagerProxy(bus: h.client.bus).version)"))
        #expect(status.out.contains("in 10 min): Tea"), "\(status.out)")
        #expect(status.out.contains(h.state.path + "/state/alarmd.sqlite"))
        #expect(status.out.contains("alarms: 1 (1 counting down, 0 ringing)"))
        #expect(status.out.contains("cannot wake the machine"), "no RTC wake alarm here")
        let ids = try h.alarmctl(["__complete", "ids"])
        let teaId = try h.snapshots().first?.id
        #expect(ids.out.hasSuffix("\tTea\n") && ids.out.split(separator: "\t").first.map(String.init) == teaId)
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let h = try Harness()
        _ = try h.alarmctl(["timer", "10m"])
        // script(1) gives alarmctl a pseudo-terminal as stdout.
        func onTerminal(_ env: [String: String]) throws -> String {
            var e = ProcessInfo.processInfo.environment
            // The test runner's own environment may carry NO_COLOR: each case sets it explicitly.
            e.removeValue(forKey: "NO_COLOR")
            e.merge(env) { _, new in new }
            return try runCommand("/usr/bin/script", ["-qec", "\(Products.alarmctl) --address '\(h.bus.address)' list", "/dev/null"],
                                  environment: e).out
        }
        let colour = try onTerminal([:])
        #expect(colour.contains("\u{1B}[1m") && colour.contains("\u{1B}[32m"), "bold header, green countdown: \(colour.debugDescription)")
        #expect(!(try onTerminal(["NO_COLOR": "1"])).contains("\u{1B}["))
        #expect(!(try h.alarmctl(["--no-color", "list"]).out.contains("\u{1B}[")))
    }
}

/// Waits until `monitor` is subscribed: it prints nothing at start, so poke alarmd until it reports.
private func syncMonitor(_ h: Harness, _ monitor: LiveCommand) throws {
    var n = 0
    while !monitor.waitFor(timeout: 0.2, { $0.contains { $0.contains("org.example.Sync") } }) && n < 50 {
        try h.client.call("SetAuthorization", [.string("org.example.Sync"), .string(n % 2 == 0 ? "denied" : "authorized")])
        n += 1
    }
}

/// The live commands: monitor, watch and panel, as a person and a panel see them.
@Suite(.serialized) struct AlarmctlLiveTests {
    @Test func monitorPrintsOneLinePerEvent() throws {
        let h = try Harness()
        let monitor = try h.liveAlarmctl(["monitor"])
        let json = try h.liveAlarmctl(["monitor", "--json"])
        try syncMonitor(h, monitor)
        try syncMonitor(h, json)
        let skip = json.drain().count
        let tea = try h.client.schedule([("title", .string("Tea")), ("duration", .string("10m"))])
        let id = try #require(AlarmID.id(fromPath: tea))
        #expect(monitor.waitFor { $0.contains { $0.contains("added") && $0.contains(String(id.prefix(8))) && $0.contains("\"Tea\"") } })
        try h.client.call("Pause", [.string(id)])
        #expect(monitor.waitFor { $0.contains { $0.contains("changed") && $0.contains("State=paused") } })
        try h.client.call("Cancel", [.string(id)])
        #expect(monitor.waitFor { $0.contains { $0.contains("removed") && $0.contains("cancelled") } })
        try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string("authorized")])
        #expect(monitor.waitFor { $0.contains { $0.contains("authorization") && $0.contains("org.example.Clock authorized") } })
        // The lines of syncMonitor's pokes are authorization events too: wait for this one.
        #expect(json.waitFor { $0.dropFirst(skip).contains { $0.contains("\"event\":\"authorization\"") && $0.contains("org.example.Clock") } })
        let lines = json.drain().dropFirst(skip)
        // A sync poke may still have been on its way when `skip` was counted: its line is no event of this test.
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["app"] as? String != "org.example.Sync" }
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] }, "every line is one JSON object")
        #expect(events.map { $0["event"] as? String ?? "" }.filter { $0 != "next" } == ["added", "changed", "removed", "authorization"])
        #expect(events.first?["id"] as? String == id)
        #expect(events.first { $0["event"] as? String == "removed" }?["reason"] as? String == "cancelled")

        // alarmd going away and coming back is an event too.
        try h.restart(kill9: false)
        #expect(monitor.waitFor(timeout: 10) { $0.contains { $0.contains("alarmd stopped") } && $0.contains { $0.contains("alarmd started") } })
    }

    @Test func watchRedrawsInATerminalAndQuitsOnQ() throws {
        let h = try Harness()
        _ = try h.alarmctl(["timer", "10m", "--title", "Tea"])
        let session = "alarmd-watch-\(getpid())"
        let tmux = "/usr/bin/tmux"
        _ = try runCommand(tmux, ["-L", session, "new-session", "-d", "-x", "100", "-y", "20",
                                  "\(Products.alarmctl) --address '\(h.bus.address)' watch"])
        defer { _ = try? runCommand(tmux, ["-L", session, "kill-server"]) }
        func screen() -> String { (try? runCommand(tmux, ["-L", session, "capture-pane", "-p"]).out) ?? "" }
        var first = ""
        #expect(eventually(timeout: 5) { first = screen(); return first.contains("Tea") && first.contains("left") })
        #expect(first.contains("alarmd — 1 alarm"), "\(first)")
        let time = try Regex(#"\d+:\d\d left"#)
        let before = first.firstMatch(of: time).map { String(first[$0.range]) }
        #expect(eventually(timeout: 4) { let s = screen(); return s.firstMatch(of: time).map { String(s[$0.range]) } != before },
                "the countdown moves on its own")
        // A signal redraws it: a new alarm appears without a key press.
        _ = try h.alarmctl(["alarm", "07:30", "--title", "Get up"])
        #expect(eventually(timeout: 5) { screen().contains("Get up") })
        _ = try runCommand(tmux, ["-L", session, "send-keys", "q"])
        #expect(eventually(timeout: 5) { (try? runCommand(tmux, ["-L", session, "has-session"]).status) != 0 }, "q quits")
    }

    @Test func watchPrintsPlainLinesIntoAPipe() throws {
        let h = try Harness()
        let watch = try h.liveAlarmctl(["watch"])
        #expect(watch.waitFor { $0.contains { $0.hasPrefix("--- ") } })
        _ = try h.alarmctl(["timer", "10m", "--title", "Tea"])
        #expect(watch.waitFor { $0.contains { $0.contains("Tea") && $0.contains("left") } })
        #expect(!watch.lines.joined().contains("\u{1B}"), "no escape sequences into a pipe")
    }

    static func waybar(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    @Test func panelClassesFollowTheCountdown() throws {
        let h = try Harness()
        let panel = try h.liveAlarmctl(["panel", "--format", "waybar"])
        #expect(panel.waitFor { $0.count == 1 })
        #expect(Self.waybar(panel.lines[0])?["class"] as? String == "idle")
        _ = try h.client.schedule([("title", .string("Tea")), ("compact_label", .string("TEA")), ("duration", .uint32(3)),
                                   ("warning_threshold", .uint32(2))])
        #expect(panel.waitFor(timeout: 8) { $0.contains { Self.waybar($0)?["class"] as? String == "alerting" } }, "\(panel.lines)")
        let objects = panel.lines.compactMap(Self.waybar)
        #expect(objects.count == panel.lines.count, "every line is JSON")
        let classes = objects.map { $0["class"] as? String ?? "" }
        var order: [String] = []
        for c in classes where order.last != c { order.append(c) }
        #expect(order == ["idle", "countdown", "warning", "alerting"], "\(classes)")
        let counting = objects.filter { $0["class"] as? String == "countdown" }
        #expect(counting.first?["text"] as? String == "TEA 0:03")
        #expect(objects.contains { $0["text"] as? String == "TEA 0:02" }, "a line each second while counting down")
        #expect(objects.last?["text"] as? String == "🔔 Tea" && objects.last?["percentage"] as? Int == 100)
        // Ticks stop with the countdown: nothing more while it rings, though alarmd still signals
        // (its SoundError) within the window.
        let monitor = try h.liveAlarmctl(["monitor"])
        try syncMonitor(h, monitor)
        let settled = panel.drain().count
        try h.client.call("SetAuthorization", [.string("org.example.X"), .string("denied")])
        #expect(monitor.waitFor { $0.contains { $0.contains("org.example.X denied") } })
        panel.drain()
        #expect(panel.lines.count == settled, "no line for a change the panel does not show: \(panel.lines.suffix(2))")
    }

    @Test func panelPrintsNothingWhileIdle() throws {
        let h = try Harness()
        let panel = try h.liveAlarmctl(["panel", "--format", "plain"])
        let monitor = try h.liveAlarmctl(["monitor"])
        #expect(panel.waitFor { $0 == [""] }, "one empty line: the module is hidden")
        try syncMonitor(h, monitor)
        // In the same window, alarmd announces things the panel does not show, and the monitor sees them.
        for state in ["authorized", "denied", "notDetermined"] {
            try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string(state)])
        }
        #expect(monitor.waitFor { $0.filter { $0.contains("org.example.Clock") }.count == 3 })
        // A second and more: a panel that ticked while idle would have printed by now.
        usleep(1_200_000)
        // Positive control closing the window: a timer does bring a line, and it is the first
        // line since the empty one.
        _ = try h.client.schedule([("title", .string("Tea")), ("duration", .string("1h"))])
        #expect(panel.waitFor { $0.count >= 2 })
        #expect(panel.lines.count == 2 && panel.lines[0] == "" && panel.lines[1].hasPrefix("Tea "), "\(panel.lines)")
    }

    @Test func i3barProtocolAndClicks() throws {
        let h = try Harness()
        let panel = try h.liveAlarmctl(["panel", "--format", "i3bar"])
        #expect(panel.waitFor { $0.count >= 3 })
        let header = try #require(Self.waybar(panel.lines[0]))
        #expect(header["version"] as? Int == 1 && header["click_events"] as? Bool == true)
        #expect(panel.lines[1] == "[" && panel.lines[2] == "[]")
        let path = try h.client.schedule([("title", .string("Egg")), ("duration", .uint32(1)), ("post_alert", .uint32(30))])
        let id = try #require(AlarmID.id(fromPath: path))
        #expect(panel.waitFor(timeout: 8) { $0.last?.contains("🔔 Egg") == true })
        for line in panel.lines.dropFirst(3) {
            #expect(line.hasPrefix(","), "later status lines continue the array")
            let blocks = try? JSONSerialization.jsonObject(with: Data(line.dropFirst().utf8)) as? [[String: Any]]
            #expect(blocks?.allSatisfy { $0["name"] as? String == "alarmd" && $0["full_text"] != nil } == true, "\(line)")
        }
        let ringing = try #require(try JSONSerialization.jsonObject(with: Data(panel.lines.last!.dropFirst().utf8)) as? [[String: Any]])
        #expect(ringing.first?["instance"] as? String == id && ringing.first?["urgent"] as? Bool == true)

        // Right click snoozes, left click stops, as i3bar sends them.
        panel.write("[\n{\"name\":\"alarmd\",\"instance\":\"\(id)\",\"button\":3,\"x\":1200,\"y\":10}\n")
        #expect(h.client.waitFor { $0.contains { $0.path == path && $0.changed["State"] == .string("countdown") } })
        #expect(panel.waitFor { $0.last?.contains("Egg 0:") == true }, "the snooze counts down in the bar")
        try h.client.call("Cancel", [.string(id)])
        let again = try h.client.schedule([("title", .string("Egg")), ("duration", .uint32(1))])
        let second = try #require(AlarmID.id(fromPath: again))
        #expect(h.waitForState(second, .alerting))
        panel.write(",{\"name\":\"alarmd\",\"instance\":\"\(second)\",\"button\":1,\"x\":1200,\"y\":10}\n")
        #expect(h.client.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.first == .string(second) && $0.args.last == .string("stopped") } })
        #expect(panel.waitFor { $0.last == ",[]" }, "the bar empties")
    }

    @Test func panelEndsWhenItsReaderGoesEvenWhileIdle() throws {
        let h = try Harness()
        let panel = try h.liveAlarmctl(["panel", "--format", "waybar"])
        #expect(panel.waitFor { $0.count == 1 })
        panel.closeOutput()
        let status = panel.process.wait(timeout: 5)
        #expect(status != nil, "a panel that restarts must not leave it behind")
        #expect(status.map { ($0 >> 8) & 0xff } == 0 && status.map { $0 & 0x7f } == 0, "a clean exit, not SIGPIPE")
    }

    @Test func panelShowsAlarmdGoingAndComingBack() throws {
        let h = try Harness()
        _ = try h.alarmctl(["timer", "10m", "--title", "Tea"])
        let panel = try h.liveAlarmctl(["panel", "--format", "plain"])
        #expect(panel.waitFor { $0.last?.hasPrefix("Tea ") == true })
        try h.restart(kill9: true)
        #expect(panel.waitFor(timeout: 10) { $0.contains("⏰ off") && $0.last?.hasPrefix("Tea ") == true }, "\(panel.lines.suffix(4))")
    }

    @Test func polybarActionsRunAlarmctl() throws {
        let h = try Harness()
        let panel = try h.liveAlarmctl(["panel", "--format", "polybar"])
        #expect(panel.waitFor { $0.count == 1 })
        let path = try h.client.schedule([("title", .string("Egg")), ("duration", .uint32(1)), ("accent_color", .string("teal"))])
        let id = try #require(AlarmID.id(fromPath: path))
        #expect(panel.waitFor(timeout: 8) { $0.last?.contains("🔔 Egg") == true })
        let line = try #require(panel.lines.last)
        #expect(line.contains("%{B#30b0c7}%{F#ffffff}") && line.contains("%{F-}%{B-}"), "\(line)")
        // Run the left-click action as polybar does: the text between "%{A1:" and ":}", colons unescaped, through sh.
        let start = try #require(line.range(of: "%{A1:"))
        let end = try #require(line.range(of: ":}", range: start.upperBound..<line.endIndex))
        let command = String(line[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "\\:", with: ":")
        #expect(command.hasSuffix("stop \(id)"), "\(command)")
        let r = try runCommand("/bin/sh", ["-c", command])
        #expect(r.status == 0, "\(r.err)")
        #expect(h.client.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.last == .string("stopped") } })
        #expect(panel.waitFor { $0.last == "" })
    }

    /// polybar keeps only the first of two lines it reads at once, so changes that come together
    /// are spaced out, and the latest view is always the last line printed.
    @Test func polybarGetsTheLatestViewLastWhenChangesComeTogether() throws {
        let h = try Harness()
        let panel = try h.liveAlarmctl(["panel", "--format", "polybar"])
        #expect(panel.waitFor { $0.count == 1 })
        let first = try h.client.schedule([("title", .string("Soup")), ("duration", .string("1h"))])
        let second = try h.client.schedule([("title", .string("Tea")), ("compact_label", .string("TEA")), ("duration", .string("10m"))])
        try h.client.call("Cancel", [.string(AlarmID.id(fromPath: first)!)])
        _ = second
        // Three changes within a millisecond or so: the spacing holds some back, and the last line
        // printed is the state after all three (Soup gone, Tea counting down).
        #expect(panel.waitFor { $0.last?.contains("TEA 10:00") == true || $0.last?.contains("TEA 9:5") == true }, "\(panel.lines)")
    }
}

/// Issue #16, item 6: alarmctl as systemctl and git are used.
extension AlarmctlTests {
    /// Global options go anywhere on the line; a command's options after the command; "--" ends
    /// the options; an unknown one is named wherever it stands.
    @Test func globalOptionsGoAnywhereOnTheLine() throws {
        let h = try Harness()
        let set = try h.alarmctl(["timer", "10m", "--title", "-x- Tea", "--no-color"])
        #expect(set.status == 0 && set.out.contains("\"-x- Tea\""), "a value may start with '-': \(set.err)")
        let id = try printedId(h, set.out)

        // On a terminal --no-color matters, before the command or after it.
        func onTerminal(_ args: String) throws -> String {
            var e = ProcessInfo.processInfo.environment
            e.removeValue(forKey: "NO_COLOR")
            return try runCommand("/usr/bin/script", ["-qec", "\(Products.alarmctl) --address '\(h.bus.address)' \(args)", "/dev/null"],
                                  environment: e).out
        }
        #expect(try onTerminal("list").contains("\u{1B}["), "the control: colour on a terminal")
        for args in ["list --no-color", "--no-color list", "list --all --no-color"] {
            let out = try onTerminal(args)
            #expect(out.contains("-x- Tea") && !out.contains("\u{1B}["), "\(args): \(out.debugDescription)")
        }
        // --address after the command and after its arguments.
        let paused = try runCommand(Products.alarmctl, ["pause", String(id.prefix(8)), "--address", h.bus.address])
        #expect(paused.status == 0 && paused.out.contains("Paused \(id.prefix(8))"), "\(paused.err)")
        #expect(try h.snapshot(id)?.state == .paused)
        let resumed = try runCommand(Products.alarmctl, ["resume", "--address=\(h.bus.address)", String(id.prefix(8))])
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(try h.snapshot(id)?.state == .countdown)
        // --json after the command, before it, and after --all.
        for args in [["list", "--json"], ["--json", "list"], ["list", "--all", "--json"]] {
            let r = try h.alarmctl(args)
            let parsed = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]]
            #expect(r.status == 0 && parsed?.first?["Id"] as? String == id, "\(args): \(r.out)\(r.err)")
        }
        // --help anywhere: the usage of the command on the line, and nothing done.
        for args in [["timer", "5m", "--help"], ["--help", "timer", "5m"], ["timer", "-h", "5m"]] {
            let r = try h.alarmctl(args)
            #expect(r.status == 0 && r.out.hasPrefix("usage: alarmctl timer"), "\(args): \(r.out)")
        }
        #expect(try h.alarmctl(["list", "--version"]).out.hasPrefix("alarmctl "))
        #expect(try h.snapshots().count == 1, "help and version set nothing")

        // "--" ends the options: what follows is an argument, even "--no-color".
        let dashed = try h.alarmctl(["cancel", "--", "--no-color"])
        #expect(dashed.status == 5 && dashed.err.contains("no alarm matches '--no-color'"), "\(dashed.err)")
        // Unknown options exit 2 naming the option, wherever they stand.
        for (args, needle) in [(["pause", "--frob", id], "unknown option --frob for 'pause'"), (["--frob", "list"], "unknown option --frob"),
                               (["list", "-x"], "unknown option -x for 'list'"),
                               (["--silent", "timer", "5m"], "option --silent belongs after its command"),
                               (["list", "--json=yaml"], "--json takes pretty, short or off, not 'yaml'")] {
            let r = try h.alarmctl(args)
            #expect(r.status == 2 && r.err.contains(needle) && r.err.contains("--help"), "\(args): \(r.status) \(r.err)")
        }
        #expect(try h.snapshot(id)?.state == .countdown, "no refused line changed anything")

        let help = try h.alarmctl(["--help"]).out
        #expect(help.contains("These options go anywhere on the line, before or after the command and its arguments"), "\(help)")
        #expect(help.contains("'--' ends the options") && help.contains("--json[=MODE]"))
    }

    /// `--json`, `--json=short` and `--json=pretty` on list, status, auth list and monitor, each
    /// checked against what alarmd says over D-Bus.
    @Test func jsonOnEveryCommandThatPrintsState() throws {
        let h = try Harness()
        let teaPath = try h.client.schedule([("title", .string("Tea")), ("duration", .string("10m"))])
        let tea = try #require(AlarmID.id(fromPath: teaPath))
        _ = try h.client.schedule([("title", .string("Get up")), ("hour", .uint32(6)), ("minute", .uint32(45))])
        try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string("authorized")])
        try h.client.call("SetAuthorization", [.string("org.example.Spam"), .string("denied")])
        let proxy = AlarmManagerProxy(bus: h.client.bus)
        let snapshots = try h.snapshots()

        func parse(_ args: [String]) throws -> (object: Any, lines: Int) {
            let r = try h.alarmctl(args)
            try #require(r.status == 0, "\(args): \(r.err)")
            let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8))
            return (object, r.out.split(separator: "\n").count)
        }

        // list: one line short (as --json always printed), several pretty, the same array.
        let short = try parse(["list", "--json=short"]), plain = try parse(["list", "--json"]), pretty = try parse(["list", "--json=pretty"])
        #expect(short.lines == 1 && plain.lines == 1 && pretty.lines > snapshots.count * 10)
        for (name, parsed) in [("short", short.object), ("plain", plain.object), ("pretty", pretty.object)] {
            let items = try #require(parsed as? [[String: Any]], "\(name)")
            #expect(Set(items.compactMap { $0["Id"] as? String }) == Set(snapshots.map(\.id)), "\(name)")
            for s in snapshots {
                let o = items.first { $0["Id"] as? String == s.id } ?? [:]
                let state = o["State"] as? String, fire = (o["FireTimeUSec"] as? NSNumber)?.uint64Value
                #expect(state != nil && state == s.state?.rawValue && fire == s.fireTime, "\(name): \(s.id)")
            }
        }
        #expect(try h.alarmctl(["list", "--json=off"]).out.hasPrefix("ID "), "off is the table")

        // status: every field the text shows.
        for mode in ["--json", "--json=pretty"] {
            let (object, lines) = try parse(["status", mode])
            let o = try #require(object as? [String: Any], "\(mode)")
            #expect(mode == "--json" ? lines == 1 : lines > 10, "\(mode): \(lines) lines")
            #expect(o["running"] as? Bool == true && o["version"] as? String == proxy.version, "\(o)")
            #expect((o["next_fire_usec"] as? NSNumber)?.uint64Value == proxy.nextFireTime && proxy.nextFireTime > 0)
            let next = try #require(o["next_alarm"] as? [String: Any], "\(o)")
            #expect(next["id"] as? String == tea && next["title"] as? String == "Tea" && next["kind"] as? String == "timer")
            #expect(o["wake_supported"] as? Bool == proxy.wakeSupported)
            #expect(o["store_path"] as? String == proxy.storePath && proxy.storePath == h.storePath)
            #expect(o["alarms"] as? Int == snapshots.count && o["counting_down"] as? Int == 1 && o["ringing"] as? Int == 0)
            #expect(o["store_recovery"] is NSNull, "no recovery: null, the key still there")
            #expect(Set(o.keys) == ["running", "version", "next_fire_usec", "next_alarm", "wake_supported", "store_path", "alarms",
                                    "counting_down", "ringing", "store_recovery"], "the keys alarmctl(1) documents")
        }

        // auth list: app → state, as ListAuthorizations has it.
        for mode in ["--json", "--json=pretty"] {
            let auth = try #require(try parse(["auth", "list", mode]).object as? [String: String])
            #expect(auth == Dictionary(uniqueKeysWithValues: try proxy.authorizations().map { ($0.app, $0.state?.rawValue ?? "?") }), "\(auth)")
            #expect(auth == ["org.example.Clock": "authorized", "org.example.Spam": "denied"])
        }
        let allow = try h.alarmctl(["auth", "allow", "org.example.X", "--json"])
        #expect(allow.status == 2 && allow.err.contains("prints no JSON"), "\(allow.err)")
        let timer = try h.alarmctl(["timer", "5m", "--json"])
        #expect(timer.status == 2 && timer.err.contains("'timer' prints no JSON: --json works with list, status, auth list and monitor"))
        #expect(try h.snapshots().count == snapshots.count, "the refused timer was not set")

        // monitor --json=pretty: each event indented over several lines, objects one after another.
        let monitor = try h.liveAlarmctl(["monitor", "--json=pretty"])
        try syncMonitor(h, monitor)
        let skip = monitor.drain().count
        let eggPath = try h.client.schedule([("title", .string("Egg")), ("duration", .string("5m"))])
        let egg = try #require(AlarmID.id(fromPath: eggPath))
        #expect(monitor.waitFor { $0.dropFirst(skip).contains { $0.contains("\"event\" : \"added\"") } })
        #expect(monitor.waitFor { lines in
            let rest = Array(lines.dropFirst(skip))
            guard let added = rest.firstIndex(where: { $0.contains("\"event\" : \"added\"") }) else { return false }
            return rest[added...].contains("}")
        })
        let rest = Array(monitor.drain().dropFirst(skip))
        let added = try #require(rest.firstIndex { $0.contains("\"event\" : \"added\"") })
        let start = try #require(rest[..<added].lastIndex(of: "{"))
        let end = try #require(rest[added...].firstIndex(of: "}"))
        #expect(end - start > 3, "indented over several lines")
        let event = try #require(try JSONSerialization.jsonObject(with: Data(rest[start...end].joined(separator: "\n").utf8)) as? [String: Any])
        #expect(event["id"] as? String == egg && (event["alarm"] as? [String: Any])?["State"] as? String == "countdown")

        // A bus without alarmd: running false, exit 3.
        let bare = try TestBus()
        let off = try runCommand(Products.alarmctl, ["status", "--json", "--address", bare.address])
        #expect(off.status == 3 && (try? JSONSerialization.jsonObject(with: Data(off.out.utf8)) as? [String: Bool]) == ["running": false], "\(off.out)")
    }

    /// After alarmd set a damaged store aside, status --json carries the recovery as the
    /// StoreRecovery property has it.
    @Test func statusJSONCarriesAStoreRecovery() throws {
        let h = try Harness()
        _ = try h.client.schedule([("title", .string("Lost")), ("duration", .string("1h"))])
        h.stopDaemon(kill9: false)
        try Data(repeating: 0x5a, count: 8192).write(to: URL(fileURLWithPath: h.storePath))
        try h.start()
        let recovery = try h.storeRecovery
        try #require(recovery[Contract.StoreRecovery.reason] != nil, "\(recovery)")
        let r = try h.alarmctl(["status", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(o["store_recovery"] as? [String: String] == recovery, "\(o)")
        #expect(o["alarms"] as? Int == 0 && o["next_alarm"] is NSNull && (o["next_fire_usec"] as? NSNumber)?.uint64Value == 0)
    }

    /// A refused transition says the command typed, the alarm and its real state; never the
    /// D-Bus method behind it.
    @Test func refusalsSpeakInTheWordsOfTheCommand() throws {
        let h = try Harness()
        let methods = ["Countdown", "Pause", "Resume", "Stop", "Schedule", "Update", "Cancel", "GetAlarms", "needs an alarm in state"]
        func refused(_ args: [String], _ needles: [String], status: Int32 = 1, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let r = try h.alarmctl(args)
            #expect(r.status == status, "\(args): \(r.status) \(r.err)", sourceLocation: sourceLocation)
            for n in needles { #expect(r.err.contains(n), "\(args): no '\(n)' in \(r.err)", sourceLocation: sourceLocation) }
            for m in methods { #expect(!r.err.contains(m), "\(args): a D-Bus name '\(m)' in \(r.err)", sourceLocation: sourceLocation) }
        }
        let pizza = try printedId(h, try h.alarmctl(["timer", "25m", "--title", "Pizza"]).out)
        let p = String(pizza.prefix(8))
        try refused(["snooze", p], ["cannot snooze \(p) \"Pizza\": it is counting down (rings in ", "not ringing"])
        try refused(["stop", p], ["cannot stop \(p) \"Pizza\": it is counting down", "not ringing"])
        try refused(["resume", p], ["cannot resume \(p) \"Pizza\": it is counting down", "not paused"])
        #expect(try h.alarmctl(["pause", p]).status == 0)
        try refused(["pause", p], ["cannot pause \(p) \"Pizza\": it is paused with ", "left, not counting down"])
        try refused(["snooze", p], ["cannot snooze \(p) \"Pizza\": it is paused", "not ringing"])

        let up = try printedId(h, try h.alarmctl(["alarm", "07:30", "--title", "Get up"]).out)
        let u = String(up.prefix(8))
        try refused(["pause", u], ["cannot pause \(u) \"Get up\": it is scheduled for ", "07:30", "not counting down"])
        try refused(["stop", u], ["cannot stop \(u) \"Get up\": it is scheduled for ", "not ringing"])

        let eggPath = try h.client.schedule([("title", .string("Egg")), ("duration", .uint32(1)), ("post_alert", .uint32(60))])
        let egg = try #require(AlarmID.id(fromPath: eggPath))
        #expect(h.waitForState(egg, .alerting))
        let e = String(egg.prefix(8))
        try refused(["pause", e], ["cannot pause \(e) \"Egg\": it is ringing, not counting down"])
        try refused(["resume", e], ["cannot resume \(e) \"Egg\": it is ringing, not paused"])
        #expect(try h.alarmctl(["snooze", e]).status == 0)
        try refused(["snooze", e], ["cannot snooze \(e) \"Egg\": it is counting down", "not ringing"])

        // What alarmd refuses of a new or changed alarm names the option, not the key behind it.
        try refused(["alarm", "07:30", "--title", String(repeating: "x", count: 300)], ["cannot set the alarm: --title: "])
        try refused(["update", p, "--title", String(repeating: "y", count: 300)], ["cannot update \(p) \"Pizza\": --title: "])
        try refused(["update", p, "--time", "07:00"], ["\(p) \"Pizza\" is a timer: --time is for alarms"], status: 2)
        try refused(["update", u, "--duration", "5m"], ["\(u) \"Get up\" is an alarm: --duration is for timers"], status: 2)
        #expect(try h.snapshot(pizza)?.title == "Pizza" && h.snapshot(up)?.title == "Get up", "nothing refused was changed")
    }

    /// Input alarmctl can read but must not use says why, and exits 2.
    @Test func readableButInvalidInputSaysWhy() throws {
        let h = try Harness()
        for (args, needle) in [(["timer", "0s"], "the duration '0s' is no time at all: it must be at least 1 second"),
                               (["timer", "0"], "must be at least 1 second"),
                               (["timer", "6000d"], "is longer than five years"),
                               (["alarm", "24:00"], "there is no hour 24 in a day (hours are 00 to 23)"),
                               (["alarm", "07:61"], "there is no minute 61 in an hour"),
                               (["alarm", "2099-02-30 10:00"], "February 2099 has no day 30 (it has days 01 to 28)"),
                               (["alarm", "2099-13-01 10:00"], "there is no month 13"),
                               (["alarm", "2020-01-01 09:00"], "'2020-01-01 09:00' is in the past"),
                               (["alarm", "07:30", "--snooze", "2d"], "--snooze '2d' is longer than 1 day"),
                               (["alarm", "07:30", "--snooze", "0s"], "--snooze '0s' is no time at all"),
                               (["alarm", "07:30", "--pre-alert", "8d"], "--pre-alert '8d' is longer than 7 days"),
                               (["timer", "5m", "--title", " "], "--title must not be empty")] {
            let r = try h.alarmctl(args)
            #expect(r.status == 2, "\(args): \(r.status) \(r.err)")
            #expect(r.err.contains(needle) && r.err.contains("--help"), "\(args): \(r.err)")
            #expect(!r.err.contains("cannot read"), "\(args) was read: \(r.err)")
        }
        #expect(try h.snapshots().isEmpty, "nothing was set")
        // 0 is "none" where the contract has one: a pre-alert, a warning.
        let none = try h.alarmctl(["alarm", "07:30", "--pre-alert", "0"])
        #expect(none.status == 0, "\(none.err)")
        #expect(try h.snapshot(try printedId(h, none.out))?.preAlert == 0)
    }

    /// update prints the alarm as the change left it, and its --help explains every option.
    @Test func updatePrintsTheNewStateAndExplainsItsOptions() throws {
        let h = try Harness()
        let pizza = try printedId(h, try h.alarmctl(["timer", "25m", "--title", "Pizza"]).out)
        let u = try h.alarmctl(["update", String(pizza.prefix(6)), "--title", "Pizza (large)", "--duration", "30m"])
        #expect(u.status == 0, "\(u.err)")
        let now = try #require(try h.snapshot(pizza))
        #expect(now.title == "Pizza (large)" && now.countdownTotal == 1800 * usec)
        #expect(u.out.hasPrefix("Updated \(pizza.prefix(8)) \"Pizza (large)\": timer, rings in 30 min"), "\(u.out)")
        #expect(!u.out.contains("\"Pizza\""), "not the old title: \(u.out)")

        let up = try printedId(h, try h.alarmctl(["alarm", "07:30", "--title", "Get up"]).out)
        let a = try h.alarmctl(["update", up, "--time", "06:15", "--days", "mon-fri"])
        #expect(a.status == 0, "\(a.err)")
        #expect(a.out.contains("\"Get up\": alarm, set for ") && a.out.contains("06:15") && a.out.contains("mon-fri"), "\(a.out)")
        let alarm = try #require(try h.snapshot(up))
        #expect(alarm.schedule["hour"] == .uint32(6) && alarm.schedule["minute"] == .uint32(15) && alarm.weekdays.count == 5)

        let help = try h.alarmctl(["update", "--help"])
        #expect(help.status == 0)
        let lines = help.out.split(separator: "\n").map(String.init)
        for option in Invocation.commands["update", default: CommandOptions()].valued.sorted() {
            // One line per option: its name, what it does, and an example using it.
            let line = lines.filter { $0.hasPrefix("  --\(option) ") }
            #expect(line.count == 1, "--\(option): \(line)")
            #expect(line.first.map { $0.components(separatedBy: "--\(option) ").count >= 3 } == true, "an example for --\(option): \(line)")
        }
        #expect(help.out.contains("alarmctl update 3f8f --title"), "a whole example line")
    }
}
