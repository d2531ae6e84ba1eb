// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// The alert notification and app actions, against test peers that speak the published protocols.
@Suite(.serialized) struct AlertNotificationTests {
    func alertOf(_ h: Harness, title: String, nth: Int = 1) throws -> [String: Value] {
        let shown = try #require(h.notifier!.waitFor(pump: [h.client]) { n in n.filter { $0.string("summary") == title }.count >= nth })
        return shown.filter { $0.string("summary") == title }[nth - 1]
    }

    @Test func alertShowsItsActionsAndStopStops() throws {
        let h = try Harness(notifications: true)
        let c = h.client!
        let path = try c.schedule([("title", .string("Pasta")), ("duration", .uint32(1)), ("stop_button", .string("Done")),
                                   ("secondary_button", .string("Snooze")), ("completion_message", .string("Drain it")),
                                   ("subtitle", .string("Spaghetti")), ("icon", .string("org.gnome.Clocks"))])
        let id = AlarmID.id(fromPath: path)!
        #expect(c.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Pasta")
        #expect(n.string("body") == "Drain it\nSpaghetti")
        #expect(n["actions"]?.unwrapped == .strings(["stop", "Done", "secondary", "Snooze"]))
        #expect(n.string("icon") == "org.gnome.Clocks")
        let hints = Dictionary((n["hints"]?.unwrapped.vardictEntries ?? []), uniquingKeysWith: { a, _ in a })
        #expect(hints["urgency"] == .byte(2), "critical")
        #expect(hints["resident"] == .bool(true))
        #expect(hints["sound-name"] == nil && hints["sound-file"] == nil, "alarmd plays the sound itself")
        try h.notifier!.invoke(n.uint32("id"), "stop")
        #expect(c.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args == [.string(id), .string(""), .string("stopped")] } })
        let after = try #require(h.notifier!.waitFor { $0.first?.uint32("closed_reason") != 0 })
        #expect(after[0].uint32("closed_reason") == 3, "resident: alarmd itself closes it once the alarm stopped")
    }

    @Test func alertNamesItselfOnTheLockScreen() throws {
        let h = try Harness(notifications: true)
        let path = try h.client.schedule([("title", .string("Lock")), ("duration", .uint32(1)), ("secondary_button", .string("Snooze"))])
        #expect(h.client.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Lock")
        let hints = Dictionary((n["hints"]?.unwrapped.vardictEntries ?? []), uniquingKeysWith: { a, _ in a })
        #expect(hints["urgency"] == .byte(2), "positive control: the hints of the alert arrived")
        #expect(hints["x-gnome-privacy-scope"] == .string("system"), "GNOME's lock screen shows its title, not only \"alarmd\"")
    }

    @Test func updateWhileRingingUpdatesTheNotification() throws {
        let h = try Harness(notifications: true)
        let path = try h.client.schedule([("title", .string("Oven")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Oven")
        try h.client.call("Update", [.string(AlarmID.id(fromPath: path)!), .vardict([("title", .string("Oven — now!")),
                                                                                    ("secondary_button", .string("Snooze")),
                                                                                    ("sound", .string("chime"))]), .strings([])])
        let updated = try #require(h.notifier!.waitFor { $0.first?.uint32("updates") == 1 })[0]
        #expect(updated.uint32("id") == n.uint32("id") && updated.string("summary") == "Oven — now!")
        #expect(updated["actions"]?.unwrapped == .strings(["stop", "Stop", "secondary", "Snooze"]))
        #expect(try h.client.property(path, alarmInterface, "State") == .string("alerting"), "still ringing")
        #expect(h.daemon.logs("sounds/chime.oga"), "the new sound rings")
    }

    @Test func snoozeFromTheNotificationReplacesIt() throws {
        let h = try Harness(notifications: true)
        let c = h.client!
        let path = try c.schedule([("title", .string("Nap")), ("duration", .uint32(1)), ("secondary_button", .string("Snooze")),
                                   ("post_alert", .uint32(600))])
        let id = AlarmID.id(fromPath: path)!
        #expect(c.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Nap")
        try h.notifier!.invoke(n.uint32("id"), "secondary")
        #expect(c.waitForState(path, "countdown"), "a timer starts counting without a State change; this is the snooze")
        let fire = try c.fireTime(path)
        let f = DateFormatter()
        f.dateFormat = "HH:mm"
        f.timeZone = TimeZone.current
        let replaced = try #require(h.notifier!.waitFor { $0.first?.uint32("updates") == 1 })[0]
        #expect(replaced.uint32("id") == n.uint32("id"), "the same notification, replaced")
        #expect(replaced.string("body") == "Snoozed until \(f.string(from: fire))")
        #expect(replaced["actions"]?.unwrapped == .strings([]))
        #expect(replaced.uint32("closed_reason") == 0)
        // Leaving by another path (Cancel) closes it.
        try c.call("Cancel", [.string(id)])
        #expect(h.notifier!.waitFor { $0.first?.uint32("closed_reason") == 3 } != nil)
    }

    @Test(arguments: ["Stop", "Cancel", "Countdown", "Update", "timeout", "dismiss"])
    func notificationClosesOnEveryExitPath(_ exit: String) throws {
        let h = try Harness(config: "[ringing]\nring_timeout = 2\n", notifications: true)
        let c = h.client!
        let path = try c.schedule([("title", .string("Exit")), ("duration", .uint32(1))])
        let id = AlarmID.id(fromPath: path)!
        #expect(c.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Exit")
        switch exit {
        case "Update": try c.call("Update", [.string(id), .vardict([("duration", .uint32(600))]), .strings([])])
        case "timeout": break
        case "dismiss": try h.notifier!.dismiss(n.uint32("id"))
        default: try c.call(exit, [.string(id)])
        }
        let done = h.notifier!.waitFor(timeout: 5) { list in
            guard let alert = list.first(where: { $0.uint32("id") == n.uint32("id") }) else { return false }
            return exit == "Countdown" ? alert.uint32("updates") == 1 : alert.uint32("closed_reason") != 0
        }
        #expect(done != nil, "the alert notification ends when the alarm leaves alerting by \(exit)")
        if exit == "dismiss" {
            #expect(c.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.last == .string("stopped") } },
                    "dismissing a ringing alarm's notification stops it")
        }
    }

    /// Calls that reach alarmd in one loop pass are applied together and announced in order: a snooze
    /// and a Cancel of the same ringing alarm (pipelined, as a client that sends without waiting does)
    /// must not show "Snoozed until" for an alarm that is already gone. alarmd is held (SIGSTOP) until
    /// the bus has handed it both calls, so they are read in one pass whatever the scheduler does.
    @Test func noNotificationForAnAlarmGoneInTheSamePass() throws {
        let h = try Harness(notifications: true)
        let c = h.client!
        let path = try c.schedule([("title", .string("Gone")), ("duration", .uint32(1)), ("post_alert", .uint32(600))])
        let id = AlarmID.id(fromPath: path)!
        #expect(c.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Gone")
        h.daemon.process.signal(SIGSTOP)
        let snooze = try c.callAsync("Countdown", [.string(id)])
        let cancel = try c.callAsync("Cancel", [.string(id)])
        // The bus driver answers this only after it has passed the two calls before it on to alarmd.
        _ = try c.bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId")
        h.daemon.process.signal(SIGCONT)
        #expect(c.wait(for: snooze) && c.wait(for: cancel))
        #expect(snooze.error == nil && cancel.error == nil, "\(String(describing: snooze.error)) \(String(describing: cancel.error))")
        // What must happen, in the same window: the Cancel closes the alert.
        let closed = h.notifier!.waitFor { $0.first { $0.uint32("id") == n.uint32("id") }?.uint32("closed_reason") == 3 }
        #expect(closed != nil, "the alert is closed")
        try c.barrier()
        let alert = try #require(try h.notifier!.notifications().first { $0.uint32("id") == n.uint32("id") })
        #expect(alert.uint32("updates") == 0 && alert.string("body") != "" && !alert.string("body").hasPrefix("Snoozed"),
                "no \"Snoozed until\" for an alarm cancelled in the same pass: \(alert)")
        #expect(try h.notifier!.notifications().count == 1, "and no other notification")
        #expect(!h.daemon.log.contains("the alarm still rings"))
    }

    /// Run from a checkout (`--icons-dir`, as `make run` passes), alarmd's own icons are not in any
    /// theme the notification server looks in: the alert names the icon's file instead of its name.
    @Test func iconsFromACheckoutAreNamedByFile() throws {
        let h = try Harness(notifications: true, extraArgs: ["--icons-dir", Products.sourceRoot + "/data/icons"])
        let path = try h.client.schedule([("title", .string("Checkout")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Checkout")
        let file = Products.sourceRoot + "/data/icons/hicolor/scalable/apps/alarmd-timer.svg"
        #expect(n.string("icon") == "file://" + file)
        #expect(FileManager.default.contents(atPath: file)?.isEmpty == false)
        // Installed (no --icons-dir), the name, which the hicolor theme resolves.
        let installed = try Harness(notifications: true)
        let p2 = try installed.client.schedule([("title", .string("Installed")), ("duration", .uint32(1))])
        #expect(installed.client.waitForState(p2, "alerting"))
        #expect(try alertOf(installed, title: "Installed").string("icon") == "alarmd-timer")
    }

    @Test func appActionsReachTheOwningApp() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n", notifications: true)
        let appPeer = try PeerProcess(address: h.bus.address, role: ["--app", "org.example.Clock"], name: "org.example.Clock",
                                      log: h.state.path + "/app.log")
        let app = try h.app("org.example.Clock")
        let path = try app.schedule([("title", .string("Laundry")), ("duration", .uint32(1)), ("secondary_button", .string("Again")),
                                     ("secondary_button_behavior", .string("custom")), ("secondary_action", .string("repeat-wash")),
                                     ("stop_action", .string("stopped"))])
        #expect(h.client.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Laundry")
        func activations() throws -> [Value] {
            guard case .array(_, let items)? = try appPeer.client.bus.call("org.example.Clock", "/org/example/Clock", "org.alarmd.TestApp", "Activations").first else { return [] }
            return items
        }
        try h.notifier!.invoke(n.uint32("id"), "secondary")
        #expect(try eventually { try !activations().isEmpty })
        #expect(try activations() == [.string("repeat-wash")])
        #expect(try app.property(path, alarmInterface, "State") == .string("alerting"), "a custom action does not change the state")
        try h.notifier!.invoke(n.uint32("id"), "stop")
        #expect(try eventually { try activations().count == 2 })
        #expect(try activations() == [.string("repeat-wash"), .string("stopped")])
        #expect(h.client.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.last == .string("stopped") } })
        #expect(h.client.waitFor { $0.contains { $0.member == "InterfacesRemoved" && $0.args.first == .objectPath(path) } },
                "an app's alarm stopped from the desktop leaves the object manager too")
    }

    @Test func clickingTheAlertOpensTheTapActionThroughThePortal() throws {
        let h = try Harness(notifications: true)
        let portal = try PeerProcess(address: h.bus.address, role: ["--portal"], name: "org.freedesktop.portal.Desktop",
                                     log: h.state.path + "/portal.log")
        let path = try h.client.schedule([("title", .string("Recipe")), ("duration", .uint32(1)),
                                          ("tap_action", .string("https://example.org/recipe?step=3"))])
        #expect(h.client.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Recipe")
        // The user's own timer offers Snooze too (alarmd gives their alarms one), then the click.
        #expect(n["actions"]?.unwrapped == .strings(["stop", "Stop", "secondary", "Snooze", "default", "Open"]))
        try h.notifier!.invoke(n.uint32("id"), "default")
        func opened() throws -> [Value] {
            let r = try portal.client.bus.call("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", "org.alarmd.TestPortal", "Opened")
            if case .array(_, let items)? = r.first { return items }
            return []
        }
        #expect(try eventually { try !opened().isEmpty })
        #expect(try opened() == [.string("https://example.org/recipe?step=3")])
        #expect(try h.client.property(path, alarmInterface, "State") == .string("alerting"), "opening does not stop the alarm")
    }

    @Test func failingAppActionNeverBlocksStop() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n", notifications: true)
        let app = try h.app("org.example.Gone")   // no such app on the bus
        let path = try app.schedule([("title", .string("Orphan")), ("duration", .uint32(1)), ("stop_action", .string("stopped"))])
        #expect(h.client.waitForState(path, "alerting"))
        let n = try alertOf(h, title: "Orphan")
        try h.notifier!.invoke(n.uint32("id"), "stop")
        #expect(h.client.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args.last == .string("stopped") } })
        #expect(h.daemon.logs("ActivateAction('stopped') on org.example.Gone failed"))
    }

    @Test func withoutANotificationServerTheAlarmStillAlerts() throws {
        let h = try Harness()
        let path = try h.client.schedule([("title", .string("Alone")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(path, "alerting"))
        #expect(h.daemon.logs("no notification shown (org.freedesktop.DBus.Error.ServiceUnknown); the alarm still rings"))
    }

    @Test func sleepInhibitorHeldOnlyWhileRinging() throws {
        let system = try TestBus()
        let logind = try PeerProcess(address: system.address, role: ["--logind"], name: "org.freedesktop.login1",
                                     log: system.dir.path + "/logind.log")
        let h = try Harness(environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        func inhibitors() throws -> [[Value]] {
            guard case .array(_, let items)? = try logind.client.bus.call("org.freedesktop.login1", "/org/freedesktop/login1",
                                                                          "org.alarmd.TestLogind", "Inhibitors").first else { return [] }
            return items.compactMap { if case .structure(let f) = $0, f.first == .string("sleep:idle") { f } else { nil } }
        }
        func wait(_ p: ([[Value]]) -> Bool) throws -> Bool { try eventually(pumping: h.client) { p(try inhibitors()) } }
        #expect(try inhibitors().isEmpty, "nothing rings, nothing is held")
        let a = try h.client.schedule([("title", .string("A")), ("duration", .uint32(1))])
        let b = try h.client.schedule([("title", .string("B")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(a, "alerting") && h.client.waitForState(b, "alerting"))
        #expect(try wait { $0.count == 1 && $0[0].last == .bool(true) })
        #expect(try inhibitors()[0].prefix(4) == [.string("sleep:idle"), .string("alarmd"), .string("An alarm is ringing"), .string("block")])
        try h.client.call("Stop", [.string(AlarmID.id(fromPath: a)!)])
        // Positive control: A's end is announced (and whatever alarmd did about it, it did before
        // this reply); the first query lets the fake logind's loop see an EOF that was already there.
        try h.client.barrier()
        #expect(h.client.signals.contains { $0.path == a && $0.changed["State"] != nil && $0.changed["State"] != .string("alerting") }
                || h.client.signals.contains { $0.member == "AlarmRemoved" && $0.args.first == .string(AlarmID.id(fromPath: a)!) })
        _ = try inhibitors()
        #expect(try inhibitors()[0].last == .bool(true), "still held while B rings")
        try h.client.call("Stop", [.string(AlarmID.id(fromPath: b)!)])
        #expect(try wait { $0.count == 1 && $0[0].last == .bool(false) }, "released once nothing rings")
    }

    /// An alarm that woke the machine rings while logind still finishes the suspend and refuses
    /// inhibitors: alarmd asks again until it holds one, so the woken machine stays awake.
    @Test func sleepInhibitorAskedAgainWhileLogindFinishesASuspend() throws {
        let system = try TestBus()
        let logind = try PeerProcess(address: system.address, role: ["--logind"], name: "org.freedesktop.login1",
                                     log: system.dir.path + "/logind.log")
        let h = try Harness(environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        func control(_ method: String, _ args: [Value] = []) throws -> [Value] {
            try logind.client.bus.call("org.freedesktop.login1", "/org/freedesktop/login1", "org.alarmd.TestLogind", method, args)
        }
        func blockHeld() throws -> Bool {
            guard case .array(_, let items)? = try control("Inhibitors").first else { return false }
            return items.contains { if case .structure(let f) = $0 { f.first == .string("sleep:idle") && f.last == .bool(true) } else { false } }
        }
        _ = try control("Sleep", [.bool(true)])
        #expect(h.daemon.logs("the machine is going to sleep; nothing is pending"))
        let a = try h.client.schedule([("title", .string("Woke")), ("duration", .uint32(1))])
        #expect(h.client.waitForState(a, "alerting"))
        func refused() throws -> UInt32 { if case .uint32(let n)? = try control("Refused").first { n } else { 0 } }
        #expect(try eventually(pumping: h.client) { try refused() >= 2 }, "refused, and asked again, while the suspend runs")
        #expect(try !blockHeld())
        _ = try control("Sleep", [.bool(false)])
        #expect(try eventually(pumping: h.client) { try blockHeld() }, "held once logind has finished")
        #expect(h.daemon.logs("holding a sleep:idle inhibitor while alarms ring (asked"))
    }
}
