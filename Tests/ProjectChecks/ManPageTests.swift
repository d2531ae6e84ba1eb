// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import Foundation
import TestSupport
import Testing

/// The manual pages in docs/man render cleanly and document what the programs really take.
@Suite struct ManPageTests {
    static let pages = ["alarmctl.1", "alarmd.8", "alarmd.conf.5"]

    func page(_ name: String) -> String { Products.sourceRoot + "/docs/man/" + name }

    /// The page as a reader sees it: plain text, no hyphenation, wide lines, runs of spaces as one.
    func rendered(_ name: String) throws -> String {
        let r = try runCommand("/usr/bin/groff", ["-man", "-Tascii", "-P-cbou", "-rHY=0", "-rLL=300n", page(name)])
        try #require(r.status == 0, "groff \(name): \(r.err)")
        return r.out
    }

    func squeezed(_ s: some StringProtocol) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test(arguments: pages) func pageRendersWithoutWarnings(name: String) throws {
        let groff = try runCommand("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page(name)])
        #expect(groff.status == 0 && groff.err.isEmpty, "groff -ww on \(name): \(groff.err)")
        // mandoc's lint also catches what groff lets through: misplaced sections, bad macro
        // arguments, long lines.
        let mandoc = try runCommand("/usr/bin/mandoc", ["-Tlint", "-Wstyle", page(name)])
        #expect(mandoc.status == 0 && (mandoc.out + mandoc.err).isEmpty, "mandoc -Tlint on \(name): \(mandoc.out)\(mandoc.err)")
        let text = try rendered(name)
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"] {
            #expect(text.contains("\n\(section)\n"), "\(name) has no \(section) section")
        }
    }

    /// Every option `alarmd --help` lists is described in alarmd(8).
    @Test func alarmdPageDocumentsEveryOption() throws {
        let help = try runCommand(Products.alarmd, ["--help"])
        try #require(help.status == 0)
        let options = Set(help.out.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
        try #require(options.count >= 8, "alarmd --help lists too few options: \(help.out)")
        let text = try rendered("alarmd.8")
        for option in options.sorted() {
            // An entry of its own: a tag line of the OPTIONS section names the option.
            let tagged = text.split(separator: "\n").contains { line in
                line.hasPrefix("       ") && line.split(whereSeparator: { $0 == " " || $0 == "," }).contains { $0 == option }
            }
            #expect(tagged, "alarmd.8 does not describe \(option)")
        }
    }

    /// alarmctl(1) has an entry for every command `alarmctl --help` lists, naming every option that
    /// the command's own --help lists, and an entry for every global option.
    @Test func alarmctlPageDocumentsEveryCommandAndOption() throws {
        let help = try AlarmctlHelp()
        let lines = try rendered("alarmctl.1").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func isTag(_ line: String) -> Bool { line.hasPrefix("       ") && !line.hasPrefix("        ") }
        for option in help.globalOptions.sorted() {
            #expect(lines.contains { isTag($0) && $0.split(separator: " ").first.map(String.init) == option },
                    "alarmctl.1 does not describe \(option)")
        }
        for command in help.commands {
            guard let tag = lines.firstIndex(where: { isTag($0) && $0.split(separator: " ").first.map(String.init) == command }) else {
                Issue.record("alarmctl.1 has no entry for the command \(command)")
                continue
            }
            let entry = ([lines[tag]] + lines[(tag + 1)...].prefix { !isTag($0) && ($0.isEmpty || $0.hasPrefix(" ")) }).joined(separator: "\n")
            for option in help.options[command, default: []].sorted() {
                #expect(entry.contains(option), "alarmctl.1 does not name \(option) under \(command)")
            }
        }
    }

    /// alarmctl(1) describes --json with every mode alarmctl takes and what --json alone means,
    /// and names --json under each command whose usage offers it.
    @Test func alarmctlPageDocumentsJSONModes() throws {
        let help = try AlarmctlHelp()
        let lines = try rendered("alarmctl.1").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let tag = try #require(lines.firstIndex { $0.hasPrefix("       --json ") }, "alarmctl.1 has no --json entry")
        let entry = squeezed(lines[tag...].dropFirst().prefix { $0.isEmpty || $0.hasPrefix("        ") }.joined(separator: " "))
        for mode in JSONMode.allCases { #expect(entry.contains(mode.rawValue), "the --json entry does not name \(mode.rawValue)") }
        #expect(entry.contains("--json alone is allowed and means --json=short"), "\(entry)")
        let withJSON = help.options.filter { $0.value.contains("--json") }.keys.sorted()
        #expect(withJSON == ["auth", "list", "monitor", "status"], "the commands whose usage offers --json: \(withJSON)")
        for command in withJSON { #expect(entry.contains(command), "the --json entry does not name \(command)") }
        #expect(help.globalOptions.contains("--json"), "--json is among the global options")
    }

    /// Every key of data/alarmd.conf.example is described in alarmd.conf(5), in its group, with the same default.
    @Test func configPageDocumentsEveryKeyAndItsDefault() throws {
        let example = try String(contentsOfFile: Products.sourceRoot + "/data/alarmd.conf.example", encoding: .utf8)
        var keys: [(group: String, key: String, value: String)] = []
        var group = ""
        for raw in example.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { group = String(line.dropFirst().dropLast()); continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { keys.append((group, parts[0], parts[1])) }
        }
        try #require(keys.count >= 7, "data/alarmd.conf.example has too few keys: \(keys)")
        let lines = try rendered("alarmd.conf.5").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (group, key, value) in keys {
            guard let header = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "[\(group)]" }) else {
                Issue.record("alarmd.conf.5 has no [\(group)] section")
                continue
            }
            let nextHeader = lines[(header + 1)...].firstIndex { $0.hasPrefix("   [") || !$0.hasPrefix(" ") && !$0.isEmpty } ?? lines.endIndex
            let section = lines[(header + 1)..<nextHeader]
            guard let tag = section.firstIndex(where: { $0.hasPrefix("       \(key) =") }) else {
                Issue.record("alarmd.conf.5 does not describe \(key) in [\(group)]")
                continue
            }
            // The description: the indented lines under the tag, up to the next tag.
            let body = section[(tag + 1)...].prefix { $0.isEmpty || $0.hasPrefix("        ") }
            #expect(squeezed(body.joined(separator: " ")).contains("Default: \(value)."),
                    "alarmd.conf.5 gives another default for \(group).\(key) than data/alarmd.conf.example (\(value))")
        }
    }
}
