// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Testing

@Suite struct EngineRulesTests {
    @Test func idsAreNormalizedAndUnique() throws {
        let (e, _) = makeEngine()
        let a = try e.schedule(["duration": .uint32(60)], id: "0B6C2E2A-4F4E-4C41-9D2B-8F0E8C1C9A77")
        #expect(a.id == "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77")
        #expect(a.path == "/org/alarmd/AlarmManager1/alarm/0b6c2e2a_4f4e_4c41_9d2b_8f0e8c1c9a77")
        let dup = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60)], id: a.id) }
        #expect(dup?.name == Contract.ErrorName.alreadyExists)
        // The path form names the same alarm.
        #expect(try e.plan(.cancel(id: "0b6c2e2a_4f4e_4c41_9d2b_8f0e8c1c9a77"), caller: .user).removals.map(\.alarm.id) == [a.id])
        let generated = try e.schedule(["duration": .uint32(60)])
        #expect(UUID(uuidString: generated.id) != nil && generated.id == generated.id.lowercased())
    }

    @Test(arguments: ["bad", "", "0b6c2e2a-4f4e-4c41-9d2b", "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77x", "../../etc"])
    func malformedIdsAreInvalidArgument(_ id: String) {
        let (e, _) = makeEngine()
        let err = expectError { () throws(AlarmError) in _ = try e.plan(.cancel(id: id), caller: .user) }
        #expect(err?.invalidKey == "id")
    }

    @Test func appsSeeOnlyTheirOwnAlarms() throws {
        let (e, _) = makeEngine()
        e.apply(try e.plan(.setAuthorization(app: "org.example.A", state: .authorized), caller: .user))
        e.apply(try e.plan(.setAuthorization(app: "org.example.B", state: .authorized), caller: .user))
        let a = try e.schedule(["duration": .uint32(60)], app: "org.example.A")
        let b = try e.schedule(["duration": .uint32(60)], app: "org.example.B")
        #expect(e.alarms(visibleTo: .app("org.example.A")).map(\.id) == [a.id])
        let err = expectError { () throws(AlarmError) in _ = try e.plan(.cancel(id: b.id), caller: .app("org.example.A")) }
        #expect(err?.name == Contract.ErrorName.notFound)
        #expect(Set(e.alarms(visibleTo: .user).map(\.id)) == [a.id, b.id], "the user's own tools see every app")
        let unknown = expectError { () throws(AlarmError) in _ = try e.plan(.pause(id: AlarmID.make()), caller: .user) }
        #expect(unknown?.name == Contract.ErrorName.notFound)
    }

    @Test func authorizationGatesScheduling() throws {
        let (e, _) = makeEngine()
        #expect(e.authorization(for: .user) == .authorized)
        #expect(e.authorization(for: .app("org.example.New")) == .notDetermined)
        let undetermined = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60)], app: "org.example.New") }
        #expect(undetermined?.name == Contract.ErrorName.notAuthorized)
        e.apply(try e.plan(.setAuthorization(app: "org.example.New", state: .authorized), caller: .user))
        let a = try e.schedule(["duration": .uint32(60)], app: "org.example.New")
        let revoke = try e.plan(.setAuthorization(app: "org.example.New", state: .denied), caller: .user)
        #expect(revoke.removals.map(\.alarm.id) == [a.id] && revoke.removals.map(\.reason) == [.revoked])
        e.apply(revoke)
        let denied = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60)], app: "org.example.New") }
        #expect(denied?.name == Contract.ErrorName.notAuthorized)
        #expect(e.count == 0)
    }

    @Test func perAppLimit() throws {
        let (e, _) = makeEngine(limits: Limits(maxAlarmsPerApp: 3, maxAlarmsShell: 0))
        e.apply(try e.plan(.setAuthorization(app: "org.example.A", state: .authorized), caller: .user))
        var ids: [String] = []
        for _ in 0..<3 { ids.append(try e.schedule(["duration": .uint32(60)], app: "org.example.A").id) }
        let err = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60)], app: "org.example.A") }
        #expect(err?.name == Contract.ErrorName.limitReached)
        for _ in 0..<5 { _ = try e.schedule(["duration": .uint32(60)]) }
        try e.run { () throws(AlarmError) in try e.plan(.cancel(id: ids[0]), caller: .app("org.example.A")) }
        _ = try e.schedule(["duration": .uint32(60)], app: "org.example.A")
        #expect(e.alarmCount(of: .app("org.example.A")) == 3)
    }

    @Test func nextFireTimeIsTheEarliestPendingAlert() throws {
        let (e, _) = makeEngine()
        #expect(e.nextFireTime == nil)
        let late = try e.schedule(["duration": .uint32(600)])
        let early = try e.schedule(["fixed_date": .int64(Int64(monday0900 / sec) + 120), "pre_alert": .uint32(60)])
        #expect(e.nextFireTime == early.fireTime)
        #expect(e.nextDeadline == early.fireTime.map { $0 - 60 * sec }, "the pre-alert start comes first")
        try e.run { () throws(AlarmError) in try e.plan(.cancel(id: early.id), caller: .user) }
        #expect(e.nextFireTime == late.fireTime)
        try e.run { () throws(AlarmError) in try e.plan(.pause(id: late.id), caller: .user) }
        #expect(e.nextFireTime == nil)
    }
}
