// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing
import TestSupport

/// `plan(_:caller:)`: the engine's one entry for every change, for the bus, the tests and the fuzzers.
@Suite struct CommandTests {
    /// Ids from a sequence: a run that schedules without ids is the same run every time.
    final class Sequence {
        var n: UInt64 = 0
        func next() -> AlarmKey {
            n += 1
            return AlarmKey(hi: 0x1111_0000_0000_4000, lo: 0x8000_0000_0000_0000 | n)
        }
    }

    func engine() -> (AlarmEngine, ManualClock) {
        let clock = ManualClock(monday0900)
        let ids = Sequence()
        return (AlarmEngine(clock: clock, timeZone: utc, makeID: ids.next), clock)
    }

    @discardableResult
    func run(_ e: AlarmEngine, _ c: Command, as caller: Caller = .user) throws(AlarmError) -> Mutation {
        let m = try e.plan(c, caller: caller)
        e.apply(m)
        return m
    }

    @Test func theInjectedGeneratorNamesAlarmsScheduledWithoutAnId() throws {
        let (e, _) = engine()
        let m = try run(e, .schedule(id: "", configuration: ["title": .string("Tea"), "duration": .uint32(60)]))
        #expect(m.upserts.map(\.id) == ["11110000-0000-4000-8000-000000000001"])
        try run(e, .schedule(id: "", configuration: ["title": .string("Tea"), "duration": .uint32(60)]))
        #expect(e.alarms["11110000-0000-4000-8000-000000000002"] != nil)
    }

    @Test func aTimerThroughItsWholeLifeByCommands() throws {
        let (e, clock) = engine()
        let id = "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77"
        try run(e, .schedule(id: id, configuration: ["title": .string("Tea"), "duration": .uint32(60), "post_alert": .uint32(30)]))
        try run(e, .pause(id: id))
        #expect(e.state(id) == .paused)
        try run(e, .resume(id: id))
        try run(e, .update(id: id, changes: ["subtitle": .string("Green")], clear: []))
        #expect(e.alarms[id]?.config.presentation.subtitle == "Green")
        clock.set(monday0900 + 61 * sec)
        try run(e, .due)
        #expect(e.state(id) == .alerting)
        try run(e, .countdown(id: id))
        #expect(e.alarms[id]?.fireTime == monday0900 + 91 * sec, "snoozed for post_alert")
        clock.set(monday0900 + 92 * sec)
        try run(e, .due)
        try run(e, .soundError(id: id, message: "no sound server"))
        #expect(e.alarms[id]?.soundError == "no sound server")
        let stop = try run(e, .stop(id: id))
        #expect(stop.removals.map(\.reason) == [.stopped] && e.count == 0)
        #expect(e.invariantViolations() == [])
    }

    @Test func theMachinesReportsAreCommandsToo() throws {
        let (e, clock) = engine()
        try run(e, .schedule(id: "", configuration: ["title": .string("Run"), "duration": .string("10m")]))
        try run(e, .schedule(id: "", configuration: ["title": .string("Up"), "hour": .uint32(12)]))
        let timerFire = e.alarms["11110000-0000-4000-8000-000000000001"]!.fireTime
        clock.set(monday0900 + 3_600 * sec)
        let step = try run(e, .clockStep(delta: 3_600 * Int64(sec)))
        #expect(e.alarms["11110000-0000-4000-8000-000000000001"]?.fireTime == timerFire.map { $0 + 3_600 * sec },
                "a running timer keeps its remaining time across a step")
        #expect(step.upserts.count == 1)
        try run(e, .timeZoneChange(Zone.system("Europe/Berlin")))
        #expect(e.timeZone.name == "Europe/Berlin")
        #expect(e.alarms["11110000-0000-4000-8000-000000000002"]?.fireTime == date("2026-03-02 11:00:00"), "noon in Berlin")
    }

    @Test func authorizationIsForTheUsersOwnToolsAndForRealAppIds() throws {
        let (e, _) = engine()
        let fromApp = expectError { () throws(AlarmError) in try run(e, .setAuthorization(app: "org.example.A", state: .denied), as: .app("org.example.A")) }
        #expect(fromApp?.name == Contract.ErrorName.notAuthorized)
        let bad = expectError { () throws(AlarmError) in try run(e, .setAuthorization(app: "not an app", state: .authorized)) }
        #expect(bad?.invalidKey == "app_id")
        try run(e, .setAuthorization(app: "org.example.A", state: .authorized))
        #expect(e.authorization(for: .app("org.example.A")) == .authorized)
        #expect(try e.plan(.setAuthorization(app: "org.example.A", state: .authorized), caller: .user).isEmpty, "no change, nothing to announce")
        try run(e, .schedule(id: "", configuration: ["title": .string("Mine"), "duration": .uint32(60)]), as: .app("org.example.A"))
        let revoked = try run(e, .setAuthorization(app: "org.example.A", state: .denied))
        #expect(revoked.removals.map(\.reason) == [.revoked] && e.count == 0)
    }

    @Test func anotherAppsAlarmIsNotFoundByEveryCommand() throws {
        let (e, _) = engine()
        try run(e, .setAuthorization(app: "org.example.A", state: .authorized))
        try run(e, .setAuthorization(app: "org.example.B", state: .authorized))
        let id = try run(e, .schedule(id: "", configuration: ["title": .string("A's"), "duration": .uint32(60)]), as: .app("org.example.A")).upserts[0].id
        let before = e.alarms.values
        for c: Command in [.cancel(id: id), .stop(id: id), .pause(id: id), .resume(id: id), .countdown(id: id),
                           .update(id: id, changes: ["title": .string("B's now")], clear: [])] {
            let err = expectError { () throws(AlarmError) in try run(e, c, as: .app("org.example.B")) }
            #expect(err?.name == Contract.ErrorName.notFound, "\(c)")
        }
        #expect(e.alarms.values == before)
        #expect(Command.schedule(id: "", configuration: [:]).method == "Schedule" && Command.due.method == nil)
    }
}
