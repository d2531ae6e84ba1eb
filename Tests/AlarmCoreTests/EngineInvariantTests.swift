// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing

/// `invariantViolations`, the check every fuzz step makes: silent on what the engine builds itself,
/// loud on bookkeeping that was broken on purpose.
@Suite struct EngineInvariantTests {
    /// An engine with alarms in every state, as the daemon drives them.
    func busyEngine() throws -> (AlarmEngine, ManualClock, [Alarm]) {
        let (e, clock) = makeEngine()
        e.apply(try e.plan(.setAuthorization(app: "org.example.A", state: .authorized), caller: .user))
        let timer = try e.schedule(["duration": .uint32(60), "warning_threshold": .uint32(30)], app: "org.example.A")
        let paused = try e.schedule(["duration": .uint32(600)])
        try e.run { () throws(AlarmError) in try e.plan(.pause(id: paused.id), caller: .user) }
        let daily = try e.schedule(["hour": .uint32(10), "weekdays": .strings(["monday", "tuesday"]), "pre_alert": .uint32(300),
                                    "metadata": .vardict([("k", .variant(.structure([.int16(-2), .string("ü")])))])])
        let fixed = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 90), "subtitle": .string("Soon"), "sound": .string("bell")])
        e.advance(clock, to: monday0900 + 95 * sec)
        #expect(e.state(timer.id) == .alerting && e.state(fixed.id) == .alerting && e.state(paused.id) == .paused
                && e.state(daily.id) == .scheduled)
        return (e, clock, [timer, paused, daily, fixed])
    }

    @Test func anEngineDrivenThroughEveryStateHasNoViolations() throws {
        let (e, clock, alarms) = try busyEngine()
        #expect(e.invariantViolations() == [])
        try e.run { () throws(AlarmError) in try e.plan(.countdown(id: alarms[0].id), caller: .app("org.example.A")) }
        try e.run { () throws(AlarmError) in try e.plan(.cancel(id: alarms[1].id), caller: .user) }
        e.advance(clock, to: monday0900 + 2 * 86_400 * sec)
        #expect(e.invariantViolations() == [])
        #expect(e.count == 1, "only the repeating alarm remains: the others rang out")
    }

    @Test func aDeadlineIndexOutOfStepIsCaught() throws {
        let (e, _, alarms) = try busyEngine()
        let slot = try #require(e.index.find(alarms[2].key, in: e.slots))
        e.deadlines.set(slot, 42)
        let v = e.invariantViolations()
        #expect(v.contains { $0.contains(alarms[2].id) && $0.contains("deadline index") }, "\(v)")
    }

    @Test func aMissingDeadlineIsCaught() throws {
        let (e, _, alarms) = try busyEngine()
        e.pendingAlerts.remove(try #require(e.index.find(alarms[2].key, in: e.slots)))
        let v = e.invariantViolations()
        #expect(v.contains { $0.contains("alert index") }, "\(v)")
    }

    @Test func perAppCountsOutOfStepAreCaught() throws {
        let (e, _, alarms) = try busyEngine()
        // A mutation no plan makes: the same alarm, moved to another app.
        var m = Mutation()
        m.upserts = [Alarm(key: alarms[0].key, appId: "org.example.B", config: alarms[0].config, run: alarms[0].run)]
        e.apply(m)
        let v = e.invariantViolations()
        #expect(v.contains { $0.contains("alarms per app") }, "\(v)")
    }

    @Test func anAlarmTheStoreCannotKeepIsCaught() throws {
        let (e, _, alarms) = try busyEngine()
        let slot = try #require(e.index.find(alarms[3].key, in: e.slots))
        e.slots[slot].config.extras = [99, 1, 2]
        let v = e.invariantViolations()
        #expect(v.contains { $0.contains(alarms[3].id) && $0.contains("stored form") }, "\(v)")
    }
}
