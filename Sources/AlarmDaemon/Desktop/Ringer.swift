// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CCanberra
import Dispatch
import Glibc
import SDBus
import SystemFiles

/// Plays each alerting alarm's sound in a loop until told to stop: through feedbackd where a phone
/// has it (vibration, LED and sound, through the silent profile: `PhoneFeedback`), else, or when
/// feedbackd plays nothing for it, through libcanberra.
///
/// Every libcanberra call runs on a thread of its own (`SoundThread`): a sound backend that blocks must
/// not block the event loop, which answers the bus (seen in a session without a sound server:
/// `ca_context_play_full` never returned, and alarmd stopped answering while the alarm rang). What
/// that thread and canberra's own finish callbacks learn comes back through a pipe, and the loop
/// acts on it there.
final class Ringer {
    private struct Ring {
        /// Also this ring's generation: a late answer about a ring started anew finds another id.
        let canberraId: UInt32
        let choice: SoundChoice
        let title: String
        let ramp: UInt32
        /// When libcanberra began to play it: its volume ramp counts from here.
        var started: UInt64
        let event: String
        var loops = 0
        var feedback: FeedbackState = .none
        /// How many feedbacks this ring has started (`PhoneFeedback.afterEnd` bounds the restarts).
        var triggered = 0
    }

    private enum FeedbackState {
        /// Not through feedbackd: libcanberra plays it.
        case none
        /// `TriggerFeedback` is out.
        case pending
        case running(UInt32)
    }

    private var rings: [String: Ring] = [:]
    private var byCanberraId: [UInt32: String] = [:]
    private var nextId: UInt32 = 1
    private let events: SoundEvents
    private let sound: SoundThread
    private let soundDirectories: [String]
    private let feedback: Feedback?
    /// Called when a ring cannot be heard, once per alert.
    private let onError: (String, String) -> Void

    init(loop: EventLoop, soundDirectories: [String], feedback: Feedback?,
         onError: @escaping (_ alarm: String, _ message: String) -> Void) throws {
        self.soundDirectories = soundDirectories
        self.feedback = feedback
        self.onError = onError
        events = try SoundEvents()
        sound = SoundThread(events: events)
        try loop.watchReadable(events.readFD) { [unowned self] in self.drainEvents() }
    }

    /// Whether any alarm is alerting (heard or, after a failure, not).
    var isRinging: Bool { !rings.isEmpty }

    func isRinging(_ alarmId: String) -> Bool { rings[alarmId] != nil }

    func start(_ alarm: Alarm) {
        stop(alarm.id)
        let choice = SoundChoice.resolve(alarm.config.sound, soundDirectories: soundDirectories,
                                         exists: { fileExists($0, readable: true) })
        let id = nextId
        nextId = nextId &+ 1 == 0 ? 1 : nextId &+ 1
        rings[alarm.id] = Ring(canberraId: id, choice: choice, title: alarm.config.presentation.title,
                               ramp: alarm.config.volumeRamp, started: SystemClock.monotonic, event: PhoneFeedback.event(for: alarm.kind))
        byCanberraId[id] = alarm.id
        if case .file(let path) = choice, !fileExists(path, readable: true) {
            fail(alarm.id, "sound file \(path) cannot be read")
            return
        }
        if feedback != nil { trigger(alarm.id) } else { play(alarm.id) }
    }

    func stop(_ alarmId: String) {
        guard let ring = rings.removeValue(forKey: alarmId) else { return }
        byCanberraId.removeValue(forKey: ring.canberraId)
        switch ring.feedback {
        case .none:
            sound.cancel(ring.canberraId)
            Log.info("ring \(alarmId): stopped after \(ring.loops) loop(s)")
        case .pending:
            // Its id is not known yet: the reply finds the ring gone and ends it then.
            Log.info("ring \(alarmId): stopped before feedbackd answered")
        case .running(let fid):
            feedback?.end(fid)
            Log.info("ring \(alarmId): stopped, feedback \(fid) ended")
        }
    }

    /// Rings through feedbackd; where there is none, or it plays nothing for this, through libcanberra.
    private func trigger(_ alarmId: String) {
        guard let feedback, var ring = rings[alarmId] else { return }
        let generation = ring.canberraId
        ring.feedback = .pending
        ring.triggered += 1
        rings[alarmId] = ring
        var file: String? = nil
        if case .file(let f) = ring.choice { file = f }
        feedback.trigger(event: ring.event, hints: PhoneFeedback.hints(soundFile: file), started: { [unowned self] result in
            guard self.rings[alarmId]?.canberraId == generation else {
                if case .success(let fid) = result { feedback.end(fid) }
                return
            }
            switch result {
            case .success(let fid):
                self.rings[alarmId]?.feedback = .running(fid)
                Log.info("ring \(alarmId): through feedbackd, event '\(ring.event)' (feedback \(fid))")
            case .failure(let e):
                if !Feedback.absent.contains(e.name) { Log.warning("ring \(alarmId): feedbackd refused it (\(e.name): \(e.message)); ringing through libcanberra") }
                self.withoutFeedbackd(alarmId)
            }
        }, ended: { [unowned self] reason in
            guard let now = self.rings[alarmId], now.canberraId == generation else { return }
            switch PhoneFeedback.afterEnd(reason, triggered: now.triggered) {
            case .triggerAgain:
                Log.info("ring \(alarmId): feedbackd ended its feedback (\(reason)); starting it again")
                self.trigger(alarmId)
            case .ringWithoutFeedbackd:
                Log.info("ring \(alarmId): feedbackd \(reason == .nothingToPlay ? "has nothing to play for it" : "keeps ending it") "
                    + "(alarmd is not on its allow-important list in a silent profile?); ringing through libcanberra")
                self.withoutFeedbackd(alarmId)
            }
        })
    }

    private func withoutFeedbackd(_ alarmId: String) {
        rings[alarmId]?.feedback = .none
        // The ramp starts with the sound, not with the question to feedbackd that came first.
        rings[alarmId]?.started = SystemClock.monotonic
        play(alarmId)
    }

    private func play(_ alarmId: String) {
        guard let ring = rings[alarmId] else { return }
        let elapsed = Double(SystemClock.monotonic - ring.started) / 1_000_000
        let db = VolumeRamp.decibels(elapsed: elapsed, ramp: ring.ramp)
        sound.play(SoundThread.Request(canberraId: ring.canberraId, choice: ring.choice, title: ring.title, decibels: db))
    }

    private func fail(_ alarmId: String, _ message: String) {
        // The alarm keeps alerting (notification, state); only the sound is missing, and that is said once.
        Log.warning("ring \(alarmId): \(message); alerting without sound")
        onError(alarmId, message)
    }

    private func drainEvents() {
        while let event = events.read() {
            guard let alarmId = byCanberraId[event.canberraId], var ring = rings[alarmId] else { continue }
            switch event.kind {
            case .playing(let decibels):
                ring.loops += 1
                rings[alarmId] = ring
                Log.info("ring \(alarmId): loop \(ring.loops) of \(ring.choice.label) at \(fixed(decibels, digits: 1)) dB")
            case .notPlayed(let code):
                fail(alarmId, "cannot play \(ring.choice.label): \(canberraError(code))")
            case .unavailable:
                fail(alarmId, sound.unavailable ?? "libcanberra is not available")
            case .finished(let code) where code == Int32(CA_SUCCESS):
                play(alarmId)
            case .finished(let code) where code != Int32(CA_ERROR_CANCELED):
                fail(alarmId, "playback of \(ring.choice.label) failed: \(canberraError(code))")
            case .finished:
                break
            }
        }
    }
}

/// The thread every libcanberra call runs on, in order, with the context it owns.
private final class SoundThread: @unchecked Sendable {
    struct Request: Sendable {
        let canberraId: UInt32
        let choice: SoundChoice
        let title: String
        let decibels: Double
    }

    private let queue = DispatchQueue(label: "org.alarmd.sound")
    private let events: SoundEvents
    /// Made at the first ring, with libcanberra loaded only then: an idle alarmd maps neither it nor
    /// what it brings along (its backend, libpulse, the decoders). Tried once. Queue only.
    private var context: OpaquePointer?
    private var tried = false
    /// Why there is no context, once it was tried (read by the loop after an `.unavailable` event).
    private let why = Locked<String?>(nil)

    init(events: SoundEvents) { self.events = events }

    deinit {
        // Only once no call is queued (each holds the thread strongly): nothing else can use the context.
        if let context { _ = sym_ca_context_destroy!(context) }
    }

    var unavailable: String? { why.withLock { $0 } }

    func play(_ request: Request) {
        queue.async { [self] in
            guard let context = openContext() else { return events.send(request.canberraId, .unavailable) }
            var props: OpaquePointer?
            _ = sym_ca_proplist_create!(&props)
            defer { _ = sym_ca_proplist_destroy!(props) }
            switch request.choice {
            case .event(let e):
                _ = sym_ca_proplist_sets!(props, CA_PROP_EVENT_ID, e)
            case .file(let f):
                _ = sym_ca_proplist_sets!(props, CA_PROP_MEDIA_FILENAME, f)
                _ = sym_ca_proplist_sets!(props, CA_PROP_CANBERRA_CACHE_CONTROL, "volatile")
            }
            _ = sym_ca_proplist_sets!(props, CA_PROP_MEDIA_ROLE, "alarm")
            _ = sym_ca_proplist_sets!(props, CA_PROP_EVENT_DESCRIPTION, request.title)
            _ = sym_ca_proplist_sets!(props, CA_PROP_CANBERRA_VOLUME, fixed(request.decibels, digits: 1))
            let r = sym_ca_context_play_full!(context, request.canberraId, props, finishCallback,
                                              Unmanaged.passUnretained(events).toOpaque())
            events.send(request.canberraId, r == Int32(CA_SUCCESS) ? .playing(request.decibels) : .notPlayed(r))
        }
    }

    func cancel(_ canberraId: UInt32) {
        queue.async { [self] in
            if let context { _ = sym_ca_context_cancel!(context, canberraId) }
        }
    }

    private func openContext() -> OpaquePointer? {
        if tried { return context }
        tried = true
        if let error = loadSoundLibrary(alarmd_load_canberra) {
            why.withLock { $0 = "libcanberra is not available (\(error))" }
            Log.error("libcanberra: cannot load it (\(error)); alarms will alert without sound")
            return nil
        }
        var c: OpaquePointer?
        guard sym_ca_context_create!(&c) == Int32(CA_SUCCESS), let c else {
            why.withLock { $0 = "libcanberra is not available" }
            Log.error("libcanberra: cannot create a context; alarms will alert without sound")
            return nil
        }
        context = c
        var props: OpaquePointer?
        _ = sym_ca_proplist_create!(&props)
        _ = sym_ca_proplist_sets!(props, CA_PROP_APPLICATION_NAME, "alarmd")
        _ = sym_ca_proplist_sets!(props, CA_PROP_APPLICATION_ID, "org.alarmd.AlarmManager1")
        _ = sym_ca_proplist_sets!(props, CA_PROP_APPLICATION_ICON_NAME, "alarmd-alarm")
        _ = sym_ca_context_change_props_full!(c, props)
        _ = sym_ca_proplist_destroy!(props)
        return c
    }
}

/// libcanberra's text for an error code (it has one for every code it returns).
private func canberraError(_ code: Int32) -> String {
    sym_ca_strerror!(code).map { String(cString: $0) } ?? "error \(code)"
}

extension SoundChoice {
    var label: String {
        switch self {
        case .event(let e): return "sound-theme event '\(e)'"
        case .file(let f): return "file \(f)"
        }
    }
}

/// What the sound thread and canberra's finish callbacks (on canberra's own thread, where libcanberra
/// must not be called) tell the loop: a non-blocking pipe of fixed-size records.
final class SoundEvents: @unchecked Sendable {
    enum Kind {
        /// `ca_context_play_full` took the sound, at this volume.
        case playing(Double)
        /// `ca_context_play_full` refused it, with this error.
        case notPlayed(Int32)
        /// There is no libcanberra context (`SoundThread.unavailable` says why).
        case unavailable
        /// The sound ended: played through (`CA_SUCCESS`), cancelled, or failed.
        case finished(Int32)
    }

    struct Event {
        let canberraId: UInt32
        let kind: Kind
    }

    /// One record: id, kind (0…3), code, decibels.
    private typealias Record = (UInt32, UInt32, Int32, Double)

    private let pipe: FinishPipe
    var readFD: Int32 { pipe.readFD }

    init() throws { pipe = try FinishPipe() }

    func send(_ canberraId: UInt32, _ kind: Kind) {
        var record: Record
        switch kind {
        case .playing(let db): record = (canberraId, 0, 0, db)
        case .notPlayed(let code): record = (canberraId, 1, code, 0)
        case .unavailable: record = (canberraId, 2, 0, 0)
        case .finished(let code): record = (canberraId, 3, code, 0)
        }
        // A record is smaller than PIPE_BUF: written whole or not at all.
        _ = write(pipe.writeFD, &record, MemoryLayout<Record>.size)
    }

    /// The next event, or nil when the pipe is empty.
    func read() -> Event? {
        var record: Record = (0, 0, 0, 0)
        guard Glibc.read(pipe.readFD, &record, MemoryLayout<Record>.size) == MemoryLayout<Record>.size else { return nil }
        let kind: Kind
        switch record.1 {
        case 0: kind = .playing(record.3)
        case 1: kind = .notPlayed(record.2)
        case 2: kind = .unavailable
        default: kind = .finished(record.2)
        }
        return Event(canberraId: record.0, kind: kind)
    }
}

/// A pipe non-blocking at both ends, written from another thread (the sound thread, canberra's,
/// libpulse's) to wake the event loop, which reads it.
final class FinishPipe: @unchecked Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BusError(errno: -errno, "pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }
}

private let finishCallback: ca_finish_callback_t = { _, id, error, userdata in
    guard let userdata else { return }
    Unmanaged<SoundEvents>.fromOpaque(userdata).takeUnretainedValue().send(id, .finished(error))
}
