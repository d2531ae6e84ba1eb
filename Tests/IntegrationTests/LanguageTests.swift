// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// alarmd in the session's language: the real daemon, started with the LANG a user manager or D-Bus
/// activation hands it and the catalogs compiled from po/ as `make` compiles them, rings a timer of
/// the user's own; its notification (the test notification server's record) and its `Presentation`
/// property say Stop and Snooze in that language, the snooze's time as the locale writes it.
@Suite(.serialized) struct LanguageTests {
    /// po/*.po compiled with msgfmt -c, laid out as /usr/share/locale is (LL/LC_MESSAGES/alarmd.mo).
    static func catalogs() throws -> TempDir {
        let dir = TempDir("alarmd-locale")
        let po = Products.sourceRoot + "/po"
        for file in try FileManager.default.contentsOfDirectory(atPath: po) where file.hasSuffix(".po") {
            let lang = String(file.dropLast(3)), out = "\(dir.path)/\(lang)/LC_MESSAGES"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let r = try runCommand("/usr/bin/msgfmt", ["-c", "-o", out + "/alarmd.mo", "\(po)/\(file)"])
            #expect(r.status == 0, "msgfmt \(file): \(r.err)")
        }
        return dir
    }

    struct Case: Sendable, CustomStringConvertible {
        let locale: String, stop: String, snooze: String, completed: String, snoozedUntil: String
        var description: String { locale }
    }

    static let cases = [
        Case(locale: "de_DE.UTF-8", stop: "Stoppen", snooze: "Schlummern", completed: "Abgelaufen", snoozedUntil: "Schlummert bis "),
        Case(locale: "zh_CN.UTF-8", stop: "停止", snooze: "贪睡", completed: "已完成", snoozedUntil: "贪睡至 "),
        Case(locale: "vi_VN.UTF-8", stop: "Dừng", snooze: "Ngủ thêm", completed: "Đã xong", snoozedUntil: "Ngủ thêm đến "),
    ]

    @Test(arguments: cases)
    func aRingingTimerSpeaksTheSessionsLanguage(_ c: Case) throws {
        let locales = try Self.catalogs()
        // LANG as a session sets it; nothing more specific overrides it.
        let h = try Harness(notifications: true, environment: ["LANG": c.locale, "LC_ALL": "", "LC_MESSAGES": "", "LC_TIME": "",
                                                               "LANGUAGE": "", "ALARMD_LOCALEDIR": locales.path])
        let tea = try h.client.schedule([("title", .string("Tea")), ("duration", .uint32(1)), ("post_alert", .uint32(600))])
        // An app's own words stay as it gave them, beside alarmd's translated ones.
        let app = try h.client.schedule([("title", .string("Oven")), ("duration", .uint32(1)), ("stop_button", .string("Done!"))])
        #expect(h.client.waitForState(tea, "alerting") && h.client.waitForState(app, "alerting"))
        let shown = try #require(h.notifier!.waitFor { n in ["Tea", "Oven"].allSatisfy { t in n.contains { $0.string("summary") == t } } },
                                 "both notifications: \(h.daemon.log.suffix(2_000))")
        let n = shown.first { $0.string("summary") == "Tea" }!
        #expect(n["actions"]?.unwrapped == .strings(["stop", c.stop, "secondary", c.snooze]))
        #expect(n.string("body") == c.completed)
        #expect(shown.first { $0.string("summary") == "Oven" }!["actions"]?.unwrapped == .strings(["stop", "Done!", "secondary", c.snooze]))
        let presentation = Dictionary(try h.client.property(tea, alarmInterface, "Presentation").unwrapped.vardictEntries ?? [],
                                      uniquingKeysWith: { a, _ in a })
        #expect(presentation["stop_button"]?.unwrapped == .string(c.stop) && presentation["secondary_button"]?.unwrapped == .string(c.snooze))

        // Snoozed: the time it rings again, in the locale's clock (24-hour in all three).
        try h.notifier!.invoke(n.uint32("id"), "secondary")
        let replaced = try #require(h.notifier!.waitFor { $0.contains { $0.string("summary") == "Tea" && $0.uint32("updates") == 1 } })
        let body = replaced.first { $0.string("summary") == "Tea" }!.string("body")
        #expect(body.hasPrefix(c.snoozedUntil) && body.dropFirst(c.snoozedUntil.count).wholeMatch(of: /[0-2][0-9]:[0-5][0-9]/) != nil, "\(body)")
    }

    @Test func aTwelveHourLocaleWritesItsClock() throws {
        let locales = try Self.catalogs()
        // en_US has no catalog: English words, the locale's 12-hour clock.
        let h = try Harness(notifications: true, environment: ["LANG": "en_US.UTF-8", "LC_ALL": "", "LANGUAGE": "", "ALARMD_LOCALEDIR": locales.path])
        let tea = try h.client.schedule([("title", .string("Tea")), ("duration", .uint32(1)), ("post_alert", .uint32(600))])
        #expect(h.client.waitForState(tea, "alerting"))
        let n = try #require(h.notifier!.waitFor { $0.contains { $0.string("summary") == "Tea" } })[0]
        #expect(n["actions"]?.unwrapped == .strings(["stop", "Stop", "secondary", "Snooze"]))
        try h.notifier!.invoke(n.uint32("id"), "secondary")
        let replaced = try #require(h.notifier!.waitFor { $0.first?.uint32("updates") == 1 })[0]
        #expect(replaced.string("body").wholeMatch(of: /Snoozed until (1[0-2]|[1-9]):[0-5][0-9] (AM|PM)/) != nil, "\(replaced.string("body"))")
    }
}
