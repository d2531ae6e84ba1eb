// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import SDBus

/// The program: one command, and global options anywhere on its line.
struct AlarmCtl {
    static let version = "0.1.0"
    var args: [String]
    var address: String?
    var noColor = false

    init(_ arguments: [String]) { args = arguments }

    mutating func run() -> Int32 {
        do {
            return try dispatch()
        } catch {
            Output.error(error.message)
            return error.code
        }
    }

    private mutating func dispatch() throws(CLIError) -> Int32 {
        let line: Invocation
        do { line = try Invocation(args, language: language) } catch { throw .usage(error.message, command: error.command) }
        address = line.address
        noColor = line.noColor
        if line.version {
            Output(noColor: true).line("alarmctl \(AlarmCtl.version)")
            return 0
        }
        let command = line.command ?? "list"
        if line.help {
            // "--help" anywhere: the usage of the command on the line, as `git --help commit` has it.
            Output(noColor: true).line(say(line.command.flatMap { Usage.commands[$0] } ?? Usage.main))
            return 0
        }
        if command == "help" {
            let topic = line.positional.first.flatMap { Usage.commands[$0] } ?? Usage.main
            Output(noColor: true).line(say(topic))
            return 0
        }
        let out = Output(noColor: noColor)
        let a = Arguments(line)
        switch command {
        case "list": return try Commands(try connect(), out).list(a)
        case "alarm": return try Commands(try connect(), out).alarm(a)
        case "timer": return try Commands(try connect(), out).timer(a)
        case "update": return try Commands(try connect(), out).update(a)
        case "pause", "resume", "stop", "snooze", "cancel", "on", "off": return try Commands(try connect(), out).transition(command, a)
        case "auth": return try Commands(try connect(), out).auth(a)
        case "status": return try Commands(try connect(), out).status(a)
        case "watch": return try Watch(try connect(), out).run(a)
        case "monitor": return try Monitor(try connect(), out).run(a)
        case "panel": return try Panel(try connect(), out, address: address).run(a)
        case "__complete": return try Commands(try connect(), out).complete(a.positional)
        default: throw .usage(say(N_("unknown command '%s'", command)))
        }
    }

    private func connect() throws(CLIError) -> AlarmManagerProxy {
        do { return try AlarmManagerProxy(address: address) } catch { throw .noBus(error) }
    }
}
