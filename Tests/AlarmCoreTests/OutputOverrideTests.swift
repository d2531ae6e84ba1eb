// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing

@Suite struct OutputOverrideTests {
    typealias S = OutputOverride.SinkState
    let pct = OutputOverride.volume(percent:)

    @Test func aMutedSinkIsUnmutedAndRaisedToTheAlarmVolume() {
        let t = OutputOverride.target(observed: S(muted: true, volumes: [pct(20), pct(20)]), alarmVolume: 70)
        #expect(t == S(muted: false, volumes: [pct(70), pct(70)]))
    }

    @Test func aSinkAtZeroGetsTheAlarmVolumeOnEveryChannel() {
        #expect(OutputOverride.target(observed: S(muted: false, volumes: [0, 0]), alarmVolume: 70) == S(muted: false, volumes: [pct(70), pct(70)]))
    }

    @Test func aLoudEnoughSinkIsLeftAlone() {
        #expect(OutputOverride.target(observed: S(muted: false, volumes: [pct(80), pct(80)]), alarmVolume: 70) == nil)
        #expect(OutputOverride.target(observed: S(muted: false, volumes: [pct(70), pct(70)]), alarmVolume: 70) == nil)
        // Loud but muted: only the mute changes, the volume stays the user's.
        #expect(OutputOverride.target(observed: S(muted: true, volumes: [pct(90), pct(90)]), alarmVolume: 70) == S(muted: false, volumes: [pct(90), pct(90)]))
    }

    @Test func aQuietSinkKeepsItsBalance() throws {
        let t = try #require(OutputOverride.target(observed: S(muted: false, volumes: [pct(10), pct(20)]), alarmVolume: 70))
        #expect(t.volumes[1] == pct(70))
        #expect(abs(Int(t.volumes[0]) - Int(pct(35))) <= 2, "left stays half of right")
    }

    @Test func ringingEndsAndTheSinkGoesBackExactly() {
        let before = S(muted: true, volumes: [13_107, 13_108])
        let set = S(muted: false, volumes: [pct(70), pct(70)])
        let saved = OutputOverride.Saved(sink: "speaker", before: before, set: set)
        let r = OutputOverride.restore(saved, now: set)
        #expect(r.muted == true && r.volumes == [13_107, 13_108])
        // A server that hands back a neighbour of what was set still counts as alarmd's value.
        let rounded = S(muted: false, volumes: [pct(70) - 3, pct(70) + 2])
        #expect(OutputOverride.restore(saved, now: rounded) == r)
    }

    @Test func theUsersChangeWhileRingingStands() {
        let saved = OutputOverride.Saved(sink: "speaker", before: S(muted: true, volumes: [pct(20), pct(20)]),
                                         set: S(muted: false, volumes: [pct(70), pct(70)]))
        // They turned it down: their volume stays, the mute alarmd lifted goes back.
        let down = OutputOverride.restore(saved, now: S(muted: false, volumes: [pct(40), pct(40)]))
        #expect(down.volumes == nil && down.muted == true)
        // They muted it: their mute stays, the volume goes back.
        let muted = OutputOverride.restore(saved, now: S(muted: true, volumes: [pct(70), pct(70)]))
        #expect(muted.muted == nil && muted.volumes == [pct(20), pct(20)])
        // Seen changing it and back again: still their choice.
        let back = OutputOverride.restore(saved, now: saved.set, touched: .init(volume: true))
        #expect(back.volumes == nil && back.muted == true)
    }

    @Test func alarmdsOwnValuesAreNotTheUsers() {
        let set = S(muted: false, volumes: [pct(70), pct(70)])
        #expect(OutputOverride.touched(set: set, observed: set) == .init())
        #expect(OutputOverride.touched(set: set, observed: S(muted: false, volumes: [pct(70) + 100, pct(70)])) == .init())
        #expect(OutputOverride.touched(set: set, observed: S(muted: false, volumes: [pct(71), pct(71)])) == .init(volume: true))
        #expect(OutputOverride.touched(set: set, observed: S(muted: true, volumes: set.volumes)) == .init(mute: true))
    }

    @Test func afterACrashOnlyAlarmdsValuesArePutBack() {
        let saved = OutputOverride.Saved(sink: "alsa_output.pci-0000_00_1f.3.analog-stereo", before: S(muted: false, volumes: [0, 0]),
                                         set: S(muted: false, volumes: [pct(70), pct(70)]))
        #expect(OutputOverride.restore(saved, now: saved.set).volumes == [0, 0])
        // Someone set it since (another session, the user after the crash): left as it is.
        #expect(OutputOverride.restore(saved, now: S(muted: false, volumes: [pct(50), pct(50)])).isEmpty)
        // Already back: nothing to do.
        #expect(OutputOverride.restore(saved, now: saved.before).isEmpty)
    }

    @Test func theSavedFormRoundTripsAndRejectsDamage() {
        let saved = OutputOverride.Saved(sink: "speaker", before: S(muted: true, volumes: [1, 65_536]),
                                         set: S(muted: false, volumes: [45_875, 45_875]))
        let text = OutputOverride.encode(saved)
        #expect(OutputOverride.decode(text) == saved)
        for bad in ["", "speaker", "speaker\t1\t1,2\t0", "speaker\t2\t1\t0\t1", "speaker\t1\t\t0\t1", "speaker\t1\t1,,2\t0\t1",
                    "\t1\t1\t0\t1", "speaker\t1\tx\t0\t1"] {
            #expect(OutputOverride.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func configurationKeys() {
        let (d, none) = DaemonConfig.parse("", file: "f")
        #expect(none.isEmpty && d.alarmVolume == 70 && d.overrideOutputVolume)
        let (c, warnings) = DaemonConfig.parse("[ringing]\nalarm_volume = 45\noverride_output_volume = false\n", file: "f")
        #expect(warnings.isEmpty && c.alarmVolume == 45 && !c.overrideOutputVolume)
        for bad in ["0", "101", "-5", "loud", "70.5", ""] {
            let (b, w) = DaemonConfig.parse("[ringing]\nalarm_volume = \(bad)\noverride_output_volume = maybe\n", file: "f")
            #expect(b.alarmVolume == 70 && b.overrideOutputVolume, "'\(bad)'")
            #expect(w.count == 2 && w.allSatisfy { $0.hasPrefix("f:") && $0.contains("keeping the default") }, "\(w)")
        }
    }
}
