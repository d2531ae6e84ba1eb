// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// The alert as every desktop shows it: which app set it, icons every theme has, a notification
/// server that restarts or comes late, and a tap action whose launcher fails.
@Suite(.serialized) struct AlertPresentationTests {
    static let clockEntry = "[Desktop Entry]\nType=Application\nName=Example Clock\nIcon=org.example.Clock\nExec=example-clock\n"

    func hints(_ n: [String: Value]) -> [String: Value] {
        Dictionary(n["hints"]?.unwrapped.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
    }

    @Test func theAlertSaysWhichAppSetIt() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n", notifications: true,
                            desktopEntries: ["org.example.Clock": Self.clockEntry])
        let app = try h.app("org.example.Clock")
        _ = try app.schedule([("title", .string("Tea")), ("duration", .uint32(1)), ("icon", .string("mdi:tea"))])
        let n = try #require(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Tea" } }?.first)
        #expect(n.string("app_name") == "Example Clock", "the app's name from its desktop entry")
        #expect(n.string("icon") == "org.example.Clock", "the app's icon")
        #expect(hints(n)["desktop-entry"] == .string("org.example.Clock"))
        #expect(hints(n)["image-path"] == nil, "an mdi: icon is no icon a notification server knows")

        // The user's own timer: alarmd's name and its own timer icon, which hicolor always has.
        _ = try h.client.schedule([("title", .string("Mine")), ("duration", .uint32(1))])
        let mine = try #require(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Mine" } }?
            .first { $0.string("summary") == "Mine" })
        #expect(mine.string("app_name") == "alarmd" && mine.string("icon") == "alarmd-timer")
        #expect(hints(mine)["desktop-entry"] == nil)

        // An app without a desktop entry: its id, and its alarm's own icon as the image.
        let bare = try h.app("org.example.Bare")
        _ = try bare.schedule([("title", .string("Bare")), ("duration", .uint32(1)), ("icon", .string("appointment-soon"))])
        let b = try #require(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Bare" } }?
            .first { $0.string("summary") == "Bare" })
        #expect(b.string("app_name") == "org.example.Bare" && b.string("icon") == "appointment-soon")
        #expect(hints(b)["image-path"] == .string("appointment-soon"))
    }

    /// Found on Phosh's lock screen: a ringing alarm across two restarts of alarmd showed three cards.
    @Test func aRestartedAlarmdShowsARingingAlarmOnce() throws {
        let h = try Harness(notifications: true)
        let path = try h.client.schedule([("title", .string("Sunrise")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(path, "alerting"))
        #expect(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Sunrise" } } != nil)
        for round in 1...2 {
            // The server answered Notify before it listed the card: a call to alarmd, answered after
            // that reply, makes sure alarmd knows the card's id. (One still unanswered as alarmd exits
            // cannot be closed: it has no id yet.)
            try h.client.barrier()
            try h.restart(kill9: false)
            let shown = h.notifier!.waitFor(pump: [h.client]) { list in
                list.filter { $0.string("summary") == "Sunrise" }.count == round + 1
            }
            let cards = try #require(shown, "shown again by the new alarmd").filter { $0.string("summary") == "Sunrise" }
            #expect(cards.filter { $0.uint32("closed_reason") == 0 }.count == 1, "one card open after restart \(round): \(h.daemon.log)")
            #expect(cards.dropLast().allSatisfy { $0.uint32("closed_reason") == 3 }, "the old ones closed by alarmd as it exited")
        }
    }

    @Test func aRestartedNotificationServerShowsTheRingingAlarmAgain() throws {
        let h = try Harness(notifications: true)
        let path = try h.client.schedule([("title", .string("Bread")), ("duration", .uint32(1))])
        let id = try #require(AlarmID.id(fromPath: path))
        #expect(h.client.waitForState(path, "alerting"))
        #expect(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Bread" } } != nil)

        try h.startNotifier()
        let again = try #require(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Bread" } }, "shown on the new server")
        let n = try #require(again.first { $0.string("summary") == "Bread" })
        #expect(n.uint32("replaces_id") == 0, "a new notification: the old id meant nothing to the new server")
        #expect(n["actions"]?.unwrapped == .strings(["stop", "Stop", "secondary", "Snooze"]), "the user's own timer: Stop and Snooze")
        // Its buttons work on the new server.
        try h.notifier!.invoke(n.uint32("id"), "stop")
        #expect(h.client.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.first == .string(id) && $0.args.last == .string("stopped") } })
    }

    @Test func aServerThatStartsLateStillGetsTheRingingAlarm() throws {
        let h = try Harness()
        let path = try h.client.schedule([("title", .string("Late")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(path, "alerting"))
        #expect(h.daemon.logs("no notification shown"), "no server when it began ringing")
        try h.startNotifier()
        #expect(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Late" } } != nil)
        // A ringing alarm needs its notification; one that ended does not: a stopped one is not re-shown.
        try h.client.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
        try h.startNotifier()
        let extra = try h.client.schedule([("title", .string("Control")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(extra, "alerting"))
        let shown = try #require(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Control" } })
        #expect(!shown.contains { $0.string("summary") == "Late" }, "\(shown.map { $0.string("summary") })")
    }

    @Test func aFailingTapActionLauncherIsLoggedWithItsReason() throws {
        // No portal here, and an xdg-open that fails as it does without a desktop.
        let bin = TempDir("alarmd-bin")
        let script = "#!/bin/sh\necho \"xdg-open: no method available for opening '$1'\" >&2\nexit 3\n"
        try writeExecutable(script, to: bin.path + "/xdg-open")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let h = try Harness(notifications: true, environment: ["PATH": bin.path + ":" + path])
        let alarm = try h.client.schedule([("title", .string("Open me")), ("duration", .uint32(1)),
                                           ("tap_action", .string("https://example.org/recipe"))])
        #expect(h.client.waitForState(alarm, "alerting"))
        let n = try #require(h.notifier!.waitFor(pump: [h.client]) { $0.contains { $0.string("summary") == "Open me" } }?.first)
        try h.notifier!.invoke(n.uint32("id"), "default")
        #expect(h.daemon.logs("the OpenURI portal did not open https://example.org/recipe"), "the portal's refusal, with its reason")
        #expect(h.daemon.logs("xdg-open could not open https://example.org/recipe: it exited with status 3: xdg-open: no method available"),
                "\(h.daemon.log)")
    }

    @Test func shippedIconsResolveThroughTheIconTheme() throws {
        // GTK's own lookup, as a notification server or panel would do it: alarmd's icons laid out as
        // `make install` lays them into share/icons, beside hicolor's own index.theme (which is
        // what makes a directory a theme), and no other theme.
        let root = TempDir("alarmd-icons")
        let dir = root.path
        let copy = try runCommand("/bin/cp", ["-r", Products.sourceRoot + "/data/icons/hicolor", dir + "/"])
        #expect(copy.status == 0, "\(copy.err)")
        try FileManager.default.copyItem(atPath: "/usr/share/icons/hicolor/index.theme", toPath: dir + "/hicolor/index.theme")
        let program = """
            import gi, sys
            gi.require_version('Gtk', '3.0')
            from gi.repository import Gtk
            theme = Gtk.IconTheme.new()
            theme.set_search_path([sys.argv[1]])
            theme.set_custom_theme('hicolor')
            for name in sys.argv[2:]:
                info = theme.lookup_icon(name, 48, 0)
                print(name, info.get_filename() if info else 'MISSING')
            """
        let names = ["alarmd-alarm", "alarmd-timer", "alarmd-alarm-symbolic", "alarmd-timer-symbolic"]
        let r = try runCommand("/usr/bin/python3", ["-c", program, dir] + names)
        #expect(r.status == 0, "\(r.err)")
        for name in names {
            #expect(r.out.contains("\(name) \(dir)/hicolor/"), "\(name): \(r.out)")
        }
        #expect(!r.out.contains("MISSING"))
        for file in names.map({ n in n.hasSuffix("-symbolic") ? "symbolic/apps/\(n).svg" : "scalable/apps/\(n).svg" }) {
            let source = Products.sourceRoot + "/data/icons/hicolor/" + file
            let svg = try String(contentsOfFile: source, encoding: .utf8)
            let lint = try runCommand("/usr/bin/xmllint", ["--noout", source])
            #expect(lint.status == 0 && svg.contains("<svg"), "\(file): \(lint.err)")
        }
    }
}
