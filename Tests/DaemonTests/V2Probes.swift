// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import AlarmDaemon
import Foundation
import TestSupport

/// What an alarm is and does, as text built from public behaviour only: every `org.alarmd.Alarm1`
/// property at two instants, the state the engine keeps besides them, and what `Update` (merging
/// into or clearing each configuration key), the state changes and the passing of time make of it.
/// `V2Fixture` holds these texts as the alarmd of schema v2 computed them; the migration test
/// computes them again from the migrated store and compares.
enum V2Probes {
    static let zone = Zone.utc

    static func engine(_ alarms: [Alarm], at now: USec) -> AlarmEngine {
        let e = AlarmEngine(clock: ManualClock(now), timeZone: zone, limits: Limits(maxAlarmsPerApp: 100))
        e.load(alarms: alarms, authorizations: [:])
        return e
    }

    /// What alarmd gained after the fixture was recorded: the `Enabled` property and the `enabled`
    /// key. The probes leave them out, so the recorded texts still hold; `enabledIsOn` checks them.
    static let addedProperties: Set<String> = ["Enabled"]
    static let addedKeys: Set<String> = ["enabled"]

    /// A v2 store knew no switch: every alarm it held comes back on.
    static func enabledIsOn(_ a: Alarm) -> Bool {
        a.config.enabled && Alarm1.properties(of: a, now: 0).contains { $0.0 == "Enabled" && $0.1 == .bool(true) }
    }

    static func fingerprint(_ a: Alarm, now: USec) -> String {
        var s = "\(a.id) app=\(a.appId) alertingSince=\(a.flat.alertingSince) measuresDuration=\(String(describing: Optional(a.flat.measuresDuration)))"
        s += " triggerIfMissed=\(a.config.triggerIfMissed)"
        for t in [now, now + 90 * usecPerSecond] {
            for (name, value) in Alarm1.properties(of: a, now: t) where !addedProperties.contains(name) { s += "\n  \(name)=\(value)" }
        }
        return asRecorded(s)
    }

    /// The fixture's texts were printed when the wire value lived in AlarmCore: Swift prints nested
    /// types qualified by their module (`AlarmCore.Value.DictEntry`), and a module's name is no
    /// behaviour, so a probe's text says it as it was then.
    static func asRecorded(_ text: String) -> String {
        text.replacingOccurrences(of: "BusValue.Value", with: "AlarmCore.Value")
    }

    static func outcome(_ body: () throws(AlarmError) -> Mutation, now: USec) -> String {
        do {
            let m = try body()
            var lines = m.upserts.sorted { $0.id < $1.id }.map { "upsert " + fingerprint($0, now: now) }
            lines += m.removals.sorted { $0.alarm.id < $1.alarm.id }.map { "remove \($0.alarm.id) \($0.reason)" }
            lines += m.missed.map { "missed \($0.id)" }.sorted()
            return lines.joined(separator: "\n")
        } catch {
            return "error \(error)"
        }
    }

    /// Changes merged by `Update`, each alone.
    static let changes: [(String, Value)] = [
        ("title", .string("Probe")), ("duration", .uint32(120)), ("duration", .string("2h")), ("hour", .uint32(7)),
        ("minute", .uint32(5)), ("weekdays", .strings(["sunday"])), ("fixed_date", .int64(1_772_500_000)),
        ("end_date", .int64(1_772_460_000)), ("pre_alert", .uint32(60)), ("warning_threshold", .uint32(3_000)),
        ("secondary_button_behavior", .string("custom")), ("accent_color", .string("Red")), ("ring", .bool(false)),
        ("metadata", .vardict([("k", .string("v"))])), ("post_alert", .uint32(30)),
    ]

    /// One text per probe, in a fixed order.
    static func probes(_ alarms: [Alarm], now: USec) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for a in alarms {
            let e = engine(alarms, at: now)
            var lines: [String] = []
            for key in AlarmConfiguration.knownKeys.subtracting(addedKeys).sorted() {
                lines.append("clear \(key): " + outcome({ () throws(AlarmError) in
                    try e.plan(.update(id: a.id, changes: [:], clear: [key]), caller: a.owner) }, now: now))
            }
            for (key, value) in changes {
                lines.append("change \(key)=\(value): " + outcome({ () throws(AlarmError) in
                    try e.plan(.update(id: a.id, changes: [key: value], clear: []), caller: a.owner) }, now: now))
            }
            lines.append("pause: " + outcome({ () throws(AlarmError) in try e.plan(.pause(id: a.id), caller: a.owner) }, now: now))
            lines.append("resume: " + outcome({ () throws(AlarmError) in try e.plan(.resume(id: a.id), caller: a.owner) }, now: now))
            lines.append("countdown: " + outcome({ () throws(AlarmError) in try e.plan(.countdown(id: a.id), caller: a.owner) }, now: now))
            lines.append("stop: " + outcome({ () throws(AlarmError) in try e.plan(.stop(id: a.id), caller: a.owner) }, now: now))
            lines.append("cancel: " + outcome({ () throws(AlarmError) in try e.plan(.cancel(id: a.id), caller: a.owner) }, now: now))
            out[a.id] = lines
        }
        // Time passing over all of them at once: warnings, pre-alerts, alerts, timeouts, missed alarms.
        var later: [String] = []
        for dt: UInt64 in [30, 600, 3_600, 6 * 3_600, 86_400, 8 * 86_400] {
            let t = now + dt * usecPerSecond
            later.append("due +\(dt)s: " + outcome({ () throws(AlarmError) in try engine(alarms, at: t).plan(.due, caller: .user) }, now: t))
        }
        later.append("zone: " + outcome({ () throws(AlarmError) in
            try engine(alarms, at: now).plan(.timeZoneChange(Zone.system("Asia/Tokyo")), caller: .user) }, now: now))
        later.append("step: " + outcome({ () throws(AlarmError) in try engine(alarms, at: now).plan(.clockStep(delta: 3_600_000_000), caller: .user) }, now: now))
        out["time"] = later
        return out
    }

    /// FNV-1a, 64 bits: a stable digest of a probe's text (as recorded).
    static func digest(_ text: String) -> UInt64 {
        let s = asRecorded(text)
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
