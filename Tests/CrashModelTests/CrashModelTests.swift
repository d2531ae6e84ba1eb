// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CrashModel
import Testing

/// The crash harness's judge fed fabricated histories: what it must accept (an acknowledged call
/// that survived, an unanswered one wholly applied or not at all, a ring re-announced after a
/// kill) and what it must report (a lost acknowledgment, a half-applied update, a double ring, a
/// ring after Stop, a lost ring). A judge that cannot fail would make `make crash-test` prove nothing.
@Suite struct CrashModelTests {
    static let t0: USec = 1_800_000_000_000_000
    let id = "3f8f8e00-a75c-4163-9b08-b277213fb980"

    /// A property map as `GetAlarms` gives it.
    func observed(_ id: String, kind: String = "alarm", state: String, fire: USec, title: String, subtitle: String = "",
                  status: String = "", tag: Int64, schedule: [(String, Value)], total: USec = 0, elapsed: USec = 0,
                  postAlert: UInt32 = 300) -> [String: Value] {
        ["Id": .string(id), "Kind": .string(kind), "State": .string(state), "FireTimeUSec": .uint64(fire),
         "CountdownTotalUSec": .uint64(total), "ElapsedUSec": .uint64(elapsed), "PostAlert": .uint32(postAlert),
         "Schedule": .vardict(schedule), "Metadata": .vardict([("op", .int64(tag))]),
         "Presentation": .vardict([("title", .string(title)), ("subtitle", .string(subtitle)), ("status", .string(status))])]
    }

    let farDate: Int64 = 1_800_100_000

    func scheduleFar(_ model: CrashModel, number: Int64 = 1) -> Call {
        let call = Call(number: number, id: id, owner: 0,
                        action: .schedule(cls: .far, title: "far", subtitle: "s", fixedDate: farDate, duration: nil, postAlert: 300))
        model.sent(call, at: Self.t0)
        model.answered(call, at: Self.t0 + 2_000, error: nil)
        return call
    }

    func far(title: String = "far", subtitle: String = "s", date: Int64? = nil, tag: Int64 = 1) -> [String: Value] {
        let d = date ?? farDate
        return observed(id, state: "scheduled", fire: UInt64(d) * usecPerSecond, title: title, subtitle: subtitle, tag: tag,
                        schedule: [("fixed_date", .int64(d))])
    }

    /// A short timer scheduled at t0 for one second, and the model that knows it.
    func shortTimer() -> CrashModel {
        let model = CrashModel()
        let call = Call(number: 1, id: id, owner: 0,
                        action: .schedule(cls: .short, title: "egg", subtitle: "", fixedDate: nil, duration: 1, postAlert: 1))
        model.sent(call, at: Self.t0)
        model.answered(call, at: Self.t0 + 1_000, error: nil)
        return model
    }

    func kinds(_ model: CrashModel) -> [Violation.Kind] { model.violations.map(\.kind) }

    @Test func acknowledgedCallsFoundInTheStorePass() {
        let model = CrashModel()
        _ = scheduleFar(model)
        let update = Call(number: 2, id: id, owner: 0, action: .retitle(title: "new", subtitle: "s2", fixedDate: farDate + 60))
        model.sent(update, at: Self.t0 + 10_000)
        model.answered(update, at: Self.t0 + 12_000, error: nil)
        let pause = Call(number: 3, id: id, owner: 0, action: .pause)
        model.sent(pause, at: Self.t0 + 20_000)
        model.answered(pause, at: Self.t0 + 21_000, error: Contract.ErrorName.invalidState)
        model.verify(owner: 0, observed: [id: far(title: "new", subtitle: "s2", date: farDate + 60, tag: 2)],
                     read: Self.t0 + 100_000...Self.t0 + 101_000, lateSlack: usecPerSecond)
        #expect(model.violations.isEmpty, "\(model.violations)")
        #expect(model.tally.acknowledged == 2 && model.tally.refusedAsExpected == 1 && model.tally.alarmsVerified == 1)
    }

    @Test func anAcknowledgedScheduleMissingFromTheStoreIsALostAcknowledgment() {
        let model = CrashModel()
        _ = scheduleFar(model)
        model.verify(owner: 0, observed: [:], read: Self.t0 + 100_000...Self.t0 + 101_000, lateSlack: usecPerSecond)
        #expect(kinds(model) == [.lostAcknowledged])
        #expect(model.violations.first?.detail.contains("absent") == true)
    }

    @Test func anAcknowledgedUpdateTheStoreDoesNotHoldIsALostAcknowledgment() {
        let model = CrashModel()
        _ = scheduleFar(model)
        let update = Call(number: 2, id: id, owner: 0, action: .retitle(title: "new", subtitle: "s2", fixedDate: farDate + 60))
        model.sent(update, at: Self.t0 + 10_000)
        model.answered(update, at: Self.t0 + 12_000, error: nil)
        model.verify(owner: 0, observed: [id: far()], read: Self.t0 + 100_000...Self.t0 + 101_000, lateSlack: usecPerSecond)
        #expect(kinds(model) == [.lostAcknowledged])
    }

    @Test(arguments: [true, false])
    func anUpdateInFlightAtTheKillMayBeWhollyAppliedOrNot(applied: Bool) {
        let model = CrashModel()
        _ = scheduleFar(model)
        let update = Call(number: 2, id: id, owner: 0, action: .retitle(title: "new", subtitle: "s2", fixedDate: farDate + 60))
        model.sent(update, at: Self.t0 + 10_000)
        model.unanswered(update, killedAt: Self.t0 + 15_000)
        let store = applied ? far(title: "new", subtitle: "s2", date: farDate + 60, tag: 2) : far()
        model.verify(owner: 0, observed: [id: store], read: Self.t0 + 100_000...Self.t0 + 101_000, lateSlack: usecPerSecond)
        #expect(model.violations.isEmpty, "\(model.violations)")
        #expect(model.tally.inFlightAtKill == 1)
        #expect((model.tally.appliedAtKill, model.tally.notAppliedAtKill) == (applied ? (1, 0) : (0, 1)))
    }

    @Test func anUpdateInFlightAtTheKillFoundHalfAppliedIsReported() {
        let model = CrashModel()
        _ = scheduleFar(model)
        let update = Call(number: 2, id: id, owner: 0, action: .retitle(title: "new", subtitle: "s2", fixedDate: farDate + 60))
        model.sent(update, at: Self.t0 + 10_000)
        model.unanswered(update, killedAt: Self.t0 + 15_000)
        // The new title and metadata, but the old subtitle and date.
        model.verify(owner: 0, observed: [id: far(title: "new", tag: 2)], read: Self.t0 + 100_000...Self.t0 + 101_000,
                     lateSlack: usecPerSecond)
        #expect(kinds(model) == [.halfApplied])
    }

    @Test func anAlarmNoScheduleMadeIsAPhantom() {
        let model = CrashModel()
        let refused = Call(number: 1, id: id, owner: 0,
                           action: .schedule(cls: .far, title: "far", subtitle: "s", fixedDate: farDate, duration: nil, postAlert: 300))
        model.sent(refused, at: Self.t0)
        // Refused, yet there.
        model.answered(refused, at: Self.t0 + 1_000, error: Contract.ErrorName.invalidArgument)
        model.verify(owner: 0, observed: [id: far()], read: Self.t0 + 100_000...Self.t0 + 101_000, lateSlack: usecPerSecond)
        #expect(kinds(model).contains(.wrongAnswer))
        let other = "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77"
        model.verify(owner: 0, observed: [id: far(), other: far()], read: Self.t0 + 200_000...Self.t0 + 201_000, lateSlack: usecPerSecond)
        #expect(kinds(model).contains(.phantom))
    }

    @Test func aCallTheStateMachineRefusesButAcceptedIsAWrongAnswer() {
        let model = CrashModel()
        _ = scheduleFar(model)
        let stop = Call(number: 2, id: id, owner: 0, action: .stop)
        model.sent(stop, at: Self.t0 + 10_000)
        model.answered(stop, at: Self.t0 + 11_000, error: nil)
        #expect(kinds(model) == [.wrongAnswer])
    }

    // MARK: rings

    let fire = t0 + usecPerSecond + 500

    @Test func oneRingAndItsStopPass() {
        let model = shortTimer()
        model.rang(id, fire: fire, run: 1, at: fire + 300)
        let stop = Call(number: 2, id: id, owner: 0, action: .stop)
        model.sent(stop, at: fire + 1_000)
        model.answered(stop, at: fire + 2_000, error: nil)
        model.verify(owner: 0, observed: [:], read: fire + 10_000...fire + 11_000, lateSlack: usecPerSecond)
        #expect(model.violations.isEmpty, "\(model.violations)")
        #expect(model.ledger.rings == 1 && model.tally.ringsFine == 1 && model.tally.stops == 1)
    }

    @Test func aSecondAnnouncementByOneRunIsADoubleRing() {
        let model = shortTimer()
        model.rang(id, fire: fire, run: 1, at: fire + 300)
        model.rang(id, fire: fire, run: 1, at: fire + 900)
        #expect(kinds(model) == [.doubleRing])
        #expect(model.tally.ringsFine == 1, "the first of the two")
    }

    @Test func theSameOccurrenceAnnouncedAgainAfterAKillIsTheSameRing() {
        let model = shortTimer()
        model.rang(id, fire: fire, run: 1, at: fire + 300)
        // Killed before the alert was written: the next run finds it due and announces it again.
        model.verify(owner: 0, observed: [id: observed(id, kind: "timer", state: "alerting", fire: fire, title: "egg", tag: 1,
                                                       schedule: [("duration", .uint64(1))], total: usecPerSecond, postAlert: 1)],
                     read: fire + 50_000...fire + 51_000, lateSlack: usecPerSecond)
        model.rang(id, fire: fire, run: 2, at: fire + 52_000)
        #expect(model.violations.isEmpty, "\(model.violations)")
        #expect(model.ledger.reannounced == 1)
    }

    @Test func aRingAfterAnAcknowledgedStopIsReported() {
        let model = shortTimer()
        model.rang(id, fire: fire, run: 1, at: fire + 300)
        let stop = Call(number: 2, id: id, owner: 0, action: .stop)
        model.sent(stop, at: fire + 1_000)
        model.answered(stop, at: fire + 2_000, error: nil)
        model.rang(id, fire: fire, run: 2, at: fire + 90_000)
        #expect(kinds(model) == [.ringAfterEnd])
    }

    @Test func aRingAfterItsAnnouncedEndIsReportedEvenIfTheStopWasNotAnswered() {
        let model = shortTimer()
        model.rang(id, fire: fire, run: 1, at: fire + 300)
        let snooze = Call(number: 2, id: id, owner: 0, action: .snooze)
        model.sent(snooze, at: fire + 1_000)
        model.ringEnded(id, fire: fire)
        model.unanswered(snooze, killedAt: fire + 3_000)
        model.rang(id, fire: fire, run: 2, at: fire + 90_000)
        #expect(kinds(model).contains(.ringAfterEnd))
    }

    @Test func aDueTimerStillCountingDownAfterTheRestartIsALostRing() {
        let model = shortTimer()
        let stale = observed(id, kind: "timer", state: "countdown", fire: fire, title: "egg", tag: 1,
                             schedule: [("duration", .uint64(1))], total: usecPerSecond, postAlert: 1)
        model.verify(owner: 0, observed: [id: stale], read: fire + 5 * usecPerSecond...fire + 5 * usecPerSecond + 1_000,
                     lateSlack: usecPerSecond)
        #expect(kinds(model) == [.lostRing])
    }

    @Test func aRingBeforeItsFireTimeIsEarly() {
        let model = shortTimer()
        model.rang(id, fire: fire, run: 1, at: fire - 20_000)
        #expect(kinds(model) == [.earlyRing])
    }

    @Test func aRingOfAnAlarmThatWasNotDueIsUnexpected() {
        let model = CrashModel()
        _ = scheduleFar(model)
        model.rang(id, fire: UInt64(farDate) * usecPerSecond, run: 1, at: Self.t0 + 5_000)
        #expect(kinds(model).contains(.unexpectedRing))
    }

    @Test func anAlarmRemovedAsMissedIsALostRing() {
        let model = shortTimer()
        model.removed(id, reason: "missed")
        model.removed(id, reason: "stopped")
        #expect(kinds(model) == [.lostRing])
    }
}
