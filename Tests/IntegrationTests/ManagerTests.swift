// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus
import TestSupport
import CSystemd
import Glibc
import Testing

@Suite(.serialized) struct ManagerTests {
    @Test func scheduleThroughSDBusAndBusctl() throws {
        let h = try Harness()
        let path = try h.client.schedule([("title", .string("Tea")), ("duration", .string("5m"))])
        #expect(path.hasPrefix("/org/alarmd/AlarmManager1/alarm/"))
        let props = try h.client.allProperties(path)
        #expect(props["Kind"] == .string("timer") && props["State"] == .string("countdown"))
        #expect(uint64(props["CountdownTotalUSec"]) == 300 * usec)

        // The same through busctl, as a newcomer would type it.
        let r = try h.busctlCall(["Schedule", "sa{sv}", "", "3", "title", "s", "Wake up", "hour", "u", "7",
                                  "weekdays", "as", "2", "monday", "friday"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("o \"/org/alarmd/AlarmManager1/alarm/"))
        let busctlPath = String(r.out.split(separator: "\"")[1])
        let state = try h.busctl(["get-property", managerName, busctlPath, alarmInterface, "State"])
        #expect(state.out.trimmingCharacters(in: .whitespacesAndNewlines) == "s \"scheduled\"")
        let schedule = try h.busctl(["get-property", managerName, busctlPath, alarmInterface, "Schedule"])
        #expect(schedule.out.contains("\"weekdays\" as 2 \"monday\" \"friday\""), "\(schedule.out)")

        let all = try h.client.alarms()
        #expect(all.count == 2)
        #expect(Set(all.compactMap { $0["Id"]?.unwrapped.stringValue }).count == 2)
        #expect(all.allSatisfy { $0.count == 21 }, "GetAlarms carries every property")
        let tree = try h.busctl(["tree", "--list", managerName])
        #expect(tree.out.contains(path) && tree.out.contains(busctlPath))
        let managed = try h.client.bus.call(managerName, managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        if case .dict(_, _, let entries)? = managed.first { #expect(entries.count == 2) } else { Issue.record("no managed objects") }
    }

    @Test func everyMethodAnswers() throws {
        let h = try Harness()
        let c = h.client!
        #expect(try c.call("GetAuthorizationState") == [.string("authorized")])
        #expect(try c.call("RequestAuthorization", [.string("to ring your tea timer")]) == [.string("authorized")])
        let empty = callError { () throws(BusError) in try c.call("RequestAuthorization", [.string("")]) }
        #expect(empty?.name == Contract.ErrorName.invalidArgument && empty?.message.hasPrefix("usage_description") == true)
        try c.call("SetAuthorization", [.string("org.example.Clock"), .string("authorized")])
        #expect(try c.call("ListAuthorizations") == [.dict(key: "s", value: "s", [.init(.string("org.example.Clock"), .string("authorized"))])])
        let badState = callError { () throws(BusError) in try c.call("SetAuthorization", [.string("org.example.Clock"), .string("yes")]) }
        #expect(badState?.name == Contract.ErrorName.invalidArgument && badState?.message.hasPrefix("state") == true)

        let id = AlarmID.make()
        let path = try c.schedule([("title", .string("Egg")), ("duration", .uint32(600))], id: id)
        #expect(path == AlarmID.path(of: id))
        try c.call("Update", [.string(id), .vardict([("subtitle", .string("soft"))]), .strings([])])
        #expect(try c.property(path, alarmInterface, "Presentation").vardictEntries?.first { $0.0 == "subtitle" }?.1 == .string("soft"))
        try c.call("Pause", [.string(id)])
        #expect(try c.property(path, alarmInterface, "State") == .string("paused"))
        try c.call("Resume", [.string(id)])
        #expect(try c.property(path, alarmInterface, "State") == .string("countdown"))
        let stop = callError { () throws(BusError) in try c.call("Stop", [.string(id)]) }
        #expect(stop?.name == Contract.ErrorName.invalidState)
        let snooze = callError { () throws(BusError) in try c.call("Countdown", [.string(id)]) }
        #expect(snooze?.name == Contract.ErrorName.invalidState)
        try c.call("Cancel", [.string(id)])
        #expect(try c.alarms().isEmpty)
        for method in ["Cancel", "Stop", "Pause", "Resume", "Countdown"] {
            let e = callError { () throws(BusError) in try c.call(method, [.string(id)]) }
            #expect(e?.name == Contract.ErrorName.notFound, "\(method) on a removed alarm")
        }
        #expect(try c.property(managerPath, managerInterface, "Version") == .string("0.1.0"))
        // The truth of this machine: an RTC that can wake it, and the right to use it.
        let rtcs = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/rtc")) ?? []
        let rtc = rtcs.contains { FileManager.default.fileExists(atPath: "/sys/class/rtc/\($0)/wakealarm") }
        let fd = timerfd_create(CLOCK_REALTIME_ALARM, 0)
        if fd >= 0 { close(fd) }
        #expect(try c.property(managerPath, managerInterface, "WakeSupported") == .bool(rtc && fd >= 0))
        #expect(try c.property(managerPath, managerInterface, "NextFireTimeUSec") == .uint64(0))
    }

    @Test func signalsAndPropertiesChanged() throws {
        let h = try Harness()
        let c = h.client!
        let id = AlarmID.make()
        let path = try c.schedule([("title", .string("Laundry")), ("duration", .uint32(600))], id: id)
        #expect(c.waitFor { $0.contains { $0.member == "InterfacesAdded" && $0.args.first == .objectPath(path) } })
        #expect(c.waitFor { s in s.contains { $0.member == "PropertiesChanged" && $0.path == managerPath && $0.changed["NextFireTimeUSec"] != nil } })
        try c.call("Pause", [.string(id)])
        #expect(c.waitFor { s in s.contains { $0.path == path && $0.changed["State"] == .string("paused") } })
        let paused = c.signals.last { $0.path == path && $0.member == "PropertiesChanged" }!
        #expect(paused.changed["FireTimeUSec"] == .uint64(0), "one PropertiesChanged carries every changed property")
        #expect(paused.changed["ElapsedUSec"] != nil && paused.changed["Progress"] == nil)
        try c.call("Cancel", [.string(id)])
        #expect(c.waitFor { $0.contains { $0.member == "InterfacesRemoved" } })
        let removed = c.signals.firstIndex { $0.member == "AlarmRemoved" }
        let gone = c.signals.firstIndex { $0.member == "InterfacesRemoved" }
        #expect(removed != nil && gone != nil && removed! < gone!, "AlarmRemoved comes before InterfacesRemoved")
        #expect(c.signals[removed!].args == [.string(id), .string(""), .string("cancelled")])
        try c.call("SetAuthorization", [.string("org.example.Clock"), .string("denied")])
        #expect(c.waitFor { $0.contains { $0.member == "AuthorizationChanged" && $0.args == [.string("org.example.Clock"), .string("denied")] } })
    }

    /// A 3-second timer scheduled with busctl reaches `alerting` within 50 ms of its fire time.
    @Test func threeSecondTimerAlertsOnTime() throws {
        let h = try Harness()
        let r = try h.busctlCall(["Schedule", "sa{sv}", "", "2", "title", "s", "Tea", "duration", "s", "3s"])
        #expect(r.status == 0, "\(r.err)")
        let path = String(r.out.split(separator: "\"")[1])
        let fire = uint64(try h.client.property(path, alarmInterface, "FireTimeUSec"))
        #expect(h.client.waitFor(timeout: 6) { s in s.contains { $0.path == path && $0.changed["State"] == .string("alerting") } })
        let alert = h.client.signals.first { $0.path == path && $0.changed["State"] == .string("alerting") }!
        let lateness = Int64(alert.receivedUSec) - Int64(fire)
        print("alerting seen \(Double(lateness) / 1000) ms after FireTimeUSec")
        #expect(lateness >= 0, "never early")
        #expect(lateness < 50_000, "seen \(lateness) µs after the fire time")
        #expect(try h.client.property(path, alarmInterface, "Progress") == .double(1))
        // Stop removes the one-shot timer with reason `stopped`.
        let id = try #require(AlarmID.id(fromPath: path))
        try h.client.call("Stop", [.string(id)])
        #expect(h.client.waitFor { $0.contains { $0.member == "AlarmRemoved" && $0.args == [.string(id), .string(""), .string("stopped")] } })
    }

    @Test func registeredAppsAreIsolated() throws {
        let h = try Harness()
        let a = try Client(address: h.bus.address), b = try Client(address: h.bus.address)
        try a.call("RegisterApp", [.string("org.example.A")])
        try a.call("RegisterApp", [.string("org.example.A")])
        let twice = callError { () throws(BusError) in try a.call("RegisterApp", [.string("org.example.Other")]) }
        #expect(twice?.name == Contract.ErrorName.invalidState)
        let bad = callError { () throws(BusError) in try b.call("RegisterApp", [.string("not an id")]) }
        #expect(bad?.name == Contract.ErrorName.invalidArgument)
        try b.call("RegisterApp", [.string("org.example.B")])
        #expect(try a.call("GetAuthorizationState") == [.string("notDetermined")])
        let unauthorized = callError { () throws(BusError) in _ = try a.schedule([("title", .string("x")), ("duration", .uint32(60))]) }
        #expect(unauthorized?.name == Contract.ErrorName.notAuthorized)
        let notShell = callError { () throws(BusError) in try a.call("SetAuthorization", [.string("org.example.A"), .string("authorized")]) }
        #expect(notShell?.name == Contract.ErrorName.notAuthorized)
        for app in ["org.example.A", "org.example.B"] {
            try h.client.call("SetAuthorization", [.string(app), .string("authorized")])
        }
        let pathA = try a.schedule([("title", .string("A")), ("duration", .uint32(60))])
        let idA = AlarmID.id(fromPath: pathA)!
        #expect(try b.alarms().isEmpty)
        for method in ["Cancel", "Pause"] {
            let e = callError { () throws(BusError) in try b.call(method, [.string(idA)]) }
            #expect(e?.name == Contract.ErrorName.notFound)
        }
        let hidden = callError { () throws(BusError) in _ = try b.property(pathA, alarmInterface, "State") }
        #expect(hidden != nil, "another app's alarm object is not there for B")
        #expect(try a.property(pathA, alarmInterface, "AppId") == .string("org.example.A"))
        #expect(try h.client.alarms().count == 1, "the user's tools see every app's alarms")
        try h.client.call("Pause", [.string(idA)])
        #expect(try a.property(pathA, alarmInterface, "State") == .string("paused"))
    }

    /// Pipelined calls, as a runaway client sends them: the daemon meets them back to back.
    func flood(_ c: Client, _ n: Int) throws -> (served: Int, limited: Int) {
        // Each call may wait as long as the whole flood: the last of 3,000 pipelined calls is answered
        // after all the others, which on a loaded machine under ASan took more than a call's usual 30 s.
        let calls = try (0..<n).map { _ in try c.callAsync("Pause", [.string(AlarmID.make())], timeoutSeconds: 120) }
        #expect(c.waitFor(timeout: 120) { _ in calls.allSatisfy(\.done) }, "a deadline for a loaded machine (ASan, parallel builds), not a speed target")
        let names = calls.map { $0.error?.name ?? "ok" }
        let other = Dictionary(grouping: names.filter { $0 != "ok" && $0 != Contract.ErrorName.notFound && $0 != Contract.ErrorName.limitReached }, by: { $0 })
        #expect(other.isEmpty, "every call is answered NotFound or LimitReached: \(other.mapValues(\.count))")
        return (names.filter { $0 == Contract.ErrorName.notFound }.count, names.filter { $0 == Contract.ErrorName.limitReached }.count)
    }

    /// An app's connection that floods the service gets LimitReached; everyone else is served, and
    /// the user's own tools are not limited at all.
    @Test func floodingConnectionIsLimited() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n")
        let app = try h.app("org.example.Flood")
        let (served, limited) = try flood(app, 3_000)
        print("flood from an app: \(served) served, \(limited) refused with LimitReached")
        #expect(served + limited == 3_000)
        #expect(served >= 1_000, "a burst of 1000 is allowed")
        #expect(limited > 0)
        // In the same window, the user's own tools flood just as hard and are all served.
        let tools = try flood(h.client, 3_000)
        #expect(tools.served == 3_000 && tools.limited == 0, "the user's own tools are not rate-limited")
        #expect(try h.client.call("GetAuthorizationState") == [.string("authorized")])
        _ = try h.client.schedule([("title", .string("unaffected")), ("duration", .uint32(60))])
        #expect(try app.call("GetAlarms").count == 1, "reading is never limited")
    }

    @Test func bothCallLimitsComeFromTheConfiguration() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n[limits]\ncalls_burst = 50\ncalls_per_second = 1\nshell_calls_burst = 20\nshell_calls_per_second = 1\n")
        let app = try h.app("org.example.Flood")
        let a = try flood(app, 200)
        // RegisterApp took one of the 50.
        #expect(a.served >= 49 && a.served < 60 && a.limited == 200 - a.served, "\(a)")
        let tools = try flood(h.client, 200)
        #expect(tools.served >= 20 && tools.served < 30 && tools.limited == 200 - tools.served, "\(tools)")
    }
}
