// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import TestSupport
import Testing

/// What `alarmctl --help` and `alarmctl COMMAND --help` say the tool takes: the reference the man
/// page and the shell completions are checked against.
struct AlarmctlHelp {
    /// The commands of the "Commands:" list, in order.
    let commands: [String]
    /// The options of the "Options:" list (before any command), without --help.
    let globalOptions: Set<String>
    /// Each command's options, from `alarmctl help COMMAND`, without --help.
    let options: [String: Set<String>]

    static func options(in text: String) -> Set<String> {
        Set(text.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }).subtracting(["--help"])
    }

    init() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Products.alarmctl), "alarmctl is not built (\(Products.alarmctl))")
        let main = try runCommand(Products.alarmctl, ["--help"])
        try #require(main.status == 0, "alarmctl --help: \(main.err)")
        var commands: [String] = []
        var section = ""
        var globalText = ""
        for line in main.out.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") { section = line.trimmingCharacters(in: .whitespaces); continue }
            if section == "Commands:" {
                // "  pause ID…  resume ID…        pause or resume countdowns": columns are two or more
                // spaces apart, the last one is the description.
                let columns = line.trimmingCharacters(in: .whitespaces).split(separator: /\s{2,}/)
                commands += columns.dropLast().compactMap { $0.split(separator: " ").first.map(String.init) }
            } else if section == "Options:" {
                globalText += line + "\n"
            }
        }
        try #require(commands.count >= 10, "too few commands in alarmctl --help:\n\(main.out)")
        var options: [String: Set<String>] = [:]
        for command in commands {
            let r = try runCommand(Products.alarmctl, ["help", command])
            try #require(r.status == 0 && r.out.hasPrefix("usage: alarmctl \(command)"), "alarmctl help \(command): \(r.out)\(r.err)")
            options[command] = Self.options(in: r.out)
        }
        self.commands = commands
        self.globalOptions = Self.options(in: globalText)
        self.options = options
    }
}
