import AlarmCore
import CCanberra
import FoundationEssentials
import Glibc
import SDBus

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

    private var context: OpaquePointer?
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
        var c: OpaquePointer?
        if ca_context_create(&c) == Int32(CA_SUCCESS), let c {
            context = c
            var props: OpaquePointer?
            ca_proplist_create(&props)
            ca_proplist_sets(props, CA_PROP_APPLICATION_NAME, "alarmd")
            ca_proplist_sets(props, CA_PROP_APPLICATION_ID, "org.alarmd.AlarmManager1")
            ca_proplist_sets(props, CA_PROP_APPLICATION_ICON_NAME, "alarmd-alarm")
            ca_context_change_props_full(c, props)
            ca_proplist_destroy(props)
        } else {
            Log.error("libcanberra: cannot create a context; alarms will alert without sound")
        }
    }

    deinit {
        if let context { ca_context_destroy(context) }
    }

    /// Whether any alarm is alerting (heard or, after a failure, not).
    var isRinging: Bool { !rings.isEmpty }

    func isRinging(_ alarmId: String) -> Bool { rings[alarmId] != nil }

    func start(_ alarm: Alarm) {
        stop(alarm.id)
        let choice = SoundChoice.resolve(alarm.config.sound, soundDirectories: soundDirectories,
                                         exists: { FileManager.default.isReadableFile(atPath: $0) })
        let id = nextId
        nextId = nextId &+ 1 == 0 ? 1 : nextId &+ 1
        rings[alarm.id] = Ring(canberraId: id, choice: choice, title: alarm.config.presentation.title,
                               ramp: alarm.config.volumeRamp, started: SystemClock.monotonic)
        byCanberraId[id] = alarm.id
        if case .file(let path) = choice, !FileManager.default.isReadableFile(atPath: path) {
            fail(alarm.id, "sound file \(path) cannot be read")
            return
        }
        play(alarm.id)
    }

    func stop(_ alarmId: String) {
        guard let ring = rings.removeValue(forKey: alarmId) else { return }
        byCanberraId.removeValue(forKey: ring.canberraId)
        if let context { ca_context_cancel(context, ring.canberraId) }
        Log.info("ring \(alarmId): stopped after \(ring.loops) loop(s)")
    }

    private func play(_ alarmId: String) {
        guard var ring = rings[alarmId] else { return }
        guard let context else { fail(alarmId, "libcanberra is not available"); return }
        let elapsed = Double(SystemClock.monotonic - ring.started) / 1_000_000
        let db = VolumeRamp.decibels(elapsed: elapsed, ramp: ring.ramp)
        var props: OpaquePointer?
        ca_proplist_create(&props)
        defer { ca_proplist_destroy(props) }
        switch ring.choice {
        case .event(let e):
            ca_proplist_sets(props, CA_PROP_EVENT_ID, e)
        case .file(let f):
            ca_proplist_sets(props, CA_PROP_MEDIA_FILENAME, f)
            ca_proplist_sets(props, CA_PROP_CANBERRA_CACHE_CONTROL, "volatile")
        }
        ca_proplist_sets(props, CA_PROP_MEDIA_ROLE, "alarm")
        ca_proplist_sets(props, CA_PROP_EVENT_DESCRIPTION, ring.title)
        ca_proplist_sets(props, CA_PROP_CANBERRA_VOLUME, fixed(db, digits: 1))
        let r = ca_context_play_full(context, ring.canberraId, props, finishCallback, Unmanaged.passUnretained(finish).toOpaque())
        if r != Int32(CA_SUCCESS) {
            fail(alarmId, "cannot play \(ring.choice.label): \(String(cString: ca_strerror(r)))")
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
                fail(alarmId, "playback of \(rings[alarmId]!.choice.label) failed: \(String(cString: ca_strerror(error)))")
            }
        }
    }
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
