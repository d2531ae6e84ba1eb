import AlarmClient
import AlarmCore
import Foundation
import SDBus

/// The program: global options, then one command.
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
        // Global options come before the command.
        while let a = args.first, a.hasPrefix("-") {
            args.removeFirst()
            switch a {
            case "--address":
                guard !args.isEmpty else { throw .usage("--address needs an address") }
                address = args.removeFirst()
            case _ where a.hasPrefix("--address="):
                address = String(a.dropFirst("--address=".count))
            case "--no-color": noColor = true
            case "--version":
                Output(noColor: true).line("alarmctl \(AlarmCtl.version)")
                return 0
            case "-h", "--help":
                Output(noColor: true).line(Usage.main)
                return 0
            default: throw .usage("unknown option \(a)")
            }
        }
        let command = args.isEmpty ? "list" : args.removeFirst()
        if command == "help" {
            let topic = args.first.flatMap { Usage.commands[$0] } ?? Usage.main
            Output(noColor: true).line(topic)
            return 0
        }
        let out = Output(noColor: noColor)
        if args.contains("--help") || args == ["-h"], let text = Usage.commands[command] {
            out.line(text)
            return 0
        }
        switch command {
        case "list": return try Commands(try connect(), out).list(args)
        case "alarm": return try Commands(try connect(), out).alarm(args)
        case "timer": return try Commands(try connect(), out).timer(args)
        case "update": return try Commands(try connect(), out).update(args)
        case "pause", "resume", "stop", "snooze", "cancel": return try Commands(try connect(), out).transition(command, args)
        case "auth": return try Commands(try connect(), out).auth(args)
        case "status": return try Commands(try connect(), out).status(args)
        case "watch": return try Watch(try connect(), out).run(args)
        case "monitor": return try Monitor(try connect(), out).run(args)
        case "panel": return try Panel(try connect(), out, address: address).run(args)
        case "__complete": return try Commands(try connect(), out).complete(args)
        default: throw .usage("unknown command '\(command)'")
        }
    }

    private func connect() throws(CLIError) -> AlarmManagerProxy {
        do { return try AlarmManagerProxy(address: address) } catch { throw .noBus(error) }
    }
}
