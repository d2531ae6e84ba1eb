// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// Makes sure a ringing alarm is heard: while anything rings, the sink alarmd's sound plays on is
/// unmuted and at least at the alarm volume (OutputOverride decides), and afterwards it is put back,
/// unless the user changed it meanwhile.
///
/// What alarmd changed is written to the store (SQLite, synchronous=FULL: fsync'd on commit) before the
/// change, so that a crash while ringing is repaired at the next start. The store rather than a file
/// of its own: it already is the durable state, in the state directory, written the same way; and a
/// store set aside as damaged takes nothing with it but this one line, which is then lost (the user
/// sees a loud sink, never a broken one).
///
/// libpulse is connected only while there is something to do (ringing, or a record to repair): an idle
/// alarmd keeps no connection and no thread, and a sound server that restarted meanwhile costs nothing.
/// One step runs at a time (`busy`); whatever arrives meanwhile is looked at when it ends.
final class OutputGuard {
    private static let key = "output_override"
    private let store: Store
    private let loop: EventLoop
    private let enabled: Bool
    private let alarmVolume: Int
    private var pulse: PulseClient?
    /// libpulse's replies reach the loop through this pipe, watched once for the life of alarmd.
    private var inbox: PulseInbox?
    private var connected = false
    /// Something rings (the Ringer says so, through Alerts).
    private var wanted = false
    /// A connection may be tried: once per start of ringing and once at start-up for a record, so a
    /// missing sound server costs one attempt, never a retry loop.
    private var mayConnect = false
    private var warned = false
    private var busy = false
    /// A sink event arrived during a step: look again when it ends.
    private var dirty = false
    private var streamMoved = false
    /// The sink alarmd holds while ringing, and what it changed there (nil: nothing needed changing).
    private struct Held {
        var sink: String
        var saved: OutputOverride.Saved?
        var touched = OutputOverride.Touched()
    }
    private var held: Held?
    /// A record from a run that ended while ringing (crash, lost server): to repair at the next connection.
    private var leftover: OutputOverride.Saved?

    init(store: Store, loop: EventLoop, config: DaemonConfig) {
        self.store = store
        self.loop = loop
        enabled = config.overrideOutputVolume
        alarmVolume = config.alarmVolume
        if let text = store.metaIfReadable(Self.key) {
            if let saved = OutputOverride.decode(text) {
                leftover = saved
                mayConnect = true
                Log.info("output: alarmd ended while ringing; putting sink '\(saved.sink)' back")
            } else {
                Log.warning("output: unreadable saved state '\(text)'; forgotten")
                forget()
            }
        }
        if !enabled { Log.info("output: override_output_volume is off; the output's mute and volume are left alone") }
    }

    /// At start-up: repairs what a run that ended while ringing left behind.
    func start() { advance() }

    /// Whether anything rings; called whenever that may have changed.
    func set(ringing: Bool) {
        guard enabled || leftover != nil else { return }
        if ringing && !wanted { mayConnect = true }
        wanted = ringing && enabled
        advance()
    }

    /// alarmd is exiting (SIGTERM): the loop no longer runs, so wait here, briefly, until the output
    /// is back as it was.
    func finish(timeout: Double = 2) {
        wanted = false
        advance()
        pulse?.pump(until: { [unowned self] in !busy && held == nil }, timeout: timeout)
        disconnect()
    }

    // MARK: steps

    private func advance() {
        guard !busy else { return }
        let work = leftover != nil || (wanted && held == nil) || (!wanted && held != nil) || (held != nil && (dirty || streamMoved))
        guard work else {
            if !wanted && held == nil { disconnect() }
            return
        }
        guard connected else {
            connect()
            return
        }
        if let saved = leftover {
            busy = true
            pulse?.sink(named: saved.sink) { [unowned self] found in
                guard let found else {
                    Log.info("output: sink '\(saved.sink)' is gone; its saved state is forgotten")
                    leftover = nil
                    forget()
                    return stepDone()
                }
                putBack(saved, now: found.state, touched: OutputOverride.Touched()) {
                    self.leftover = nil
                    self.forget()
                    self.stepDone()
                }
            }
        } else if wanted && held == nil {
            engage()
        } else if !wanted, let h = held {
            release(h)
        } else if streamMoved {
            streamMoved = false
            followStream()
        } else if dirty, let h = held {
            dirty = false
            recheck(h)
        }
    }

    private func stepDone() {
        busy = false
        advance()
    }

    private func connect() {
        guard pulse == nil, mayConnect else { return }
        mayConnect = false
        if inbox == nil {
            do {
                let i = try PulseInbox()
                _ = try loop.watchReadable(i.pipe.readFD) { [unowned self] in
                    if let pulse { pulse.drain() } else { _ = i.take() }
                }
                inbox = i
            } catch {
                Log.warning("output: cannot watch libpulse's replies (\(error))")
            }
        }
        if let why = PulseClient.loadLibrary() {
            noServer(why)
            return
        }
        guard let inbox, let p = PulseClient(inbox: inbox, applicationName: "alarmd") else {
            noServer("libpulse could not start")
            return
        }
        pulse = p
        busy = true
        p.onEvent = { [unowned self] event in self.event(event) }
    }

    private func disconnect() {
        pulse?.close()
        pulse = nil
        connected = false
        busy = false
    }

    private func event(_ e: PulseClient.Event) {
        switch e {
        case .connected:
            connected = true
            pulse?.subscribe()
            stepDone()
        case .gone(let why):
            if connected {
                Log.warning("output: the sound server went away (\(why)); the output is left as it is")
            } else {
                noServer(why)
            }
            // What alarmd set stays recorded, to be put back at the next connection.
            if let saved = held?.saved { leftover = saved }
            held = nil
            disconnect()
        case .changed(let sinkInput):
            if sinkInput { streamMoved = true } else { dirty = true }
            if held != nil { advance() }
        case .reply:
            break
        }
    }

    private func noServer(_ why: String) {
        if !warned { Log.warning("output: no sound server (\(why)); cannot make sure alarms are heard") }
        warned = true
        disconnect()
    }

    /// The sink of alarmd's own stream, which is where the alarm is heard; before canberra's stream
    /// exists (it starts asynchronously) the default sink, where it will play unless told otherwise.
    private func chooseSink(_ done: @escaping (PulseSink?) -> Void) {
        guard let p = pulse else { return done(nil) }
        p.ownStreamSink { [unowned self] index in
            if let index {
                pulse?.sink(index: index, done)
            } else {
                pulse?.defaultSink { [unowned self] name in
                    guard let name, let p = pulse else { return done(nil) }
                    p.sink(named: name, done)
                }
            }
        }
    }

    private func engage() {
        busy = true
        chooseSink { [unowned self] found in
            guard wanted else { return stepDone() }
            guard let found else {
                Log.warning("output: no sink to play on; the output is left as it is")
                held = Held(sink: "")
                return stepDone()
            }
            hold(found.name, found.state)
        }
    }

    private func hold(_ sink: String, _ observed: OutputOverride.SinkState) {
        guard let target = OutputOverride.target(observed: observed, alarmVolume: alarmVolume) else {
            held = Held(sink: sink)
            Log.info("output: sink '\(sink)' is unmuted at \(percent(observed.volume)) %; left as it is")
            return stepDone()
        }
        let saved = OutputOverride.Saved(sink: sink, before: observed, set: target)
        do {
            try store.setMeta(Self.key, OutputOverride.encode(saved))
        } catch {
            // Without the record a crash would leave the sink loud forever: do not touch it.
            Log.error("output: cannot save the sink's state (\(error)); the output is left as it is")
            held = Held(sink: sink)
            return stepDone()
        }
        held = Held(sink: sink, saved: saved)
        Log.info("output: sink '\(sink)' \(describe(observed)) → \(describe(target)) while ringing")
        apply(sink, from: observed, to: target) { [unowned self] in
            // Events that arrived meanwhile may show alarmd's change half done (muted, already raised);
            // once the server acknowledged all of it, any difference from what alarmd set is the user's.
            dirty = true
            stepDone()
        }
    }

    /// What the sink shows now against what alarmd set: a difference is the user's doing and stays.
    private func recheck(_ h: Held) {
        guard let saved = h.saved else { return }
        busy = true
        pulse?.sink(named: h.sink) { [unowned self] found in
            if let found, held?.sink == h.sink {
                let t = OutputOverride.touched(set: saved.set, observed: found.state)
                let before = held?.touched ?? .init()
                let now = before.union(t)
                if now != before {
                    Log.info("output: sink '\(h.sink)' changed by the user while ringing (\(describe(found.state))); their choice stands")
                }
                held?.touched = now
            }
            stepDone()
        }
    }

    /// Ringing ended: put back what is still alarmd's.
    private func release(_ h: Held) {
        guard let saved = h.saved else {
            held = nil
            return stepDone()
        }
        busy = true
        pulse?.sink(named: h.sink) { [unowned self] found in
            guard let found else {
                held = nil
                forget()
                return stepDone()
            }
            putBack(saved, now: found.state, touched: h.touched) {
                self.held = nil
                self.forget()
                self.stepDone()
            }
        }
    }

    /// alarmd's stream came or moved: if it plays on another sink than the one held, hold that one instead.
    private func followStream() {
        guard let p = pulse, let h = held else { return }
        busy = true
        p.ownStreamSink { [unowned self] index in
            guard let index, let p = pulse else { return stepDone() }
            p.sink(index: index) { [unowned self] found in
                guard let found, let current = held, found.name != current.sink else { return stepDone() }
                Log.info("output: alarmd's stream plays on sink '\(found.name)', not '\(h.sink)'")
                let engageNew = { [unowned self] in
                    held = nil
                    if wanted { hold(found.name, found.state) } else { stepDone() }
                }
                guard let saved = current.saved else { return engageNew() }
                p.sink(named: current.sink) { [unowned self] old in
                    guard let old else {
                        forget()
                        return engageNew()
                    }
                    putBack(saved, now: old.state, touched: current.touched) {
                        self.forget()
                        engageNew()
                    }
                }
            }
        }
    }

    private func putBack(_ saved: OutputOverride.Saved, now: OutputOverride.SinkState, touched: OutputOverride.Touched,
                         then done: @escaping () -> Void) {
        let r = OutputOverride.restore(saved, now: now, touched: touched)
        let kept = OutputOverride.touched(set: saved.set, observed: now).union(touched)
        if kept.mute || kept.volume {
            Log.info("output: sink '\(saved.sink)': keeping the user's \([kept.mute ? "mute" : nil, kept.volume ? "volume" : nil].compactMap { $0 }.joined(separator: " and "))")
        }
        guard !r.isEmpty else { return done() }
        var to = now
        if let m = r.muted { to.muted = m }
        if let v = r.volumes { to.volumes = v }
        Log.info("output: sink '\(saved.sink)' put back: \(describe(now)) → \(describe(to))")
        apply(saved.sink, from: now, to: to, then: done)
    }

    /// Sets what differs, and calls `done` once the server has acknowledged all of it. The volume changes
    /// while the sink is muted (mute first, unmute last): it never plays at a level in between.
    private func apply(_ sink: String, from: OutputOverride.SinkState, to: OutputOverride.SinkState, then done: @escaping () -> Void) {
        guard let p = pulse else { return done() }
        var outstanding = 0
        let one: (Bool) -> Void = { ok in
            if !ok { Log.warning("output: sink '\(sink)': the sound server refused a change") }
            outstanding -= 1
            if outstanding == 0 { done() }
        }
        if from.volumes != to.volumes { outstanding += 1 }
        if from.muted != to.muted { outstanding += 1 }
        guard outstanding > 0 else { return done() }
        if to.muted {
            if from.muted != to.muted { p.setMute(sink, true, one) }
            if from.volumes != to.volumes { p.setVolumes(sink, to.volumes, one) }
        } else {
            if from.volumes != to.volumes { p.setVolumes(sink, to.volumes, one) }
            if from.muted != to.muted { p.setMute(sink, false, one) }
        }
    }

    private func forget() {
        do { try store.removeMeta(Self.key) } catch { Log.error("output: saved state not removed: \(error)") }
    }

    private func percent(_ v: UInt32) -> Int { Int((UInt64(v) * 100 + UInt64(OutputOverride.norm) / 2) / UInt64(OutputOverride.norm)) }

    private func describe(_ s: OutputOverride.SinkState) -> String {
        (s.muted ? "muted" : "unmuted") + " at " + s.volumes.map { "\(percent($0)) %" }.joined(separator: "/")
    }
}
