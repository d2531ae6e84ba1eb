// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSystemd
import Glibc
import SDBus

/// A change as it was applied: the mutation and the alarms it upserted as they were before (absent
/// for new ones). Subscribers see every applied change once, in order.
struct AppliedChange {
    let mutation: Mutation
    let before: [String: Alarm]
}

/// Told of every applied change, after it is durable (or, for what time alone causes, at once).
protocol ChangeSubscriber: AnyObject {
    func applied(_ change: AppliedChange)
}

/// Files a change refers to (a copy of an app's sound), written before the change is applied: made
/// durable on the store writer's thread before the transaction that refers to them, so that no stored
/// alarm ever names a file a crash lost; taken back if the change is undone.
struct StagedFiles {
    /// On the writer's thread, before the batch's transaction; a failure fails the batch.
    let makeDurable: @Sendable () throws -> Void
    /// On the loop thread, when the change is undone (its write failed).
    let discard: () -> Void
}

/// Owns the engine, the store and the one kernel timer, and announces. Data flows one way: a command
/// is planned against the engine and applied at once (so the next call of the same loop pass is
/// planned against it), written with every other change of that pass in one transaction, and only then
/// answered and announced. What time alone causes (due, warning, ring timeout) is announced first and
/// written right after: it would be recomputed from the stored alarms after a crash. Nobody else
/// holds the engine but as an `EngineView`: every change, whoever asks for it (a method call, a
/// notification's Stop, a sound error, a prompt's answer, a clock step), is a `Command` submitted here.
///
/// The transaction is committed on the store writer's thread (`StoreWriter`), one batch at a time:
/// while it is fsynced the loop goes on, a due alarm rings, and new calls are planned on top into the
/// next batch. A batch's calls are answered and its changes announced on the loop thread, in order,
/// only once the writer reports it durable.
final class Committer {
    private let engine: AlarmEngine
    private let clock: SystemClock
    private var subscribers: [ChangeSubscriber] = []
    /// Told of every change once it is durable, what time caused too (which is announced before).
    private var durableSubscribers: [(AppliedChange) -> Void] = []
    /// Its method calls that already arrived are dispatched at the end of a loop pass, so they join
    /// that pass's transaction.
    private unowned let bus: Bus
    /// Tests only: runs between announcing what time caused and writing it (to crash there).
    private let betweenAnnounceAndWrite: (() -> Void)?
    /// Armed for the engine's earliest deadline after every change; reports wall-clock steps.
    private let deadline: DeadlineTimer
    private let anchor: ClockAnchor

    var view: EngineView { EngineView(engine) }
    /// Whether alarms can wake the machine: decided when the deadline timer took its clock.
    var wakeCapable: Bool { deadline.wakeCapable }

    private struct Pending {
        let change: AppliedChange
        /// What the authorizations it set were before (nil: never decided).
        let authorizationsBefore: [(String, AuthorizationState?)]
        /// The zone before, for a zone change.
        let zoneBefore: Zone?
        /// Hears the change once it is durable (nil) or could not be saved.
        let reply: ((Mutation, AlarmError?) -> Void)?
        let announced: Bool
        let what: String
        let staged: StagedFiles?
    }
    /// Applied, not yet handed to the writer: the next batch.
    private var pending: [Pending] = []
    /// The batch with the writer thread (empty when it is idle).
    private var writing: [Pending] = []
    private let writer: StoreWriter
    /// Reads waiting for every change already applied to be durable (or undone).
    private var readers: [() -> Void] = []
    private var flushing = false
    /// Whether the calls that were waiting for alarmd when it took its name (a D-Bus activation's,
    /// a `Watch` among them) have been served.
    private var servedWaitingCalls = false
    private let flushSource: DeferSource
    private let retry: TimerSource
    /// A second after the last write: tidy up once, then sleep (no periodic wake-ups).
    private let idle: TimerSource

    init(engine: AlarmEngine, store: Store, clock: SystemClock, loop: EventLoop, bus: Bus,
         betweenAnnounceAndWrite: (() -> Void)? = nil) throws {
        self.engine = engine
        self.clock = clock
        self.bus = bus
        self.betweenAnnounceAndWrite = betweenAnnounceAndWrite
        anchor = ClockAnchor(store: store, clock: clock)
        // The sources call back into the committer, which exists only once they do: each calls
        // through a reference set right after.
        weak var me: Committer?
        flushSource = try loop.makeDefer { me?.flush() }
        retry = try loop.makeTimer(clock: CLOCK_MONOTONIC) { me?.flushSource.trigger() }
        idle = try loop.makeTimer(clock: CLOCK_MONOTONIC) { me?.tidy() }
        writer = try StoreWriter(store: store, loop: loop, onDone: { me?.written($0) })
        deadline = try DeadlineTimer(loop: loop, onExpire: { me?.deadlineReached() },
                                     onClockStep: { if let me { me.clockStepped(by: me.anchor.measuredStep()) } })
        me = self
    }

    func subscribe(_ s: ChangeSubscriber) { subscribers.append(s) }

    /// `durable` hears every change once it is on disk, in order: what may go only once nothing stored
    /// names it any more (a replaced sound file) goes then.
    func whenEachIsDurable(_ durable: @escaping (AppliedChange) -> Void) { durableSubscribers.append(durable) }

    /// The one way to change anything: `command` planned by the engine for `caller`, applied now,
    /// written with every change of the same loop pass, and announced once durable. A refusal
    /// throws at once and changes nothing; otherwise `then` hears the change as planned and nil
    /// once it is durable, or the error when it could not be saved. `stage` writes a sound file's copy
    /// the change names (only once the plan is accepted, so a refused call writes nothing); if it
    /// cannot, nothing is applied.
    func submit(_ command: Command, by caller: Caller, _ what: String, stage: (SoundCopies.Intake, SoundCopies)? = nil,
                then: ((Mutation, AlarmError?) -> Void)?) throws(AlarmError) {
        let m = try engine.plan(command, caller: caller)
        let staged = try stage.map { (copy, copies) throws(AlarmError) in try copies.stage(copy) }
        enqueue(m, what, reply: then, announceNow: false, staged: staged)
    }

    /// What alarmd decides on the user's word or the machine's (a notification's answer, a sound
    /// error, a prompt's answer, a clock step): a refusal is logged, not thrown, since nobody waits.
    func decide(_ command: Command, _ what: String, then: ((Mutation, AlarmError?) -> Void)? = nil) {
        do {
            try submit(command, by: .user, what, then: then)
        } catch {
            Log.warning("\(what) refused: \(error.message)")
        }
    }

    /// A second after the last write: let the WAL start over (on the writer's thread, after any
    /// batch), and hand back to the kernel what a burst of calls left in malloc's free lists (a
    /// 100k-alarm fill left some 70 MiB there).
    private func tidy() {
        writer.after { _ = $0.checkpointIfNeeded(minimumFrames: 1) }
        malloc_trim(0)
    }

    /// Runs `read` once every change applied so far is written, or undone because it could not be:
    /// at once when none is waiting. What a read tells a caller then survives a crash, and never
    /// shows a change whose call is about to be refused. What time caused is announced before it is
    /// written and recomputed after a crash: it does not hold reads back.
    func whenDurable(_ read: @escaping () -> Void) {
        if allDurable { read() } else { readers.append(read) }
    }

    private var allDurable: Bool { !pending.contains { !$0.announced } && !writing.contains { !$0.announced } }

    // MARK: time

    /// What time alone caused: announced at once, written with the next batch.
    private func deadlineReached() {
        // The first deadline of a run can be one that passed while alarmd was down; a client whose
        // Watch started alarmd must hear of it, so the calls waiting since then are served first.
        if !servedWaitingCalls {
            servedWaitingCalls = true
            bus.processPending(limit: 10_000)
        }
        // Through `plan`, as every change; `.due` is never refused.
        do {
            enqueue(try engine.plan(.due, caller: .user), "due", reply: nil, announceNow: true)
        } catch {
            Log.error("due transitions refused: \(error.message)")
        }
        rearm()
    }

    /// The wall clock stepped by `measured` µs (or was found to have, across the daemon's downtime or
    /// by the test clock): countdowns keep their remaining time, and everything now due rings or is missed.
    func clockStepped(by measured: Int64) {
        // Below 10 ms it is the jitter of reading two clocks, not a step.
        let delta = abs(measured) < 10_000 ? 0 : measured
        if delta != 0 { Log.info("wall clock stepped by \(Double(delta) / 1e6) s; recomputing deadlines") }
        decide(.clockStep(delta: delta), "clock step")
        anchor.save()
    }

    /// At start-up: the step across the daemon's downtime, then the timer armed for the first time.
    func start() {
        clockStepped(by: anchor.stepSinceLastRun())
        rearm()
    }

    /// At exit: the batch with the writer finished (its calls stay unanswered, as after a kill:
    /// the connection closes), and where realtime and boottime stood saved, for the next start to
    /// measure a step by.
    func finish() {
        writer.drain()
        anchor.save()
    }

    /// One kernel timer, armed for the earliest deadline of all alarms; disarmed when there is none.
    private func rearm() {
        deadline.arm(at: clock.machineTime(engine.nextDeadline))
    }

    /// Just before a suspend: the timer armed for the earliest deadline (it is after every change;
    /// this makes sure), and where, for the log line of the suspend.
    func armForSleep() -> String {
        rearm()
        guard let at = deadline.armedAt else { return "nothing is pending" }
        return deadline.wakeCapable
            ? "the next deadline, \(Log.time(at)), is armed on CLOCK_REALTIME_ALARM: the RTC wakes the machine for it"
            : "the next deadline, \(Log.time(at)), is armed on CLOCK_REALTIME: it cannot wake the machine and rings on resume"
    }

    // MARK: committing


    private func enqueue(_ m: Mutation, _ what: String, reply: ((Mutation, AlarmError?) -> Void)?, announceNow: Bool,
                         staged: StagedFiles? = nil) {
        guard !m.isEmpty else {
            staged?.discard()
            reply?(m, nil)
            return
        }
        let before = Dictionary(m.upserts.compactMap { a in engine.alarms[a.id].map { (a.id, $0) } }, uniquingKeysWith: { a, _ in a })
        let authBefore = m.authorizations.map { ($0.app, engine.authorizations[$0.app]) }
        let zoneBefore = m.timeZone.map { _ in engine.timeZone }
        engine.apply(m)
        let change = AppliedChange(mutation: m, before: before)
        pending.append(Pending(change: change, authorizationsBefore: authBefore, zoneBefore: zoneBefore,
                               reply: reply, announced: announceNow, what: what, staged: staged))
        rearm()
        if announceNow {
            announce(change)
            betweenAnnounceAndWrite?()
        }
        flushSource.trigger()
    }

    /// Hands every pending change to the writer as one transaction, unless a batch is still with it
    /// (then `written` starts the next).
    private func flush() {
        guard !flushing, !writer.busy else { return }
        flushing = true
        defer { flushing = false }
        // Calls that already arrived join this transaction, until a deadline comes due: then the
        // batch is closed here, and the loop serves the timer (its source is the more important)
        // before it reads the rest of the queue.
        bus.processPending(limit: 10_000, stop: { deadline.isDue })
        if !deadline.isDue { servedWaitingCalls = true }
        guard !pending.isEmpty else {
            settled()
            return
        }
        writing = pending
        pending = []
        writer.write(writing.map(\.change.mutation), after: writing.compactMap(\.staged?.makeDurable))
    }

    /// The writer's outcome for `writing`: answered and announced in order once durable; else undone.
    private func written(_ error: (any Error)?) {
        let batch = writing
        writing = []
        if let error {
            // What must be written again waits for the retry timer: trying again at once would
            // hold the loop for as long as the store refuses (a full disk: for good).
            fail(batch, error)
        } else {
            for p in batch {
                p.reply?(p.change.mutation, nil)
                if !p.announced { announce(p.change) }
                for durable in durableSubscribers { durable(p.change) }
            }
            // Planned meanwhile, or submitted by announcing (a sound error): the next batch.
            if !pending.isEmpty { flushSource.trigger() }
        }
        settled()
    }

    /// Reads wait for every change applied so far; the idle tidy-up a second after the last write.
    private func settled() {
        if allDurable {
            let waiting = readers
            readers = []
            for read in waiting { read() }
        }
        idle.arm(at: SystemClock.monotonic + usecPerSecond)
    }

    /// The write failed: every change that was not announced yet — of the failed batch and of those
    /// planned on top of it since — is undone, newest first, and its caller told; what time caused
    /// stays (it is true whatever the disk says) and is written again.
    private func fail(_ batch: [Pending], _ error: any Error) {
        let later = pending
        pending = []
        Log.error("store: \(error); \(batch.count) change(s) not saved\(later.isEmpty ? "" : ", \(later.count) planned on top of them undone")")
        var keep: [Pending] = []
        for p in (batch + later).reversed() {
            guard !p.announced else { keep.insert(p, at: 0); continue }
            undo(p)
            p.staged?.discard()
            if let reply = p.reply {
                reply(p.change.mutation, .ioError("the change could not be saved: \(error)"))
            } else {
                Log.error("\(p.what): change not saved")
            }
        }
        rearm()
        // Answering may have submitted more: it comes after what is kept.
        pending = keep + pending
        if !keep.isEmpty {
            Log.error("due transitions not saved; retrying in 1 s")
            retry.arm(at: SystemClock.monotonic + usecPerSecond)
        }
    }

    private func undo(_ p: Pending) {
        var inverse = Mutation()
        let m = p.change.mutation
        for a in m.upserts {
            if let old = p.change.before[a.id] { inverse.upserts.append(old) } else { inverse.removals.append(.init(alarm: a, reason: .cancelled)) }
        }
        inverse.upserts += m.removals.map(\.alarm)
        inverse.timeZone = p.zoneBefore
        for (app, state) in p.authorizationsBefore {
            if let state { inverse.authorizations.append((app, state)) } else { engine.forgetAuthorization(app) }
        }
        engine.apply(inverse)
    }

    private func announce(_ change: AppliedChange) {
        for s in subscribers { s.applied(change) }
    }
}
