// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CCanberra
import Glibc
import SDBus
import SystemFiles

/// Plays each alerting alarm's sound through libcanberra, in a loop, until told to stop.
///
/// canberra reports the end of a sound on a thread of its own, where libcanberra must not be called:
/// the finish callback only writes (id, error) into a pipe, and the event loop replays from there.
final class Ringer {
    private struct Ring {
        let canberraId: UInt32
        let choice: SoundChoice
        let title: String
        let ramp: UInt32
        let started: UInt64
        var loops = 0
    }

    /// Made at the first ring, with libcanberra loaded only then: an idle alarmd maps neither it nor
    /// what it brings along (its backend, libpulse, the decoders). Tried once, as at start-up before.
    private var context: OpaquePointer?
    /// Why there is no context, once it was tried.
    private var unavailable: String?
    private var rings: [String: Ring] = [:]
    private var byCanberraId: [UInt32: String] = [:]
    private var nextId: UInt32 = 1
    private let finish: FinishPipe
    private let soundDirectories: [String]
    /// Called when a ring cannot be heard, once per alert.
    private let onError: (String, String) -> Void

    init(loop: EventLoop, soundDirectories: [String], onError: @escaping (_ alarm: String, _ message: String) -> Void) throws {
        self.soundDirectories = soundDirectories
        self.onError = onError
        finish = try FinishPipe()
        try loop.watchReadable(finish.readFD) { [unowned self] in self.drainFinished() }
    }

    deinit {
        if let context { _ = sym_ca_context_destroy!(context) }
    }

    /// The context, made on first use; nil (said once in the log) when libcanberra cannot be loaded or
    /// makes none.
    private func openContext() -> OpaquePointer? {
        if context != nil || unavailable != nil { return context }
        if let why = loadSoundLibrary(alarmd_load_canberra) {
            unavailable = "libcanberra is not available (\(why))"
            Log.error("libcanberra: cannot load it (\(why)); alarms will alert without sound")
            return nil
        }
        var c: OpaquePointer?
        guard sym_ca_context_create!(&c) == Int32(CA_SUCCESS), let c else {
            unavailable = "libcanberra is not available"
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
                               ramp: alarm.config.volumeRamp, started: SystemClock.monotonic)
        byCanberraId[id] = alarm.id
        if case .file(let path) = choice, !fileExists(path, readable: true) {
            fail(alarm.id, "sound file \(path) cannot be read")
            return
        }
        play(alarm.id)
    }

    func stop(_ alarmId: String) {
        guard let ring = rings.removeValue(forKey: alarmId) else { return }
        byCanberraId.removeValue(forKey: ring.canberraId)
        if let context { _ = sym_ca_context_cancel!(context, ring.canberraId) }
        Log.info("ring \(alarmId): stopped after \(ring.loops) loop(s)")
    }

    private func play(_ alarmId: String) {
        guard var ring = rings[alarmId] else { return }
        guard let context = openContext() else { fail(alarmId, unavailable ?? "libcanberra is not available"); return }
        let elapsed = Double(SystemClock.monotonic - ring.started) / 1_000_000
        let db = VolumeRamp.decibels(elapsed: elapsed, ramp: ring.ramp)
        var props: OpaquePointer?
        _ = sym_ca_proplist_create!(&props)
        defer { _ = sym_ca_proplist_destroy!(props) }
        switch ring.choice {
        case .event(let e):
            _ = sym_ca_proplist_sets!(props, CA_PROP_EVENT_ID, e)
        case .file(let f):
            _ = sym_ca_proplist_sets!(props, CA_PROP_MEDIA_FILENAME, f)
            _ = sym_ca_proplist_sets!(props, CA_PROP_CANBERRA_CACHE_CONTROL, "volatile")
        }
        _ = sym_ca_proplist_sets!(props, CA_PROP_MEDIA_ROLE, "alarm")
        _ = sym_ca_proplist_sets!(props, CA_PROP_EVENT_DESCRIPTION, ring.title)
        _ = sym_ca_proplist_sets!(props, CA_PROP_CANBERRA_VOLUME, fixed(db, digits: 1))
        let r = sym_ca_context_play_full!(context, ring.canberraId, props, finishCallback, Unmanaged.passUnretained(finish).toOpaque())
        if r != Int32(CA_SUCCESS) {
            fail(alarmId, "cannot play \(ring.choice.label): \(canberraError(r))")
            return
        }
        ring.loops += 1
        rings[alarmId] = ring
        Log.info("ring \(alarmId): loop \(ring.loops) of \(ring.choice.label) at \(fixed(db, digits: 1)) dB")
    }

    private func fail(_ alarmId: String, _ message: String) {
        // The alarm keeps alerting (notification, state); only the sound is missing, and that is said once.
        Log.warning("ring \(alarmId): \(message); alerting without sound")
        onError(alarmId, message)
    }

    private func drainFinished() {
        var event = (UInt32(0), Int32(0))
        while read(finish.readFD, &event, MemoryLayout.size(ofValue: event)) == MemoryLayout.size(ofValue: event) {
            let (id, error) = event
            guard let alarmId = byCanberraId[id], rings[alarmId] != nil else { continue }
            if error == Int32(CA_SUCCESS) {
                play(alarmId)
            } else if error != Int32(CA_ERROR_CANCELED) {
                fail(alarmId, "playback of \(rings[alarmId]!.choice.label) failed: \(canberraError(error))")
            }
        }
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

/// The write end is used from canberra's thread; the pipe is non-blocking at both ends.
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
    let pipe = Unmanaged<FinishPipe>.fromOpaque(userdata).takeUnretainedValue()
    var event = (id, error)
    _ = write(pipe.writeFD, &event, MemoryLayout.size(ofValue: event))
}
