// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import Testing

/// alarmctl's command line, read as systemctl reads its own: global options anywhere, a command's
/// options after it, `--` ending the options.
struct InvocationTests {
    func read(_ line: String) throws -> Invocation {
        try Invocation(line.split(separator: " ").map(String.init))
    }

    func failure(_ args: [String]) -> Invocation.Failure? {
        do { _ = try Invocation(args); return nil } catch { return error }
    }

    @Test func globalOptionsGoAnywhere() throws {
        for line in ["--no-color list --all", "list --no-color --all", "list --all --no-color"] {
            let l = try read(line)
            #expect(l.noColor && l.command == "list" && l.flags == ["all"] && l.positional.isEmpty, "\(line)")
        }
        let after = try read("pause 3f8f --address unix:path=/x")
        #expect(after.address == "unix:path=/x" && after.positional == ["3f8f"])
        let inline = try read("status --address=unix:path=/y")
        #expect(inline.address == "unix:path=/y" && inline.command == "status")
        #expect(try read("list --version").version)
        #expect(try read("timer 5m -h").help && read("--help timer").command == "timer")
        #expect(try read("--no-color").command == nil, "no command: alarmctl lists")
    }

    @Test func jsonModes() throws {
        #expect(try read("list --json").json == .short, "--json alone is short, as list --json always printed")
        #expect(try read("--json=pretty status").json == .pretty)
        #expect(try read("monitor --json=short").json == .short)
        #expect(try read("auth list --json=off").jsonMode == nil, "off is text")
        let bad = failure(["list", "--json=yaml"])
        #expect(bad?.message.contains("--json takes pretty, short or off, not 'yaml'") == true && bad?.command == "list")
        #expect(failure(["list", "--json="]) != nil)
        let noJSON = failure(["timer", "5m", "--json"])
        #expect(noJSON?.message == "'timer' prints no JSON: --json works with list, status, auth list and monitor")
        #expect(failure(["timer", "5m", "--json=off"]) == nil, "off asks for nothing a command cannot do")
        #expect(failure(["timer", "--json", "--help"]) == nil, "help answers whatever else the line says")
        // --json's value is optional, so it never takes the next word.
        let next = try read("list --json pretty")
        #expect(next.json == .short && next.positional == ["pretty"])
    }

    @Test func commandOptionsAndTheirValues() throws {
        let t = try read("timer 25m --title Tea --warn=1m --silent")
        #expect(t.command == "timer" && t.positional == ["25m"] && t.values == ["title": "Tea", "warn": "1m"] && t.flags == ["silent"])
        // A value is the next word, whatever it looks like: a title may start with "-", or be "--help".
        let dash = try Invocation(["timer", "5m", "--title", "-x-", "--message", "--help", "--no-color"])
        #expect(dash.values == ["title": "-x-", "message": "--help"] && !dash.help && dash.noColor)
        #expect(failure(["timer", "5m", "--title"])?.message == "option --title needs a value")
        #expect(failure(["list", "--all=yes"])?.message == "option --all takes no value")
        #expect(failure(["list", "--no-color=1"])?.message == "option --no-color takes no value")
    }

    @Test func doubleDashEndsTheOptions() throws {
        let l = try Invocation(["cancel", "--", "--no-color", "-h", "--title"])
        #expect(l.positional == ["--no-color", "-h", "--title"] && !l.noColor && !l.help)
        let before = try Invocation(["--no-color", "--", "list"])
        #expect(before.command == "list" && before.noColor)
    }

    @Test func unknownOptionsAndCommandsAreNamed() {
        let u = failure(["list", "--bogus"])
        #expect(u?.message == "unknown option --bogus for 'list'" && u?.command == "list")
        #expect(failure(["--bogus", "list"])?.message == "unknown option --bogus")
        #expect(failure(["list", "-x"])?.message == "unknown option -x for 'list'")
        #expect(failure(["frobnicate"])?.message == "unknown command 'frobnicate'")
        // A command's option before the command: say where it belongs.
        let early = failure(["--silent", "timer", "5m"])
        #expect(early?.message.contains("option --silent belongs after its command (alarmctl timer … --silent)") == true)
        #expect(failure(["panel", "--title", "x"])?.message == "unknown option --title for 'panel'")
    }
}
