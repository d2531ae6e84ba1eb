// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing

/// The rules of ringing on a phone: feedbackd's events and hints, what an unasked end means, the
/// allow-list, and the ringing alert's hints on Phosh.
struct PhoneFeedbackRulesTests {
    @Test func eventsAndHints() {
        #expect(PhoneFeedback.event(for: .timer) == "timeout-completed")
        #expect(PhoneFeedback.event(for: .alarm) == "alarm-clock-elapsed")
        #expect(PhoneFeedback.hints(soundFile: nil).map(\.0) == ["important"])
        let withFile = PhoneFeedback.hints(soundFile: "/s/beacon.oga")
        #expect(withFile.map(\.0) == ["important", "sound-file"] && withFile[1].1 == .string("/s/beacon.oga"))
    }

    @Test func endReasonsAsFeedbackdSendsThem() {
        #expect(PhoneFeedback.EndReason(UInt32.max) == .nothingToPlay, "-1 in a u")
        #expect(PhoneFeedback.EndReason(0) == .ran && PhoneFeedback.EndReason(1) == .ran)
        #expect(PhoneFeedback.EndReason(2) == .ended)
        #expect(PhoneFeedback.EndReason(7) == .other(7))
    }

    @Test func anUnaskedEndRestartsUntilTheBound() {
        #expect(PhoneFeedback.afterEnd(.ended, triggered: 1) == .triggerAgain, "a profile switch: ring on")
        #expect(PhoneFeedback.afterEnd(.ran, triggered: 1) == .triggerAgain)
        #expect(PhoneFeedback.afterEnd(.nothingToPlay, triggered: 1) == .ringWithoutFeedbackd, "nothing to play: libcanberra")
        #expect(PhoneFeedback.afterEnd(.ended, triggered: PhoneFeedback.triggersPerRing - 1) == .triggerAgain)
        #expect(PhoneFeedback.afterEnd(.ended, triggered: PhoneFeedback.triggersPerRing) == .ringWithoutFeedbackd, "a loop of ends")
    }

    @Test func theAllowList() {
        let id = PhoneFeedback.appId
        #expect(AllowImportant.plan(current: ["a", id], userSet: true, addedBefore: false) == .listed)
        #expect(AllowImportant.plan(current: ["a", id], userSet: false, addedBefore: true) == .listed)
        #expect(AllowImportant.plan(current: ["a"], userSet: true, addedBefore: false) == .add(["a", id]), "the user's list kept, alarmd appended")
        #expect(AllowImportant.plan(current: [], userSet: true, addedBefore: false) == .add([id]), "an empty list the user set")
        #expect(AllowImportant.plan(current: ["a"], userSet: true, addedBefore: true) == .takenOff, "taken off by the user: left off")
        #expect(AllowImportant.plan(current: ["a"], userSet: false, addedBefore: true) == .takenOff)
        #expect(AllowImportant.plan(current: ["a"], userSet: false, addedBefore: false) == .missingFromDefault, "the default is not frozen")
    }

    @Test func onPhoshTheAlertNamesAlarmdsEntryAndAsksForNoFeedback() {
        #expect(PhoshAlert.isPhosh(name: "Phosh Notify Daemon", vendor: "Phosh"))
        #expect(!PhoshAlert.isPhosh(name: "gnome-shell", vendor: "GNOME"))
        #expect(!PhoshAlert.isPhosh(name: "Plasma", vendor: "KDE"))
        let given: [(String, Value)] = [("category", .string("x-alarmd.alarm")), ("desktop-entry", .string("org.example.Clock")),
                                        ("suppress-sound", .bool(true))]
        let out = PhoshAlert.hints(given)
        #expect(out.map(\.0) == ["category", "suppress-sound", "desktop-entry", "x-phosh-fb-profile"],
                "one desktop-entry; the profile after suppress-sound, which phosh reads in order")
        #expect(out[2].1 == .string(PhoneFeedback.appId) && out[3].1 == .string("none"))
    }
}
