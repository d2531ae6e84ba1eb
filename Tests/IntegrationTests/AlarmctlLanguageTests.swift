// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import TestSupport
import Testing

/// alarmctl in the user's language (issue #36): the real alarmd and alarmctl on a private bus, with
/// catalogs compiled here from po/*.po, in locales the host has (locales-all). What a person reads
/// follows LANG; what scripts read (--json) does not.
@Suite(.serialized) struct AlarmctlLanguageTests {
    /// po/*.po compiled with msgfmt as `make` compiles them, into a directory of the test's own.
    static func catalogs() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("alarmd-locale-\(UUID().uuidString)").path
        let po = Products.sourceRoot + "/po"
        let languages = try FileManager.default.contentsOfDirectory(atPath: po).filter { $0.hasSuffix(".po") }
        try #require(languages.contains("de.po") && languages.contains("zh_CN.po"), "po/ has de.po and zh_CN.po")
        for file in languages {
            let target = "\(dir)/\(file.dropLast(3))/LC_MESSAGES"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            let r = try runCommand("/usr/bin/msgfmt", ["-c", "-o", target + "/alarmd.mo", po + "/" + file])
            try #require(r.status == 0, "msgfmt \(file): \(r.err)")
        }
        return dir
    }

    /// alarmctl in `locale` alone: the test runner's own LC_* and LANGUAGE would override LANG.
    func alarmctl(_ h: Harness, _ args: [String], locale: String, catalogs: String) throws -> (status: Int32, out: String, err: String) {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LC_") && $0.key != "LANGUAGE" }
        env["LANG"] = locale
        env["ALARMD_LOCALEDIR"] = catalogs
        return try runCommand(Products.alarmctl, ["--address", h.bus.address] + args, environment: env)
    }

    @Test func germanListAndErrorsJSONUnchanged() throws {
        let catalogs = try Self.catalogs()
        defer { try? FileManager.default.removeItem(atPath: catalogs) }
        let h = try Harness()
        let set = try alarmctl(h, ["alarm", "07:30", "--days", "mon-fri", "--title", "Aufstehen"], locale: "de_DE.UTF-8", catalogs: catalogs)
        #expect(set.status == 0, "\(set.err)")
        #expect(set.out.hasPrefix("Wecker ") && set.out.contains("„Aufstehen“") && set.out.contains("Mo–Fr"), "\(set.out)")

        let list = try alarmctl(h, ["list"], locale: "de_DE.UTF-8", catalogs: catalogs)
        #expect(list.status == 0, "\(list.err)")
        let row = try #require(list.out.split(separator: "\n").first { $0.contains("Aufstehen") }.map(String.init))
        // German kind, state and weekday abbreviations, the 24-hour clock of de_DE.
        #expect(row.contains("Wecker") && row.contains("geplant") && row.contains("Mo–Fr") && row.contains("07:30"), "\(row)")
        #expect(!row.contains("mon-fri") && !row.contains("scheduled"), "\(row)")

        let wrong = try alarmctl(h, ["alarm", "25:00"], locale: "de_DE.UTF-8", catalogs: catalogs)
        #expect(wrong.status == 2)
        #expect(wrong.err == "alarmctl: die Uhrzeit „25:00“ gibt es nicht: ein Tag hat keine Stunde 25 (Stunden gehen von 00 bis 23)\n"
                + "Siehe „alarmctl alarm --help“.\n", "\(wrong.err)")

        // --json is for scripts: what the C locale prints, English state names and all (but the
        // remaining time, which moved on between the two calls).
        let german = try alarmctl(h, ["list", "--json"], locale: "de_DE.UTF-8", catalogs: catalogs)
        let c = try alarmctl(h, ["list", "--json"], locale: "C.UTF-8", catalogs: catalogs)
        func still(_ json: String) throws -> [NSDictionary] {
            let alarms = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            return alarms.map { $0.filter { $0.key != "RemainingUSec" && $0.key != "Progress" } as NSDictionary }
        }
        #expect(german.status == 0 && c.status == 0)
        #expect(try still(german.out) == still(c.out), "\(german.out)")
        #expect(german.out.contains("\"State\":\"scheduled\"") && german.out.contains("\"friday\""), "\(german.out)")
        let status = try alarmctl(h, ["status", "--json"], locale: "de_DE.UTF-8", catalogs: catalogs)
        #expect(status.out.contains("\"kind\":\"alarm\"") && status.out.contains("\"running\":true"), "\(status.out)")

        // The C locale is English, as alarmctl always wrote it.
        let english = try alarmctl(h, ["list"], locale: "C.UTF-8", catalogs: catalogs)
        #expect(english.out.contains("mon-fri") && english.out.contains("scheduled"), "\(english.out)")
    }

    @Test func simplifiedChineseList() throws {
        let catalogs = try Self.catalogs()
        defer { try? FileManager.default.removeItem(atPath: catalogs) }
        let h = try Harness()
        _ = try alarmctl(h, ["alarm", "07:30", "--days", "mon-fri", "--title", "起床"], locale: "C.UTF-8", catalogs: catalogs)
        let list = try alarmctl(h, ["list"], locale: "zh_CN.UTF-8", catalogs: catalogs)
        #expect(list.status == 0, "\(list.err)")
        let row = try #require(list.out.split(separator: "\n").first { $0.contains("起床") }.map(String.init))
        #expect(row.contains("闹钟") && row.contains("周一至周五") && row.contains("07:30"), "\(row)")
        // The columns line up on a terminal, where each of these characters takes two columns.
        let header = try #require(list.out.split(separator: "\n").first.map(String.init))
        func columns(before text: String, in line: String) throws -> Int {
            let prefix = try #require(line.range(of: text).map { line[..<$0.lowerBound] })
            return prefix.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 ? 2 : 1) }
        }
        #expect(try columns(before: "标题", in: header) == columns(before: "起床", in: row), "\(list.out)")
    }
}
