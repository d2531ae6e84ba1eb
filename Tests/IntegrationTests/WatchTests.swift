// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// alarmd broadcasts no signal: it addresses each to the connections that called `Watch`, each told
/// of what it may see (docs/API.md, "Signals are addressed to watchers"). Every check here pairs
/// what must not arrive with what must, in the same window.
@Suite struct WatchTests {
    static let clock = "org.example.Clock"
    static let timer = "org.example.Timer"

    /// Two apps and the user's tool, each watching, and a connection that only subscribes.
    struct Audience {
        let h: Harness
        let clock: Client
        let timer: Client
        let silent: Client

        init() throws {
            h = try Harness()
            for app in [WatchTests.clock, WatchTests.timer] {
                try h.client.call("SetAuthorization", [.string(app), .string("authorized")])
            }
            clock = try h.app(WatchTests.clock)
            try clock.subscribe()
            timer = try h.app(WatchTests.timer)
            try timer.subscribe()
            silent = try Client(address: h.bus.address)
            try silent.listen()
        }

        /// Every signal alarmd sent before now has reached every client.
        func settle() throws {
            for c in [h.client!, clock, timer, silent] { try c.barrier() }
        }
    }

    @Test func eachWatcherHearsOfWhatItMaySeeAndNothingElse() throws {
        let a = try Audience()
        let tea = try a.clock.schedule([("title", .string("Clock tea")), ("duration", .uint32(600))])
        let eggs = try a.timer.schedule([("title", .string("Timer eggs")), ("duration", .uint32(300))])
        let teaId = try #require(AlarmID.id(fromPath: tea)), eggsId = try #require(AlarmID.id(fromPath: eggs))
        _ = try a.clock.call("Pause", [.string(teaId)])
        _ = try a.timer.call("Cancel", [.string(eggsId)])
        try a.h.client.call("SetAuthorization", [.string(Self.timer), .string("denied")])
        try a.settle()

        func about(_ c: Client) -> (tea: Int, eggs: Int) {
            let text = c.signals.map { "\($0.path) \($0.args)" }
            return (text.filter { $0.contains(teaId.replacing("-", with: "_")) || $0.contains(teaId) }.count,
                    text.filter { $0.contains(eggsId.replacing("-", with: "_")) || $0.contains(eggsId) }.count)
        }
        // The user's tool hears all of it: added, paused, removed (AlarmRemoved + InterfacesRemoved), both authorizations.
        #expect(a.h.client.signals.named("InterfacesAdded").count == 2)
        #expect(a.h.client.signals.named("AlarmRemoved").map { $0.args.compactMap(\.stringValue) } == [[eggsId, Self.timer, "cancelled"]])
        #expect(a.h.client.signals.named("AuthorizationChanged").map { $0.args.compactMap(\.stringValue) }
                == [[Self.clock, "authorized"], [Self.timer, "authorized"], [Self.timer, "denied"]])
        // Each app hears its own alarm, and never the other's.
        #expect(about(a.clock).tea >= 2 && about(a.clock).eggs == 0, "\(a.clock.signals)")
        #expect(about(a.timer).eggs >= 3 && about(a.timer).tea == 0, "\(a.timer.signals)")
        #expect(a.clock.signals.named("PropertiesChanged").contains { $0.changed["State"] == .string("paused") })
        #expect(a.timer.signals.named("AlarmRemoved").count == 1 && a.clock.signals.named("AlarmRemoved").isEmpty)
        // Its own authorization only.
        #expect(a.timer.signals.named("AuthorizationChanged").map { $0.args.compactMap(\.stringValue) } == [[Self.timer, "denied"]])
        #expect(a.clock.signals.named("AuthorizationChanged").isEmpty)
        // A connection that subscribed and did not watch hears nothing at all.
        #expect(a.silent.signals.isEmpty, "\(a.silent.signals)")
    }

    @Test func theNextFireTimeIsEachCallersOwn() throws {
        let a = try Audience()
        func next(_ c: Client) throws -> UInt64 { uint64(try c.property(managerPath, managerInterface, "NextFireTimeUSec")) }
        let soon = try a.timer.schedule([("title", .string("soon")), ("duration", .uint32(60))])
        let later = try a.clock.schedule([("title", .string("later")), ("duration", .uint32(3600))])
        let soonAt = uint64(try a.h.client.property(soon, alarmInterface, "FireTimeUSec"))
        let laterAt = uint64(try a.h.client.property(later, alarmInterface, "FireTimeUSec"))
        #expect(soonAt > 0 && laterAt > soonAt)
        #expect(try next(a.h.client) == soonAt)
        #expect(try next(a.timer) == soonAt)
        #expect(try next(a.clock) == laterAt, "the clock app learns nothing of the timer app's alarm")
        try a.settle()
        func announced(_ c: Client) -> [UInt64] {
            c.signals.named("PropertiesChanged").filter { $0.path == managerPath }.compactMap { uint64($0.changed["NextFireTimeUSec"]) }
        }
        #expect(announced(a.h.client) == [soonAt])
        #expect(announced(a.timer) == [soonAt])
        #expect(announced(a.clock) == [laterAt])
        // Where the user's files are is not an app's business.
        #expect(try a.clock.property(managerPath, managerInterface, "StorePath") == .string(""))
        #expect(try a.h.client.property(managerPath, managerInterface, "StorePath").stringValue?.hasSuffix("alarmd.sqlite") == true)
    }

    @Test func unwatchingAndRegisteringNarrowWhatAConnectionHears() throws {
        let a = try Audience()
        // A connection that watched as the user's tool and then registers hears of that app alone.
        let late = try Client(address: a.h.bus.address)
        try late.subscribe()
        try late.call("RegisterApp", [.string(Self.timer)])
        _ = try a.timer.call("Unwatch")
        _ = try a.clock.schedule([("title", .string("Clock owns it")), ("duration", .uint32(600))])
        _ = try a.timer.schedule([("title", .string("Timer owns it")), ("duration", .uint32(600))])
        try a.settle()
        try late.barrier()
        let titles = { (c: Client) in c.signals.named("InterfacesAdded").map { "\($0.args)" } }
        #expect(titles(late).count == 1 && titles(late).first?.contains("Timer owns it") == true, "\(titles(late))")
        #expect(titles(a.timer).isEmpty, "it unwatched")
        #expect(titles(a.clock).count == 1 && titles(a.h.client).count == 2)
        // A watcher whose connection closes is forgotten: busctl watches, and exits.
        let once = try a.h.busctlCall(["Watch"])
        #expect(once.status == 0, "\(once.err)")
        #expect(a.h.daemon.logs("closed; it no longer watches"))
    }

    /// A client whose `Watch` starts alarmd (D-Bus activation) hears what alarmd finds at start-up: a
    /// timer that came due while it was down rings, and the watcher is told.
    @Test func aWatchThatStartsAlarmdHearsWhatItFoundAtStartUp() throws {
        let services = TempDir("alarmd-services")
        let state = TempDir("alarmd-activated")
        try "[D-BUS Service]\nName=\(managerName)\nExec=\(Products.alarmd) --state-dir \(state.path)\n"
            .write(toFile: services.path + "/\(managerName).service", atomically: true, encoding: .utf8)
        let bus = try TestBus(serviceDirectory: services.path)
        let first = try Client(address: bus.address)
        let path = try first.schedule([("title", .string("Due while down")), ("duration", .uint32(1))])
        let fires = uint64(try first.property(path, alarmInterface, "FireTimeUSec"))
        let pid = try #require(try first.bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                  "GetConnectionUnixProcessID", [.string(managerName)]).first?.unwrapped)
        guard case .uint32(let daemonPid) = pid else { Issue.record("no pid: \(pid)"); return }
        #expect(kill(pid_t(daemonPid), SIGKILL) == 0)
        #expect(eventually { !first.nameHasOwner(managerName) })
        #expect(eventually(timeout: 5) { SystemClock().now() > fires + 200_000 }, "the timer's time passed while alarmd was down")

        let watcher = try Client(address: bus.address)
        try watcher.listen()
        try watcher.watch()
        #expect(watcher.waitFor(timeout: 10) { $0.named("PropertiesChanged").contains { $0.path == path && $0.changed["State"] == .string("alerting") } },
                "\(watcher.signals)")
        #expect(try watcher.property(path, alarmInterface, "State") == .string("alerting"))
        _ = try watcher.call("Stop", [.string(AlarmID.id(fromPath: path) ?? "")])
    }
}
