// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// How `--json` prints, as systemd's tools name the modes: `short` one compact line, `pretty`
/// indented, `off` as if it were not given.
public enum JSONMode: String, CaseIterable, Equatable, Sendable {
    /// `--json` alone, or `--json=short`.
    case short
    /// `--json=pretty`.
    case pretty
    /// `--json=off`.
    case off
}

/// The options one alarmctl command takes besides the global ones.
public struct CommandOptions: Equatable, Sendable {
    /// `--name VALUE` / `--name=VALUE`.
    public var valued: Set<String>
    /// `--name`, no value.
    public var flags: Set<String>
    /// Whether the command prints state that `--json` can carry.
    public var json: Bool

    /// A command's options.
    ///
    /// - Parameters:
    ///   - valued: The options that take a value.
    ///   - flags: The options that take none.
    ///   - json: Whether the command prints state that `--json` can carry.
    public init(valued: Set<String> = [], flags: Set<String> = [], json: Bool = false) {
        self.valued = valued
        self.flags = flags
        self.json = json
    }
}

/// An alarmctl command line read the way systemctl reads its own: global options anywhere, before
/// or after the command and its arguments; a command's options after the command; `--` ends the
/// options, so what follows is an argument even when it starts with `-`. Pure, so that a unit
/// test can hold every rule of it.
///
/// Option names are kept without their dashes (`title` for `--title`), here and in
/// ``CommandOptions``.
public struct Invocation: Equatable, Sendable {
    /// The bus to use instead of the session bus (`--address ADDRESS`); nil when not given.
    public var address: String?
    /// Whether the output is to be without colours (`--no-color`).
    public var noColor = false
    /// nil when not given; a plain `--json` is `.short`, what `list --json` always printed.
    public var json: JSONMode?
    /// Whether `--help` or `-h` was given.
    public var help = false
    /// Whether `--version` was given.
    public var version = false
    /// nil when the line names none (alarmctl then lists).
    public var command: String?
    /// The command's arguments, in order.
    public var positional: [String] = []
    /// The command's options that take a value, and their values; the last of an option given
    /// twice counts.
    public var values: [String: String] = [:]
    /// The command's options without a value that were given.
    public var flags: Set<String> = []

    /// A usage error; `command` is the command whose `--help` would help, when one was named.
    public struct Failure: Error, Equatable, Sendable {
        /// What is wrong with the line, for the person who typed it.
        public let message: String
        /// The command whose `--help` would help; nil when the line had named no command yet.
        public let command: String?
    }

    /// Options that go anywhere on the line (`--help` and `-h` too).
    ///
    /// These take a value.
    public static let globalValued: Set<String> = ["address"]
    /// Options that go anywhere on the line and take no value (`--json` may take one after `=`).
    public static let globalFlags: Set<String> = ["no-color", "version", "help", "json"]

    /// Every command and its own options. `update` takes what `alarm` and `timer` take but `--id`,
    /// `--silent`, plus `--time` and `--duration`.
    public static let commands: [String: CommandOptions] = [
        "list": CommandOptions(flags: ["all"], json: true),
        "alarm": CommandOptions(valued: ["days", "title", "sound", "sound-file", "snooze", "pre-alert", "id"]),
        "timer": CommandOptions(valued: ["title", "warn", "message", "id"], flags: ["silent"]),
        "update": CommandOptions(valued: ["title", "sound", "sound-file", "snooze", "pre-alert", "days", "time", "duration", "warn", "message"]),
        "pause": CommandOptions(), "resume": CommandOptions(), "stop": CommandOptions(), "snooze": CommandOptions(),
        "cancel": CommandOptions(), "on": CommandOptions(), "off": CommandOptions(),
        "watch": CommandOptions(),
        "monitor": CommandOptions(json: true),
        "panel": CommandOptions(valued: ["format"]),
        "auth": CommandOptions(json: true),
        "status": CommandOptions(json: true),
        "help": CommandOptions(),
        "__complete": CommandOptions(),
    ]

    /// The commands whose output `--json` can be, in the words of the usage.
    public static let jsonCommands = "list, status, auth list and monitor"

    /// The usage error of `--json` given to `command`, which prints none.
    public static func printsNoJSON(_ command: String, _ language: any Language) -> String {
        // Translators: a usage error; %s is the command ("watch"); the commands named after "with" are alarmctl's.
        language.say(N_("'%s' prints no JSON: --json works with list, status, auth list and monitor", command))
    }

    /// Reads a command line.
    ///
    /// - Parameters:
    ///   - args: The arguments after the program's name.
    ///   - commands: The commands and their options; ``Invocation/commands`` but in tests.
    ///   - language: The language of the ``Failure``'s message.
    /// - Throws: ``Failure`` for an unknown command or option, a command's option before the
    ///   command, a value missing or given to an option that takes none, a `--json` mode other than
    ///   `short`, `pretty` or `off`, or `--json` for a command that prints no JSON.
    public init(_ args: [String], commands: [String: CommandOptions] = Invocation.commands,
                language: any Language = English()) throws(Failure) {
        var rest = args[...]
        var onlyArguments = false
        var options: CommandOptions?
        func fail(_ message: String) -> Failure { Failure(message: message, command: options == nil ? nil : command) }

        while let a = rest.popFirst() {
            if onlyArguments || a == "-" || !a.hasPrefix("-") {
                if command == nil {
                    // Translators: a usage error; %s is what was typed.
                    guard let o = commands[a] else { throw Failure(message: language.say(N_("unknown command '%s'", a)), command: nil) }
                    command = a
                    options = o
                } else {
                    positional.append(a)
                }
                continue
            }
            if a == "--" { onlyArguments = true; continue }
            if a == "-h" { help = true; continue }
            guard a.hasPrefix("--") else {
                // Translators: a usage error: %1$s the option as typed, %2$s the command.
                throw fail(command.map { language.say(N_("unknown option %1$s for '%2$s'", a, $0)) }
                           // Translators: a usage error; %s is the option as typed.
                           ?? language.say(N_("unknown option %s", a)))
            }
            let body = a.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            func value() throws(Failure) -> String {
                // A value may start with "-" (a title "-x-"): after an option that takes one, the
                // next word is its value, whatever it looks like, as getopt has it.
                // Translators: a usage error; %s is the option's name, after its dashes.
                guard let v = inline ?? rest.popFirst() else { throw fail(language.say(N_("option --%s needs a value", name))) }
                return v
            }
            func noValue() throws(Failure) {
                // Translators: a usage error; %s is the option's name, after its dashes.
                if inline != nil { throw fail(language.say(N_("option --%s takes no value", name))) }
            }
            switch name {
            case "address": address = try value()
            case "no-color": try noValue(); noColor = true
            case "version": try noValue(); version = true
            case "help": try noValue(); help = true
            case "json":
                guard let mode = inline.map({ JSONMode(rawValue: $0) }) ?? .short else {
                    // Translators: a usage error; %s is the mode as typed.
                    throw fail(language.say(N_("--json takes pretty, short or off, not '%s' (--json alone is --json=short)", inline ?? "")))
                }
                json = mode
            default:
                guard let options else {
                    let owners = commands.filter { $0.value.valued.contains(name) || $0.value.flags.contains(name) }.keys.sorted()
                    // Translators: a usage error; %s is the option's name, after its dashes.
                    if owners.isEmpty { throw fail(language.say(N_("unknown option --%s", name))) }
                    let uses = owners.map { "alarmctl \($0) … --\(name)" }.joined(separator: ", ")
                    // Translators: a usage error: %1$s the option's name, after its dashes, %2$s the commands it is for
                    // ("alarmctl alarm … --title, alarmctl timer … --title").
                    throw fail(language.say(N_("option --%1$s belongs after its command (%2$s)", name, uses)))
                }
                if options.valued.contains(name) {
                    values[name] = try value()
                } else if options.flags.contains(name) {
                    try noValue()
                    flags.insert(name)
                } else {
                    // Translators: a usage error: %1$s the option's name, after its dashes, %2$s the command.
                    throw fail(language.say(N_("unknown option --%1$s for '%2$s'", name, command ?? "")))
                }
            }
        }
        // --help and --version answer whatever else the line says; a --json that a command
        // cannot honour is an error rather than text where a script expects JSON.
        if let json, json != .off, !help, !version, let command, let options, !options.json, command != "help" {
            throw fail(Self.printsNoJSON(command, language))
        }
    }

    /// `json` unless it was `off`.
    public var jsonMode: JSONMode? { json == .off ? nil : json }
}
