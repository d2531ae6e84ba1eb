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

/// The one capability everything but method calls needs: make a change the daemon decided itself
/// (a notification's Stop, a sound error, a prompt's answer, a clock step). Failures are logged.
protocol ChangeSink: AnyObject {
    /// `then` runs once the change is durable (nil) or was refused (the error).
    func submit(_ m: Mutation, _ what: String, then: ((AlarmError?) -> Void)?)
}

extension ChangeSink {
    func submit(_ m: Mutation, _ what: String) { submit(m, what, then: nil) }
}

/// Owns the engine and the store, and announces. Data flows one way: a plan is applied to the
/// in-memory engine at once (so the next call of the same loop pass is planned against it), written
/// with every other change of that pass in one transaction, and only then answered and announced.
/// What time alone causes (due, warning, ring timeout) is announced first and written right after in
/// the same loop pass: it would be recomputed from the stored alarms after a crash.
final class Committer: ChangeSink {
    let engine: AlarmEngine
    private let store: Store
    private var subscribers: [ChangeSubscriber] = []
    /// Runs after the engine changed (applied or rolled back): re-arms the deadline timer.
    var afterChange: () -> Void = {}
    /// Dispatches method calls that already arrived, so they join this pass's transaction.
    var drainPending: () -> Void = {}
    /// Tests only: runs between announcing what time caused and writing it (to crash there).
    var betweenAnnounceAndWrite: () -> Void = {}

    private struct Pending {
        let change: AppliedChange
        /// What the authorizations it set were before (nil: never decided).
        let authorizationsBefore: [(String, AuthorizationState?)]
        /// For a method call: its answer, once the change is durable or refused.
        let reply: ((AlarmError?) -> Void)?
        let announced: Bool
        let what: String
    }
    private var pending: [Pending] = []
    /// Reads waiting for every change already applied to be durable (or undone).
    private var readers: [() -> Void] = []
    private var flushing = false
    private let flushSource: DeferSource
    private let retry: TimerSource
    /// A second after the last write: tidy up once, then sleep (no periodic wake-ups).
    private let idle: TimerSource

    init(engine: AlarmEngine, store: Store, loop: EventLoop) throws(BusError) {
        self.engine = engine
        self.store = store
        var flush: (() -> Void)?
        flushSource = try loop.makeDefer { flush?() }
        var again: (() -> Void)?
        retry = try loop.makeTimer(clock: CLOCK_MONOTONIC) { again?() }
        var tidy: (() -> Void)?
        idle = try loop.makeTimer(clock: CLOCK_MONOTONIC) { tidy?() }
        flush = { [unowned self] in self.flush() }
        again = { [unowned self] in self.flushSource.trigger() }
        tidy = { [unowned self] in
            // Let the WAL start over, and hand back to the kernel what a burst of calls left in
            // malloc's free lists (a 100k-alarm fill left some 70 MiB there).
            _ = self.store.checkpointIfNeeded(minimumFrames: 1)
            malloc_trim(0)
        }
    }

    func subscribe(_ s: ChangeSubscriber) { subscribers.append(s) }

    /// A change applied now and announced once durable; `then` (a method call's answer) hears nil
    /// then, or the error when it could not be saved.
    func submit(_ m: Mutation, _ what: String, then: ((AlarmError?) -> Void)?) {
        enqueue(m, what, reply: then, announceNow: false)
    }

    /// Runs `read` once every change applied so far is written, or undone because it could not be:
    /// at once when none is waiting. What a read tells a caller then survives a crash, and never
    /// shows a change whose call is about to be refused. What time caused is announced before it is
    /// written and recomputed after a crash: it does not hold reads back.
    func whenDurable(_ read: @escaping () -> Void) {
        if allDurable { read() } else { readers.append(read) }
    }

    private var allDurable: Bool { !pending.contains { !$0.announced } }

    /// What time alone caused: announced at once, written in this loop pass.
    func fire(_ m: Mutation) {
        enqueue(m, "due", reply: nil, announceNow: true)
    }

    private func enqueue(_ m: Mutation, _ what: String, reply: ((AlarmError?) -> Void)?, announceNow: Bool) {
        guard !m.isEmpty else {
            reply?(nil)
            return
        }
        let before = Dictionary(m.upserts.compactMap { a in engine.alarms[a.id].map { (a.id, $0) } }, uniquingKeysWith: { a, _ in a })
        let authBefore = m.authorizations.map { ($0.app, engine.authorizations[$0.app]) }
        engine.apply(m)
        let change = AppliedChange(mutation: m, before: before)
        pending.append(Pending(change: change, authorizationsBefore: authBefore, reply: reply, announced: announceNow, what: what))
        afterChange()
        if announceNow {
            announce(change)
            betweenAnnounceAndWrite()
        }
        flushSource.trigger()
    }

    /// Writes every pending change in one transaction, then answers and announces them in order.
    private func flush() {
        guard !flushing else { return }
        flushing = true
        defer { flushing = false }
        drainPending()
        while !pending.isEmpty {
            let batch = pending
            pending = []
            do {
                try store.commit(batch.map(\.change.mutation))
            } catch {
                // What must be written again waits for the retry timer: trying again at once would
                // hold the loop for as long as the store refuses (a full disk: for good).
                fail(batch, error)
                break
            }
            for p in batch {
                p.reply?(nil)
                if !p.announced { announce(p.change) }
            }
            // Announcing may have submitted more (a sound error): the loop writes those too.
        }
        if allDurable {
            let waiting = readers
            readers = []
            for read in waiting { read() }
        }
        idle.arm(at: Clocks.monotonic + usecPerSecond)
    }

    /// The write failed: every change that was not announced yet is undone, newest first, and its
    /// caller told; what time caused stays (it is true whatever the disk says) and is written again.
    private func fail(_ batch: [Pending], _ error: any Error) {
        Log.error("store: \(error); \(batch.count) change(s) not saved")
        var keep: [Pending] = []
        for p in batch.reversed() {
            guard !p.announced else { keep.insert(p, at: 0); continue }
            undo(p)
            if let reply = p.reply {
                reply(.ioError("the change could not be saved: \(error)"))
            } else {
                Log.error("\(p.what): change not saved")
            }
        }
        afterChange()
        if !keep.isEmpty {
            pending = keep + pending
            Log.error("due transitions not saved; retrying in 1 s")
            retry.arm(at: Clocks.monotonic + usecPerSecond)
        }
    }

    private func undo(_ p: Pending) {
        var inverse = Mutation()
        let m = p.change.mutation
        for a in m.upserts {
            if let old = p.change.before[a.id] { inverse.upserts.append(old) } else { inverse.removals.append(.init(alarm: a, reason: .cancelled)) }
        }
        inverse.upserts += m.removals.map(\.alarm)
        for (app, state) in p.authorizationsBefore {
            if let state { inverse.authorizations.append((app, state)) } else { engine.forgetAuthorization(app) }
        }
        engine.apply(inverse)
    }

    private func announce(_ change: AppliedChange) {
        for s in subscribers { s.applied(change) }
    }
}
