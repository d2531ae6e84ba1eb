// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Foundation
import Testing
import TestSupport

struct PanelViewTests {
    let s = usecPerSecond
    let now: USec = 1_796_083_200 * usecPerSecond
    let utc = Zone.utc

    /// Which alarm shows, its mode, label, time, colour and tick are the shared client rules
    /// (ClientRulesTests, Tests/cases/client-rules.json); here what only the text panels have:
    /// tooltips, percentages, the class of a paused countdown.
    @Test func tooltipsAndPercentages() {
        let off = PanelView.make(alarms: [], running: false, now: now, zone: utc)
        #expect(off.tooltip == "alarmd is not running")

        let alarm = SnapshotTests.snapshot("scheduled", fire: now + 7 * 3600 * s + 1800 * s, id: "00000000-0000-4000-8000-000000000001",
                                           kind: "alarm", weekdays: ["monday"])
        let tea = SnapshotTests.snapshot("countdown", fire: now + 1499 * s, total: 1500 * s,
                                         presentation: [("title", .string("Tea")), ("compact_label", .string("TEA")), ("accent_color", .string("#00AA00"))])
        let counting = PanelView.make(alarms: [alarm, tea], running: true, now: now, zone: utc)
        #expect(counting.percentage == 0)
        #expect(counting.tooltip == "Tea: 24:59 left\nTea: 07:30 (mon)")

        let warning = SnapshotTests.snapshot("countdown", fire: now + 30 * s, total: 1500 * s, phase: "warning",
                                             presentation: [("title", .string("Tea")), ("accent_color", .string("orange"))])
        let w = PanelView.make(alarms: [warning], running: true, now: now, zone: utc)
        #expect(w.percentage == 98 && w.tooltip == "Tea: 0:30 left (warning)")

        let ringing = SnapshotTests.snapshot("alerting", presentation: [("title", .string("Get up"))])
        let r = PanelView.make(alarms: [tea, ringing], running: true, now: now, zone: utc)
        #expect(r.percentage == 100 && r.shortText == "🔔 Get up" && r.tooltip.hasPrefix("🔔 Get up: ringing"))

        let paused = SnapshotTests.snapshot("paused", total: 600 * s, elapsed: 60 * s)
        let p = PanelView.make(alarms: [paused], running: true, now: now, zone: utc)
        #expect(p.mode == .countdown && p.percentage == 10 && p.tooltip == "Tea: paused, 9:00 left",
                "a paused countdown keeps waybar's countdown class")
    }

    @Test func formats() throws {
        let ringing = SnapshotTests.snapshot("alerting", presentation: [("title", .string("Tea & <cake>"))])
        let v = PanelView.make(alarms: [ringing], running: true, now: now, zone: utc)
        let waybar = try JSONSerialization.jsonObject(with: Data(PanelFormat.waybar.line(v).utf8)) as? [String: Any]
        #expect(waybar?["class"] as? String == "alerting")
        #expect(waybar?["text"] as? String == "🔔 Tea &amp; &lt;cake&gt;", "Pango markup is escaped")
        #expect(waybar?["percentage"] as? Int == 100)

        let first = PanelFormat.i3bar.line(v, first: true), later = PanelFormat.i3bar.line(v, first: false)
        #expect(later == "," + first)
        let blocks = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [[String: Any]]
        #expect(blocks?.first?["instance"] as? String == ringing.id)
        #expect(blocks?.first?["urgent"] as? Bool == true && blocks?.first?["name"] as? String == "alarmd")
        #expect(PanelFormat.i3bar.line(PanelView.make(alarms: [], running: true, now: now), first: true) == "[]")

        let polybar = PanelFormat.polybar.line(v, command: "/usr/bin/alarmctl --address 'unix:path=/x'")
        #expect(polybar.hasPrefix("%{A1:/usr/bin/alarmctl --address 'unix\\:path=/x' stop \(ringing.id):}%{A3:"))
        #expect(polybar.contains("%{B#ff3b30}%{F#ffffff} 🔔 Tea & <cake> %{F-}%{B-}") && polybar.hasSuffix("%{A}%{A}"),
                "a ringing alarm: white on its colour")
        #expect(PanelFormat.plain.line(v) == "🔔 Tea & <cake>")
    }

    @Test func clicks() {
        let c = PanelClick(line: ",{\"name\":\"alarmd\",\"instance\":\"abc\",\"button\":3,\"x\":10}")
        #expect(c == PanelClick(line: "{\"name\":\"alarmd\",\"instance\":\"abc\",\"button\":3}"))
        #expect(c?.action(forState: .alerting) == .snooze)
        #expect(PanelClick(line: "[")  == nil)
        #expect(PanelClick(line: "{\"name\":\"other\",\"instance\":\"abc\",\"button\":1}") == nil)
        #expect(PanelClick(line: "{\"name\":\"alarmd\",\"instance\":\"abc\",\"button\":1}")?.action(forState: .alerting) == .stop)
        #expect(PanelClick(line: "{\"name\":\"alarmd\",\"instance\":\"abc\",\"button\":3}")?.action(forState: .scheduled) == nil)
    }
}
