// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Testing

/// The alert decision table: old state, new state → what the desktop must do.
struct AlertPlanTests {
    func alarm(_ state: AlarmState, fire: USec = 100, sound: String = "default", title: String = "Tea") -> Alarm {
        let (engine, _) = makeEngine()
        var a = try! engine.schedule(["duration": .uint32(60), "title": .string(title), "sound": .string(sound)])
        a.state = state
        a.fireTime = fire
        return a
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
}
