import AlarmCore
import Foundation
import Testing

/// Writes V2Fixture.swift with this alarmd (schema v2): the rows its Store writes (its own JSONEncoder on
/// `Alarm`) and what its engine makes of them. Runs only when asked:
/// `ALARMD_V2_FIXTURE_OUT=Tests/DaemonTests/V2Fixture.swift swift test --filter GenerateV2Fixture`.
@Suite struct GenerateV2Fixture {
    @Test func generate() throws {
        guard let out = ProcessInfo.processInfo.environment["ALARMD_V2_FIXTURE_OUT"] else { return }
        let t0: USec = 1_772_442_000 * usecPerSecond // 2026-03-02 09:00:00 UTC, a Monday
        let clock = ManualClock(t0)
        let e = AlarmEngine(clock: clock, timeZone: V2Probes.zone)
        e.apply(e.planSetAuthorization(app: "org.example.Clock", state: .authorized))
        func id(_ n: Int) -> String { String(format: "0b6c2e2a-4f4e-4c41-9d2b-%012x", n) }
        func schedule(_ n: Int, _ c: [String: Value], app: String = "") throws {
            e.apply(try e.planSchedule(app: app, id: id(n), configuration: c))
        }
        let s0 = Int64(t0 / usecPerSecond)
        try schedule(1, ["title": .string("Pizza"), "duration": .string("25m"), "warning_threshold": .uint32(60),
                         "compact_label": .string("PZ"), "accent_color": .string("ORANGE"), "status": .string("Baking"),
                         "metadata": .vardict([("recipe", .string("bread")), ("n", .int32(3)),
                                               ("nested", .vardict([("a", .array(element: "y", [.byte(1), .byte(2)]))])),
                                               ("when", .variant(.double(2.5))), ("ok", .bool(true)),
                                               ("pairs", .dict(key: "s", value: "i", [.init(.string("x"), .int32(-1))])),
                                               ("tuple", .structure([.uint16(7), .int16(-7), .uint64(1 << 40), .int64(-5)])),
                                               ("path", .objectPath("/org/example/a")), ("sig", .signature("a{sv}")),
                                               ("u", .uint32(4_000_000_000))])])
        try schedule(2, ["title": .string("Tea ☕ – grün"), "duration": .uint32(600)])
        try schedule(3, ["title": .string("Bus"), "duration": .uint32(600), "end_date": .int64(s0 + 3_600)], app: "org.example.Clock")
        try schedule(4, ["title": .string("Get up"), "hour": .uint32(6), "minute": .uint32(45),
                         "weekdays": .strings(["monday", "tuesday", "wednesday", "thursday", "friday"]),
                         "subtitle": .string("Bring the card"), "icon": .string("mdi:alarm"), "accent_color": .string("#336699"),
                         "background_color": .string("#112233AA"), "text_color": .string("white"),
                         "stop_button": .string(""), "secondary_button": .string("Later"),
                         "secondary_button_behavior": .string("custom"), "secondary_action": .string("app.snooze"),
                         "countdown_title": .string("Soon"), "pause_button": .string("Hold"), "paused_title": .string("Held"),
                         "resume_button": .string("Go on"), "stop_action": .string("app.stop"),
                         "tap_action": .string("https://example.org/wake?x=1"), "completion_message": .string("Done!"),
                         "pre_alert": .uint32(600), "post_alert": .uint32(120), "ring": .bool(true),
                         "sound": .string("/usr/share/sounds/alarmd/x.oga"), "volume_ramp": .uint32(30),
                         "trigger_if_missed": .bool(true)])
        try schedule(5, ["title": .string("Lunch"), "hour": .int32(11), "minute": .uint16(20), "pre_alert": .uint32(7_200)])
        try schedule(6, ["title": .string("Ten"), "hour": .uint32(10), "status": .string("")])
        try schedule(7, ["title": .string("Call back"), "fixed_date": .double(Double(s0) + 1_440.25), "sound": .string("bell")])
        try schedule(8, ["title": .string("Tomorrow"), "fixed_date": .int64(s0 + 86_400), "ring": .bool(false),
                         "metadata": .vardict([]), "stop_button": .string("Stop"), "volume_ramp": .uint32(0)])
        try schedule(9, ["title": .string("Snoozer"), "duration": .uint32(60), "post_alert": .uint32(3_600)])
        try schedule(10, ["title": .string("Late"), "hour": .uint32(23), "minute": .uint32(59),
                          "weekdays": .strings(["sunday", "Monday", "monday"]), "accent_color": .string("#336699")],
                     app: "org.example.Clock")
        try schedule(11, ["title": .string(String(repeating: "Long title ", count: 20)), "duration": .uint64(5 * 86_400),
                          "end_date": .int64(s0 + 7_200)])
        clock.set(t0 + 60 * usecPerSecond); e.apply(e.planDue())
        e.apply(try e.planCountdown(app: "", id: id(9)))
        clock.set(t0 + 180 * usecPerSecond)
        e.apply(try e.planPause(app: "", id: id(2)))
        e.apply(try e.planUpdate(app: "", id: id(11), changes: ["subtitle": .string("after")], clear: ["end_date"]))
        clock.set(t0 + 1_470 * usecPerSecond); e.apply(e.planDue())
        e.apply(e.planSoundError(id: id(7), "no sound server"))
        let now = clock.now()
        let alarms = e.alarms(visibleTo: "").sorted { $0.id < $1.id }
        let encoder = JSONEncoder()
        var src = "// Generated by the alarmd of schema v2 (commit b650df9): rows its Store wrote, and the texts its\n"
        src += "// engine made of them (V2Probes). Do not edit: regenerate only with that alarmd.\n"
        src += "enum V2Fixture {\n"
        src += "    static let now: UInt64 = \(now)\n\n"
        src += "    /// (id, app_id, data) as in the `alarms` table.\n"
        src += "    static let rows: [(id: String, app: String, json: String)] = [\n"
        for a in alarms {
            let json = String(decoding: try encoder.encode(a), as: UTF8.self)
            src += "        (\"\(a.id)\", \"\(a.appId)\", ###\"\(json)\"###),\n"
        }
        src += "    ]\n\n"
        src += "    /// Each alarm's `V2Probes.fingerprint` at `now`.\n"
        src += "    static let fingerprints: [String: String] = [\n"
        for a in alarms { src += "        \"\(a.id)\": ###\"\"\"\n\(V2Probes.fingerprint(a, now: now).split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n"))\n        \"\"\"###,\n" }
        src += "    ]\n\n"
        src += "    /// The digests of `V2Probes.probes` at `now`, by alarm id (and \"time\").\n"
        src += "    static let probeDigests: [String: [UInt64]] = [\n"
        for (k, lines) in V2Probes.probes(alarms, now: now).sorted(by: { $0.key < $1.key }) {
            src += "        \"\(k)\": [\(lines.map { String(format: "0x%016llx", V2Probes.digest($0)) }.joined(separator: ", "))],\n"
        }
        src += "    ]\n"
        src += "}\n"
        try src.write(toFile: out, atomically: true, encoding: .utf8)
    }
}
