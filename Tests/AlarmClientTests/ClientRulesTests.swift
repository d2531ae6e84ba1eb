// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Testing
import TestSupport

/// The client rules of Tests/cases/client-rules.json that AlarmClient computes: the countdown clock,
/// remaining time and progress, the panel view. The GNOME Shell extension's and the Plasma applet's
/// tests read the same cases.
@Suite struct ClientRulesTests {
    /// The file is whole: every section has its cases, each with one expectation a client can check.
    @Test func fileIsWhole() throws {
        let rules = try ClientRules.load()
        #expect(rules.duration.cases.count >= 90 && rules.color.cases.count >= 50 && rules.clock.cases.count >= 25)
        #expect(rules.remaining.cases.count >= 20 && rules.panel.cases.count >= 40)
        for c in rules.duration.cases {
            #expect((c.seconds == nil) != (c.error == nil), "\(c): seconds or error")
            #expect(c.error.map { ["empty", "malformed", "zero", "tooLong"].contains($0) } ?? true, "\(c)")
        }
        let modes = ["off", "idle", "scheduled", "countdown", "paused", "warning", "alerting"]
        #expect(Set(rules.panel.cases.map(\.expect.mode)) == Set(modes), "every mode has its cases")
        for c in rules.panel.cases where ["countdown", "paused", "warning", "alerting"].contains(c.expect.mode) {
            #expect(c.expect.title != nil, "\(c): text panels show the title")
        }
    }

    /// Negative remaining is the gjs and Qt clients' to clamp: Swift's is unsigned and never negative.
    @Test(arguments: try ClientRules.load().clock.cases.filter { $0.usec >= 0 })
    func clock(_ c: ClientRules.ClockCase) {
        #expect(TimeText.clock(USec(c.usec)) == c.text, "\(c)")
    }

    @Test(arguments: try ClientRules.load().remaining.cases)
    func remainingAndProgress(_ c: ClientRules.RemainingCase) {
        let a = AlarmSnapshot(properties: c.alarm.values)
        #expect(a.remaining(at: c.now) == c.remaining, "\(c)")
        #expect(a.progress(at: c.now) == c.progress, "\(c)")
    }

    /// PanelView in the shared vocabulary: a paused alarm keeps its class (countdown or warning) for
    /// waybar and shows ⏸; `off` is the idle class saying "⏰ off". Its text is `label` (or, without a
    /// compact label, the title) and `time`, as docs/user-guide.md's panel section says.
    @Test(arguments: try ClientRules.load().panel.cases)
    func panel(_ c: ClientRules.PanelCase) throws {
        let rules = try ClientRules.load()
        let zone = rules.panel.zone == "UTC" ? Zone.utc : Zone.system(rules.panel.zone)
        let running = try #require(c.running as Bool?, "\(c): every panel case says whether alarmd runs")
        let v = PanelView.make(alarms: c.alarms.map { AlarmSnapshot(properties: $0.values) }, running: running,
                               now: c.now, zone: zone)
        let e = c.expect
        let mode = !running ? "off" : v.alarmState == .paused ? "paused" : v.mode.rawValue
        #expect(mode == e.mode, "\(c)")
        #expect(v.alarmId == e.alarm, "\(c)")
        #expect(v.color == e.color, "\(c)")
        #expect(v.ticking == e.ticking, "\(c)")
        switch e.mode {
        case "off":
            #expect(v.mode == .idle && v.text == "⏰ off", "\(c)")
        case "idle":
            #expect(v.text.isEmpty && v.shortText.isEmpty, "\(c)")
        case "alerting":
            #expect(v.text == "🔔 \(e.label)" + (e.more > 0 ? " +\(e.more)" : ""), "\(c)")
            #expect(e.title == e.label, "\(c): a ringing alarm shows its title")
        case "countdown", "warning", "paused":
            let glyph = e.mode == "paused" ? "⏸ " : ""
            let shown = e.label.isEmpty ? try #require(e.title) : e.label
            #expect(v.text == "\(glyph)\(shown) \(e.time)", "\(c)")
            #expect(v.shortText == "\(glyph)\(e.time)", "\(c)")
        case "scheduled":
            #expect(v.text == "⏰ \(e.time)" && v.shortText == v.text, "\(c)")
        default:
            Issue.record("\(c): no mode \(e.mode)")
        }
    }

    @Test(arguments: try ClientRules.load().alarmTime.cases)
    func alarmTime(_ c: ClientRules.AlarmTimeCase) {
        #expect(AlarmText.time(hour: c.hour, minute: c.minute, hour12: c.hour12) == c.text, "\(c)")
    }

    @Test(arguments: try ClientRules.load().alarmDays.cases)
    func alarmDays(_ c: ClientRules.AlarmDaysCase) throws {
        #expect(try ClientRules.load().alarmDays.zone == "UTC")
        let first = try #require(Weekday(rawValue: c.firstDay ?? "monday"))
        #expect(AlarmText.days(c.weekdays, firstDay: first, fire: c.fire ?? 0, now: c.now ?? 0, zone: .utc) == c.text, "\(c)")
    }

    @Test(arguments: try ClientRules.load().nextAlarm.cases)
    func nextAlarm(_ c: ClientRules.NextAlarmCase) throws {
        #expect(try ClientRules.load().nextAlarm.zone == "UTC")
        let next = AlarmText.next(of: c.alarms.map { AlarmSnapshot(properties: $0.values) })
        #expect(next?.id == c.expect.alarm, "\(c)")
        let hour12 = try #require(c.hour12 as Bool?, "\(c): every case says which clock the desktop shows")
        #expect(next.map { AlarmText.heading(of: $0, hour12: hour12, zone: .utc) } ?? "" == c.expect.text, "\(c)")
    }
}
