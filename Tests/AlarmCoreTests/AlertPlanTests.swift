// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing

/// The alert decision table: old state, new state → what the desktop must do.
struct AlertPlanTests {
    func alarm(_ state: AlarmState, fire: USec = 100, sound: String = "default", title: String = "Tea") -> Alarm {
        let (engine, _) = makeEngine()
        let a = try! engine.schedule(["duration": .uint32(60), "title": .string(title), "sound": .string(sound)])
        return a.with(state, fire: fire)
    }

    @Test func startsAndEnds() {
        let counting = alarm(.countdown), ringing = alarm(.alerting)
        #expect(AlertPlan.effects(old: counting, new: ringing, timedOut: false, snoozed: false, notificationShown: false)
                == [.ring(ringing), .showAlert(ringing)])
        #expect(AlertPlan.effects(old: nil, new: ringing, timedOut: false, snoozed: false, notificationShown: false)
                == [.ring(ringing), .showAlert(ringing)], "an alarm restored or scheduled already due")
        #expect(AlertPlan.effects(old: ringing, new: nil, timedOut: false, snoozed: false, notificationShown: true)
                == [.silence(ringing.id), .withdraw(ringing.id)], "stopped")
        #expect(AlertPlan.effects(old: ringing, new: nil, timedOut: true, snoozed: false, notificationShown: true)
                == [.silence(ringing.id), .withdraw(ringing.id), .missed([ringing])], "nobody answered")
        let snoozed = alarm(.countdown, fire: 400)
        #expect(AlertPlan.effects(old: ringing, new: snoozed, timedOut: false, snoozed: true, notificationShown: true)
                == [.silence(ringing.id), .showSnoozed(snoozed)])
        #expect(AlertPlan.effects(old: counting, new: nil, timedOut: false, snoozed: false, notificationShown: false)
                == [.withdraw(counting.id)], "cancelled before it rang")
    }

    @Test func changesWhileRingingAndSnoozed() {
        let ringing = alarm(.alerting)
        let newSound = alarm(.alerting, sound: "chime")
        #expect(AlertPlan.effects(old: ringing, new: newSound, timedOut: false, snoozed: false, notificationShown: true) == [.ring(newSound)])
        let newTitle = alarm(.alerting, title: "Green tea")
        #expect(AlertPlan.effects(old: ringing, new: newTitle, timedOut: false, snoozed: false, notificationShown: true) == [.showAlert(newTitle)])
        #expect(AlertPlan.effects(old: ringing, new: ringing, timedOut: false, snoozed: false, notificationShown: true) == [])

        let snoozed = alarm(.countdown, fire: 400), moved = alarm(.countdown, fire: 900), paused = alarm(.paused, fire: 0)
        #expect(AlertPlan.effects(old: snoozed, new: moved, timedOut: false, snoozed: false, notificationShown: true) == [.showSnoozed(moved)])
        #expect(AlertPlan.effects(old: snoozed, new: paused, timedOut: false, snoozed: false, notificationShown: true) == [.withdraw(paused.id)])
        #expect(AlertPlan.effects(old: snoozed, new: moved, timedOut: false, snoozed: false, notificationShown: false) == [],
                "nothing on screen, nothing to correct")
    }

    @Test func aWholeMutationInOrder() {
        let ringing = alarm(.alerting), done = alarm(.countdown)
        var m = Mutation()
        m.missed = [done]
        m.removals = [.init(alarm: done, reason: .completed)]
        m.upserts = [ringing]
        let effects = AlertPlan.effects(of: m, before: [:], notificationShown: { _ in false })
        #expect(effects == [.missed([done]), .withdraw(done.id), .completed(done), .ring(ringing), .showAlert(ringing)])
    }

    /// What an answer to the notification means: the command the user's own tools would send, and
    /// what goes to the app or the desktop.
    @Test func answers() throws {
        let (engine, _) = makeEngine()
        var snooze = try engine.schedule(["duration": .uint32(60), "title": .string("Tea"), "secondary_button": .string("Snooze"),
                                          "stop_action": .string("app.done"), "tap_action": .string("https://x.org")])
        snooze = snooze.with(.alerting, fire: snooze.fireTime!)
        let id = snooze.id
        #expect(AlertAnswer(action: "stop")?.response(for: snooze) == AlertResponse(command: .stop(id: id), appAction: "app.done"))
        #expect(AlertAnswer(action: "secondary")?.response(for: snooze) == AlertResponse(command: .countdown(id: id)))
        #expect(AlertAnswer(action: "default")?.response(for: snooze) == AlertResponse(url: "https://x.org"))
        #expect(AlertAnswer(action: "open") == nil && AlertAnswer(action: "snooze") == nil, "keys alarmd never offers")
        #expect(AlertAnswer(closedBecause: 2)?.response(for: snooze) == AlertResponse(command: .stop(id: id)), "dismissed: stopped")
        #expect(AlertAnswer(closedBecause: 1)?.response(for: snooze) == AlertResponse(showAgain: true), "expired: shown again")
        #expect(AlertAnswer(closedBecause: 3) == nil && AlertAnswer(closedBecause: 4) == nil, "closed by alarmd, or undefined")
        // Every action the alert offers is one the answer understands.
        #expect(AlertText.actions(snooze, English()).compactMap { AlertAnswer(action: $0.0) }
                == [.action(.stop), .action(.secondary), .action(.open)])

        var custom = try engine.schedule(["duration": .uint32(60), "title": .string("Tea"), "secondary_button": .string("Call"),
                                          "secondary_button_behavior": .string("custom"), "secondary_action": .string("app.call")])
        custom = custom.with(.alerting, fire: custom.fireTime!)
        #expect(AlertAnswer.action(.secondary).response(for: custom) == AlertResponse(appAction: "app.call"), "custom: rings on")
        #expect(AlertAnswer.action(.stop).response(for: custom) == AlertResponse(command: .stop(id: custom.id)), "no stop_action")
        #expect(AlertAnswer.action(.open).response(for: custom) == AlertResponse(), "no tap_action: a click does nothing")
        #expect(AlertText.actions(custom, English()).map(\.0) == ["stop", "secondary"] && AlertText.openAction(custom, English()).isEmpty)

        custom = custom.with(.countdown, fire: custom.fireTime!)
        #expect(AlertAnswer.dismissed.response(for: custom) == AlertResponse(), "only a ringing alarm is stopped by a dismissal")
        #expect(AlertAnswer.expired.response(for: custom) == AlertResponse(), "only a ringing alarm is shown again")
    }
}
