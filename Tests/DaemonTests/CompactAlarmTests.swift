// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
@testable import AlarmCore
import Foundation
import Testing
import TestSupport

/// Valid configurations of every shape, and alarms driven into every state by the engine itself.
enum RandomAlarms {
    static let start: USec = 1_772_442_000 * usecPerSecond // 2026-03-02 09:00:00 UTC, a Monday
    static let apps = ["", "org.example.Clock", "org.example.Kitchen", "snap.timer"]
    static let texts = ["", "Tea", "☕ Tee – grün", "Grüße aus Köln", "tab\there", "two\nlines", "Long " + String(repeating: "x", count: 200),
                        "Zeit für 🍕", "x", "Stop", "Pause", "Completed"]

    static func pick<T>(_ items: [T], _ g: inout SeededRandom) -> T { items[Int.random(in: 0..<items.count, using: &g)] }
    static func chance(_ p: Double, _ g: inout SeededRandom) -> Bool { Double.random(in: 0..<1, using: &g) < p }

    static func integer(_ n: UInt32, _ g: inout SeededRandom) -> Value {
        switch Int.random(in: 0..<4, using: &g) {
        case 0: return .uint32(n)
        case 1: return .int32(Int32(n))
        case 2: return .uint64(UInt64(n))
        default: return .int64(Int64(n))
        }
    }

    static func value(_ g: inout SeededRandom, depth: Int) -> Value {
        let leaf = depth >= 3 || chance(0.6, &g)
        if leaf {
            switch Int.random(in: 0..<12, using: &g) {
            case 0: return .byte(UInt8.random(in: 0...255, using: &g))
            case 1: return .bool(chance(0.5, &g))
            case 2: return .int16(Int16.random(in: .min ... .max, using: &g))
            case 3: return .uint16(UInt16.random(in: 0 ... .max, using: &g))
            case 4: return .int32(Int32.random(in: .min ... .max, using: &g))
            case 5: return .uint32(UInt32.random(in: 0 ... .max, using: &g))
            case 6: return .int64(Int64.random(in: .min ... .max, using: &g))
            case 7: return .uint64(UInt64.random(in: 0 ... .max, using: &g))
            case 8: return .double(pick([0.5, -1e300, 3.25, 0, 1e-9], &g))
            case 9: return .objectPath(pick(["/", "/org/example/x"], &g))
            case 10: return .signature(pick(["", "a{sv}", "(ii)"], &g))
            default: return .string(pick(texts, &g))
            }
        }
        switch Int.random(in: 0..<4, using: &g) {
        case 0: return .array(element: "s", (0..<Int.random(in: 0...3, using: &g)).map { _ in .string(pick(texts, &g)) })
        case 1: return .structure((0..<Int.random(in: 0...3, using: &g)).map { _ in value(&g, depth: depth + 1) })
        case 2: return .variant(value(&g, depth: depth + 1))
        default: return metadata(&g, depth: depth + 1)
        }
    }

    static func metadata(_ g: inout SeededRandom, depth: Int = 0) -> Value {
        .vardict((0..<Int.random(in: 0...4, using: &g)).map { i in ("k\(i)", value(&g, depth: depth + 1)) })
    }

    static func configuration(_ g: inout SeededRandom, now: USec) -> [String: Value] {
        var c: [String: Value] = ["title": .string(pick(texts.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }, &g))]
        let s = Int64(now / usecPerSecond)
        switch Int.random(in: 0..<3, using: &g) {
        case 0:
            let at = s + Int64.random(in: 30...(400 * 86_400), using: &g)
            c["fixed_date"] = chance(0.5, &g) ? .int64(at) : .double(Double(at) + pick([0.25, 0.5, 0.000_001, 0.999], &g))
        case 1:
            c["hour"] = integer(UInt32.random(in: 0...23, using: &g), &g)
            if chance(0.6, &g) { c["minute"] = integer(UInt32.random(in: 0...59, using: &g), &g) }
            if chance(0.6, &g) {
                let days = Weekday.allCases.filter { _ in chance(0.4, &g) }
                c["weekdays"] = .strings(days.map { chance(0.2, &g) ? $0.rawValue.capitalized : $0.rawValue } + (chance(0.2, &g) ? ["friday"] : []))
            }
        default:
            let duration: Value = pick([.uint32(UInt32.random(in: 1...90_000, using: &g)), .string("1h30m"), .string("45s"),
                                        .double(Double.random(in: 1...5_000, using: &g))], &g)
            switch Int.random(in: 0..<3, using: &g) {
            case 0: c["duration"] = duration
            case 1: c["end_date"] = .int64(s + Int64.random(in: 5...86_400, using: &g))
            default:
                c["duration"] = duration
                c["end_date"] = .int64(s + Int64.random(in: 5...86_400, using: &g))
            }
        }
        for key in ["subtitle", "status", "countdown_title", "paused_title", "pause_button", "resume_button", "stop_button",
                    "secondary_button", "completion_message"] where chance(0.25, &g) {
            c[key] = .string(pick(texts, &g))
        }
        if chance(0.3, &g) { c["icon"] = .string(pick(["alarm-clock", "mdi:bell-ring", "org.example.Clock"], &g)) }
        for key in ["accent_color", "background_color", "text_color"] where chance(0.25, &g) {
            c[key] = .string(pick(["orange", "#A1B2C3", "#a1b2c3ff", "Red"], &g))
        }
        if chance(0.2, &g) { c["compact_label"] = .string(pick(["", "PZ", "☕", "12ab"], &g)) }
        if chance(0.2, &g) { c["stop_action"] = .string("app.stop") }
        if chance(0.3, &g) {
            c["secondary_button_behavior"] = .string(pick(["countdown", "custom"], &g))
            c["secondary_action"] = .string("app.snooze-\(Int.random(in: 0...9, using: &g))")
        }
        if chance(0.2, &g) { c["tap_action"] = .string(pick(["https://example.org/?q=1", "org.example.Clock:open"], &g)) }
        if chance(0.3, &g) { c["warning_threshold"] = integer(UInt32.random(in: 0...600, using: &g), &g) }
        if chance(0.3, &g) { c["pre_alert"] = integer(UInt32.random(in: 0...7_200, using: &g), &g) }
        if chance(0.3, &g) { c["post_alert"] = integer(UInt32.random(in: 1...86_400, using: &g), &g) }
        if chance(0.2, &g) { c["ring"] = .bool(chance(0.5, &g)) }
        if chance(0.3, &g) { c["sound"] = .string(pick(["default", "bell", "alarm-clock-elapsed", "/usr/share/sounds/x.oga"], &g)) }
        if chance(0.3, &g) { c["metadata"] = metadata(&g) }
        if chance(0.2, &g) { c["volume_ramp"] = integer(UInt32.random(in: 0...3_600, using: &g), &g) }
        if chance(0.2, &g) { c["trigger_if_missed"] = .bool(chance(0.5, &g)) }
        return c
    }

    /// `count` alarms scheduled at `start`, then driven by the engine through time, pauses, snoozes,
    /// sound errors and updates, so that every state and phase occurs.
    static func engine(count: Int, _ g: inout SeededRandom) -> (AlarmEngine, ManualClock) {
        let clock = ManualClock(start)
        let e = AlarmEngine(clock: clock, timeZone: Zone.system("Europe/Berlin"),
                            limits: Limits(maxAlarmsPerApp: 1_000_000), ringTimeout: 3_600, missedGrace: 7 * 86_400)
        // Neither a valid decision, nor what is due, nor a sound error is ever refused.
        for app in apps where !app.isEmpty { e.apply(try! e.plan(.setAuthorization(app: app, state: .authorized), caller: .user)) }
        while e.count < count {
            if let m = try? e.plan(.schedule(id: "", configuration: configuration(&g, now: clock.now())), caller: Caller(appId: pick(apps, &g))) {
                e.apply(m)
            }
        }
        for _ in 0..<6 {
            clock.set(clock.now() + UInt64.random(in: 1...7_200, using: &g) * usecPerSecond)
            e.apply(try! e.plan(.due, caller: .user))
            for a in e.alarms.values where chance(0.3, &g) {
                let plan: Mutation?
                switch a.state {
                case .countdown: plan = try? e.plan(.pause(id: a.id), caller: .user)
                case .paused: plan = try? e.plan(.resume(id: a.id), caller: .user)
                case .alerting: plan = chance(0.5, &g) ? try? e.plan(.countdown(id: a.id), caller: .user) : try! e.plan(.soundError(id: a.id, message: pick(["no sound server", "missing file ☹"], &g)), caller: .user)
                case .scheduled:
                    plan = try? e.plan(.update(id: a.id, changes: [pick(["subtitle", "status"], &g): .string(pick(texts, &g))], clear: []), caller: .user)
                }
                if let plan { e.apply(plan) }
            }
        }
        return (e, clock)
    }

    static func properties(_ a: Alarm, _ now: USec) -> [String] {
        Alarm1.properties(of: a, now: now).map { "\($0.0)=\($0.1)" }
    }
}

@Suite struct CompactAlarmTests {
    /// Every alarm survives its stored form (`Record`), an engine load and a store round trip
    /// unchanged: equal, with identical Alarm1 properties, deadlines and due transitions.
    @Test func everyAlarmSurvivesItsCompactForms() throws {
        var g = SeededRandom.seeded("everyAlarmSurvivesItsCompactForms")
        let (e, clock) = RandomAlarms.engine(count: 400, &g)
        let alarms = e.alarms.values.sorted { $0.key < $1.key }
        #expect(Set(alarms.map(\.state)).count == 4, "every state occurs")
        let now = clock.now()
        for a in alarms {
            let back = try #require(Alarm(record: a.record))
            #expect(back == a)
            for t in [now, now + 1_800 * usecPerSecond] { #expect(RandomAlarms.properties(back, t) == RandomAlarms.properties(a, t)) }
        }

        let loaded = AlarmEngine(clock: clock, timeZone: e.timeZone, limits: e.limits, ringTimeout: e.ringTimeout, missedGrace: e.missedGrace)
        loaded.load(alarms: alarms.shuffled(using: &g), authorizations: e.authorizations)
        #expect(loaded.count == e.count && loaded.nextDeadline == e.nextDeadline && loaded.nextFireTime == e.nextFireTime)
        for a in alarms { #expect(loaded.alarms[a.id] == a) }
        for app in RandomAlarms.apps { #expect(loaded.alarmCount(of: Caller(appId: app)) == e.alarmCount(of: Caller(appId: app))) }

        let dir = StoreDirectory()
        var m = Mutation()
        m.upserts = alarms
        try Store(directory: dir.path).commit(m)
        let (stored, skipped) = try Store(directory: dir.path).loadAlarms()
        #expect(skipped == 0)
        #expect(stored.sorted { $0.key < $1.key } == alarms)
        for (s, a) in zip(stored.sorted { $0.key < $1.key }, alarms) {
            #expect(RandomAlarms.properties(s, now) == RandomAlarms.properties(a, now))
        }

        // Time goes on the same way for the original engine and the ones rebuilt from the forms.
        let fromStore = AlarmEngine(clock: clock, timeZone: e.timeZone, limits: e.limits, ringTimeout: e.ringTimeout, missedGrace: e.missedGrace)
        fromStore.load(alarms: stored, authorizations: e.authorizations)
        for step in 1...8 {
            clock.set(now + UInt64(step * step) * 3_600 * usecPerSecond)
            let expected = try e.plan(.due, caller: .user), fromLoad = try loaded.plan(.due, caller: .user), fromStored = try fromStore.plan(.due, caller: .user)
            func text(_ m: Mutation) -> [String] {
                m.upserts.sorted { $0.key < $1.key }.map { "\($0.id) \(RandomAlarms.properties($0, clock.now()))" }
                    + m.removals.map { "\($0.alarm.id) \($0.reason)" }.sorted() + m.missed.map(\.id).sorted()
            }
            #expect(text(fromLoad) == text(expected) && text(fromStored) == text(expected), "step \(step)")
            e.apply(expected)
            loaded.apply(fromLoad)
            fromStore.apply(fromStored)
            #expect(loaded.nextDeadline == e.nextDeadline && fromStore.nextDeadline == e.nextDeadline)
        }
    }

    /// `raw` is the configuration as `Update` sees it: parsing it again, with nothing fresh, gives
    /// the same configuration; and it matches, key for key, what was given (up to spelling).
    @Test func rawParsesBackToTheSameConfiguration() throws {
        var g = SeededRandom.seeded("rawParsesBackToTheSameConfiguration")
        let now = RandomAlarms.start
        for _ in 0..<2_000 {
            let given = RandomAlarms.configuration(&g, now: now)
            guard let c = try? AlarmConfiguration.parse(given, now: now) else { continue }
            let again = try AlarmConfiguration.parse(c.raw, now: now + 86_400 * usecPerSecond, fresh: [], previous: c)
            #expect(again == c, "\(given)")
            #expect(again.raw == c.raw)
            // Keys of the schedule are there exactly as given; others only when not at their defaults.
            #expect(Set(c.raw.keys).intersection(AlarmConfiguration.scheduleKeys) == Set(given.keys).intersection(AlarmConfiguration.scheduleKeys))
            #expect(Set(c.raw.keys).isSubset(of: given.keys))
        }
    }

    /// What schema v2 wrote of any alarm migrates to that very alarm.
    @Test func v2RowsOfRandomAlarmsMigrateIdentically() throws {
        var g = SeededRandom.seeded("v2RowsOfRandomAlarmsMigrateIdentically")
        let (e, _) = RandomAlarms.engine(count: 200, &g)
        let alarms = e.alarms.values.sorted { $0.key < $1.key }
        let dir = StoreDirectory()
        do {
            let raw = try RawDatabase(dir.database)
            try raw.createV2Schema()
            for a in alarms { try raw.insertV2(id: a.id, app: a.appId, data: SchemaV2.encode(a)) }
        }
        let (migrated, skipped) = try Store(directory: dir.path).loadAlarms()
        #expect(skipped == 0)
        #expect(migrated.sorted { $0.key < $1.key } == alarms)
    }
}
