// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import Foundation
import TestSupport
import Testing

/// The shell completions in data/completions/ as bash, zsh and fish run them: commands, options, option
/// values, and the alarm and app ids that the real alarmctl fetches from a real daemon.
@Suite(.serialized) struct CompletionTests {
    static let commands: Set = ["list", "alarm", "timer", "update", "pause", "resume", "stop", "snooze", "cancel",
                                "on", "off", "watch", "monitor", "panel", "auth", "status", "help"]
    static let formats: Set = ["waybar", "i3bar", "polybar", "plain"]
    static let timerOptions: Set = ["--title", "--warn", "--message", "--silent", "--id", "--help"]

    static let pizza = "3f8f8e00-a75c-4163-9b08-b277213fb980"
    static let getUp = "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77"

    func file(_ name: String) -> String { Products.sourceRoot + "/data/completions/" + name }

    /// Lines to complete (each up to the cursor) → the candidates the shell offers for each.
    typealias Completer = (_ lines: [String], _ environment: [String: String]) throws -> [[String]]

    /// bash: the function registered for alarmctl, driven as readline drives it (COMP_LINE,
    /// COMP_POINT, and COMP_WORDS split at blanks and at the = and : of COMP_WORDBREAKS), with
    /// bash-completion loaded as it is in an interactive shell.
    func bash(_ lines: [String], _ environment: [String: String]) throws -> [[String]] {
        let dir = TempDir("alarmd-bash")
        let driver = #"""
            source /usr/share/bash-completion/bash_completion
            source "$1"
            shift
            for line in "$@"; do
                COMP_LINE=$line COMP_POINT=${#line}
                read -ra COMP_WORDS <<< "$(sed -E 's/([=:]+)/ \1 /g' <<< "$line")"
                [[ $line == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                COMPREPLY=()
                spec=$(complete -p alarmctl) || exit 1
                function=${spec#*-F } function=${function%% *}
                "$function" alarmctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                echo "<<<"
                printf '%s\n' "${COMPREPLY[@]}"
            done
            """#
        try driver.write(toFile: dir.path + "/driver.bash", atomically: true, encoding: .utf8)
        let r = try runCommand("/bin/bash", [dir.path + "/driver.bash", file("alarmctl.bash")] + lines, environment: environment)
        try #require(r.status == 0 && r.err.isEmpty, "bash: \(r.err)")
        return split(r.out)
    }

    /// fish: `complete -C`, which prints a candidate per line, its description after a tab.
    func fish(_ lines: [String], _ environment: [String: String]) throws -> [[String]] {
        let r = try runCommand("/usr/bin/fish", ["-c", "source $argv[1]; for l in $argv[2..-1]; echo '<<<'; complete -C $l; end",
                                                 file("alarmctl.fish")] + lines, environment: environment)
        try #require(r.status == 0 && r.err.isEmpty, "fish: \(r.err)")
        return split(r.out).map { $0.map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") } }
    }

    /// zsh: a real interactive zsh in a pseudo-terminal (zpty) with compinit and this directory on
    /// fpath, where each line is typed followed by TAB; compadd is wrapped to record what the
    /// completion functions offer.
    func zsh(_ lines: [String], _ environment: [String: String]) throws -> [[String]] {
        let dir = TempDir("alarmd-zsh")
        try FileManager.default.createDirectory(atPath: dir.path + "/functions", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file("_alarmctl"), toPath: dir.path + "/functions/_alarmctl")
        let out = dir.path + "/matches"
        let driver = #"""
            zmodload zsh/zpty
            fdir=$1 out=$2
            shift 2
            zpty z zsh -f -i
            # A marker the shell computes (never the echo of what was typed), then its next prompt:
            # only then is the line editor reading keys again. Keys sent earlier reach the terminal's
            # cooked mode, where a TAB is just a TAB.
            sync() {
              zpty -w z "print -r -- \$(( $1 * 1000 + 7 ))-done"
              zpty -r -m z junk "*$(( $1 * 1000 + 7 ))-done*" && zpty -r -m z junk "*<zle-ready>*"
            }
            zpty -w z "PS1='<'zle-ready'>'; fpath=($fdir \$fpath); autoload -Uz compinit; compinit -u -D; LISTMAX=100000"
            zpty -w z "compadd() { local -a m; builtin compadd -O m \"\$@\"; (( \$#m )) && print -rl -- \$m >> $out.tmp; builtin compadd \"\$@\"; }"
            sync 0 || exit 1
            n=0
            for l in "$@"; do
              n=$((n + 1))
              zpty -w -n z "$l"$'\t'
              zpty -w z $'\C-e\C-u'"mv $out.tmp $out.$n 2>/dev/null || : > $out.$n"
              sync $n || { print -r -- "no prompt after completing '$l'" >&2; exit 1; }
            done
            zpty -d z
            """#
        try driver.write(toFile: dir.path + "/driver.zsh", atomically: true, encoding: .utf8)
        // A hung terminal session must not hang the suite.
        let r = try runCommand("/usr/bin/timeout", ["60", "/usr/bin/zsh", "-f", dir.path + "/driver.zsh", dir.path + "/functions", out] + lines,
                               environment: environment)
        try #require(r.status == 0, "zsh: \(r.err)")
        return try (1...lines.count).map { n in
            try String(contentsOfFile: "\(out).\(n)", encoding: .utf8).split(separator: "\n").map(String.init)
        }
    }

    func split(_ out: String) -> [[String]] {
        out.components(separatedBy: "<<<\n").dropFirst().map { $0.split(separator: "\n").map(String.init) }
    }

    func completer(_ shell: String) -> Completer {
        switch shell {
        case "bash": return bash
        case "fish": return fish
        default: return zsh
        }
    }

    /// What needs no daemon: commands, options per command, option values, auth subcommands.
    @Test(arguments: ["bash", "zsh", "fish"]) func completesCommandsOptionsAndValues(shell: String) throws {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let got = try completer(shell)(["alarmctl ", "alarmctl s", "alarmctl --", "alarmctl timer 5m --",
                                        "alarmctl panel --format ", "alarmctl auth ", "alarmctl help ",
                                        "alarmctl alarm 07:30 --days week"], env).map(Set.init)
        try #require(got.count == 8, "\(shell) answered \(got.count) of 8 lines")
        #expect(got[0] == Self.commands, "\(shell): commands")
        #expect(got[1] == ["stop", "snooze", "status"], "\(shell): commands starting with s")
        #expect(got[2] == ["--address", "--no-color", "--json", "--version", "--help"], "\(shell): global options")
        #expect(got[3] == Self.timerOptions, "\(shell): timer options")
        #expect(got[4] == Self.formats, "\(shell): --format values")
        #expect(got[5] == ["list", "allow", "deny", "reset"], "\(shell): auth subcommands")
        #expect(got[6] == Self.commands, "\(shell): help topics")
        #expect(got[7] == ["weekdays", "weekends"], "\(shell): --days values")
    }

    /// `--json=` completes to the modes alarmctl takes, at the start of the line and after the
    /// commands that print JSON, and to nothing after one that does not.
    @Test(arguments: ["bash", "zsh", "fish"]) func completesJSONModes(shell: String) throws {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let modes = Set(JSONMode.allCases.map(\.rawValue))
        let lines = ["alarmctl --json=", "alarmctl list --json=", "alarmctl status --json=", "alarmctl auth list --json=",
                     "alarmctl monitor --json=", "alarmctl status --json=p", "alarmctl timer 5m --json="]
        // fish offers the whole word (--json=pretty), bash and zsh what follows the "=".
        let got = try completer(shell)(lines, env).map { Set($0.map { $0.hasPrefix("--json=") ? String($0.dropFirst(7)) : $0 }) }
        try #require(got.count == lines.count, "\(shell) answered \(got.count) of \(lines.count) lines")
        for (line, offered) in zip(lines, got).prefix(5) { #expect(offered == modes, "\(shell): \(line)") }
        #expect(got[5] == ["pretty"], "\(shell): a mode's prefix")
        #expect(got[6].isEmpty, "\(shell): timer prints no JSON: \(got[6])")
    }

    /// After `alarmctl COMMAND --` the shell offers exactly the options `alarmctl COMMAND --help`
    /// lists (and --help), and after `alarmctl --` the global ones: completions and tool agree.
    @Test(arguments: ["bash", "zsh", "fish"]) func offersTheOptionsAlarmctlTakes(shell: String) throws {
        let help = try AlarmctlHelp()
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let commands = help.commands
        let got = try completer(shell)(["alarmctl --"] + commands.map { "alarmctl \($0) --" }, env).map(Set.init)
        try #require(got.count == commands.count + 1, "\(shell) answered \(got.count) of \(commands.count + 1) lines")
        #expect(got[0] == help.globalOptions.union(["--help"]), "\(shell): global options")
        for (command, offered) in zip(commands, got.dropFirst()) {
            #expect(offered == help.options[command, default: []].union(["--help"]), "\(shell): options of \(command)")
        }
    }

    /// Ids and app ids come from the daemon through the real alarmctl (`__complete ids` /
    /// `__complete apps`), on the bus of the session or the one given with --address.
    @Test(arguments: ["bash", "zsh", "fish"]) func completesIdsFromTheDaemon(shell: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Products.alarmctl), "alarmctl is not built (\(Products.alarmctl))")
        let h = try Harness()
        _ = try h.client.schedule([("title", .string("Pizza")), ("duration", .string("25m"))], id: Self.pizza)
        _ = try h.client.schedule([("title", .string("Get up")), ("hour", .uint32(6)), ("minute", .uint32(45))], id: Self.getUp)
        try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string("denied")])

        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Products.directory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["DBUS_SESSION_BUS_ADDRESS"] = h.bus.address
        let got = try completer(shell)(["alarmctl cancel ", "alarmctl stop \(Self.pizza) ", "alarmctl update ",
                                        "alarmctl update \(Self.pizza) --ti", "alarmctl pause 0b", "alarmctl auth deny "], env).map(Set.init)
        try #require(got.count == 6, "\(shell) answered \(got.count) of 6 lines")
        #expect(got[0] == [Self.pizza, Self.getUp], "\(shell): ids for cancel")
        #expect(got[1] == [Self.getUp], "\(shell): an id already given is offered again")
        #expect(got[2] == [Self.pizza, Self.getUp], "\(shell): the id update takes")
        #expect(got[3] == ["--title", "--time"], "\(shell): update's options after its id")
        #expect(got[4] == [Self.getUp], "\(shell): a prefix of an id")
        #expect(got[5] == ["org.example.Clock"], "\(shell): app ids for auth deny")

        // No session bus: the ids come from the bus given on the command line.
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        let viaAddress = try completer(shell)(["alarmctl --address \(h.bus.address) snooze "], env).map(Set.init)
        #expect(viaAddress.first == [Self.pizza, Self.getUp], "\(shell): ids with --address")
    }

    /// fish shows each id with its alarm's title.
    @Test func fishDescribesIdsByTitle() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Products.alarmctl), "alarmctl is not built (\(Products.alarmctl))")
        let h = try Harness()
        _ = try h.client.schedule([("title", .string("Pizza")), ("duration", .string("25m"))], id: Self.pizza)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Products.directory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["DBUS_SESSION_BUS_ADDRESS"] = h.bus.address
        let r = try runCommand("/usr/bin/fish", ["-c", "source $argv[1]; complete -C 'alarmctl cancel '", file("alarmctl.fish")], environment: env)
        #expect(r.out == "\(Self.pizza)\tPizza\n", "fish offered: \(r.out) \(r.err)")
    }

    @Test func scriptsParse() throws {
        let bash = try runCommand("/bin/bash", ["-n", file("alarmctl.bash")])
        #expect(bash.status == 0 && bash.err.isEmpty, "bash -n: \(bash.err)")
        let zsh = try runCommand("/usr/bin/zsh", ["-n", file("_alarmctl")])
        #expect(zsh.status == 0 && zsh.err.isEmpty, "zsh -n: \(zsh.err)")
        let fish = try runCommand("/usr/bin/fish", ["--no-execute", file("alarmctl.fish")])
        #expect(fish.status == 0 && fish.err.isEmpty, "fish --no-execute: \(fish.err)")
    }
}
