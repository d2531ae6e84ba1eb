// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing
import TestSupport

@Suite struct CompactConfigurationTests {
    func config(_ extra: [String: Value] = [:]) throws -> AlarmConfiguration {
        try AlarmConfiguration.parse(["title": .string("T"), "duration": .uint32(60)].merging(extra) { $1 }, now: monday0900)
    }

    /// Fields at their defaults take no bytes; the presentation reads back field for field.
    @Test func onlyWhatDiffersFromTheDefaultsIsKept() throws {
        let plain = try config()
        #expect(plain.record(key: AlarmKey.random()).extras.isEmpty)
        #expect(plain.presentation == { var p = Presentation(); p.title = "T"; return p }())
        #expect(plain.sound == "default" && plain.metadata == .vardict([]) && plain.ring && !plain.triggerIfMissed)
        let explicitDefaults = try config(["stop_button": .string("Stop"), "sound": .string("default"), "metadata": .vardict([]),
                                           "ring": .bool(true), "post_alert": .uint32(300)])
        #expect(explicitDefaults == plain)
        var c = try config(["stop_button": .string(""), "subtitle": .string("Sub"), "secondary_button_behavior": .string("custom"),
                            "secondary_action": .string("app.x"), "warning_threshold": .uint32(30)])
        #expect(c.presentation.stopButton == "" && c.presentation.subtitle == "Sub" && c.presentation.secondaryButtonBehavior == .custom)
        #expect(c.warningThreshold == 30 && c.presentation.warningThreshold == 30)
        c.sound = "bell"
        c.metadata = .vardict([("n", .variant(.structure([.int16(-2), .array(element: "y", [.byte(1)])])))])
        var p = c.presentation
        p.title = "New"
        p.accentColor = "orange"
        c.presentation = p
        #expect(c.title == "New" && c.presentation == p && c.sound == "bell")
        #expect(c.metadata == .vardict([("n", .variant(.structure([.int16(-2), .array(element: "y", [.byte(1)])])))]))
        p = Presentation()
        p.title = "T"
        c.presentation = p
        c.sound = "default"
        c.metadata = .vardict([])
        #expect(c.record(key: AlarmKey.random()).extras.isEmpty, "back at the defaults, nothing left")
    }

    /// Stores written by every earlier version hold these tags: each presentation text keeps its own.
    @Test func storeTagsNeverMove() throws {
        let tags: [(UInt8, String, String)] = [
            (1, "subtitle", "s"), (2, "status", "s"), (3, "icon", "i"), (4, "accent_color", "red"), (5, "background_color", "red"),
            (6, "text_color", "red"), (7, "compact_label", "c"), (8, "stop_button", "b"), (9, "secondary_button", "b"),
            (10, "countdown_title", "t"), (11, "pause_button", "b"), (12, "paused_title", "t"), (13, "resume_button", "b"),
            (14, "stop_action", "a"), (15, "secondary_action", "a"), (16, "tap_action", "x:y"), (17, "completion_message", "m"),
        ]
        for (tag, key, text) in tags {
            let c = try config([key: .string(text)])
            #expect(c.record(key: AlarmKey.random()).extras == [tag, UInt8(text.utf8.count)] + Array(text.utf8), "\(key)")
            #expect(c.raw[key] == .string(text), "\(key)")
        }
    }

    /// A record no alarm can have is refused rather than loaded wrong.
    @Test func recordsOutOfRangeAreRefused() throws {
        let a = Alarm(key: AlarmKey.random(), appId: "", config: try config(["subtitle": .string("x"), "metadata": .vardict([("k", .string("v"))])]),
                      run: .countdown(Countdown(start: 5, total: 10, measuresDuration: true), fireTime: 15))
        let good = a.record
        #expect(Alarm(record: good) == a)
        var bad: [Alarm.Record] = []
        for change: (inout Alarm.Record) -> Void in [
            { $0.state = 4 }, { $0.phase = 2 }, { $0.measuresDuration = 3 }, { $0.flags |= 3 }, { $0.flags |= 1 << 12 },
            { $0.extras = [0x01] }, { $0.extras = [0x01, 0x05, 0x41] }, { $0.extras = [0x02, 0x00, 0x01, 0x00] },
            { $0.extras = [0x63] }, { $0.extras += [0x21, 0x7A] }, { $0.extras = [0x21, 0x61, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F] },
            { $0.extras = [0x21] + Array(repeating: 0x76, count: 100) + [0x79, 0x00] },
            { $0.flags = 1; $0.schedule = 24 }, { $0.flags = 1; $0.schedule = 60 << 8 }, { $0.flags = 1; $0.schedule = 1 << 23 },
            { $0.flags = 1 | 1 << 2 },
        ] {
            var r = good
            change(&r)
            bad.append(r)
        }
        for r in bad { #expect(Alarm(record: r) == nil, "\(r)") }
    }
}

extension AlarmConfiguration {
    func record(key: AlarmKey) -> Alarm.Record { Alarm(key: key, appId: "", config: self, run: .scheduled(fireTime: 0)).record }
}

@Suite struct EngineStorageTests {
    /// Alarms come and go in random order (the engine moves the last one into each hole): every id
    /// is found exactly while it exists, and both deadline indexes follow.
    @Test func agreesWithAModelThroughSchedulesAndCancels() throws {
        let (e, _) = makeEngine()
        var rng = SeededRandom.seeded("CompactModelTests")
        let ids = (0..<300).map { _ in AlarmKey.random().string }
        var model: [String: USec] = [:]
        for step in 0..<6_000 {
            let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
            if model[id] != nil {
                try e.run { () throws(AlarmError) in try e.plan(.cancel(id: id), caller: .user) }
                model.removeValue(forKey: id)
            } else {
                let seconds = UInt32.random(in: 60...100_000, using: &rng)
                let a = try e.schedule(["duration": .uint32(seconds)], id: id)
                model[id] = a.fireTime
            }
            #expect(e.count == model.count)
            if step % 101 == 0 {
                for id in ids { #expect((e.alarms[id] != nil) == (model[id] != nil) && e.alarms[id]?.fireTime == model[id]) }
                #expect(e.nextFireTime == model.values.min() && e.nextDeadline == model.values.min())
                #expect(Set(e.alarms.values.map(\.id)) == Set(model.keys))
            }
        }
        // Paging walks the ids in order whatever the slots' order.
        var seen: [String] = [], after = ""
        while case let page = e.alarms(visibleTo: .user, after: after, limit: 7), !page.isEmpty {
            seen += page.map(\.id)
            after = page.last!.id
        }
        #expect(seen == model.keys.sorted())
    }
}
