// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// A libcanberra.so.0 found first through LD_LIBRARY_PATH that plays nothing and writes down every
/// file it is asked to play: what the sound library was asked, whatever the machine's sound.
final class RecordingCanberra {
    let canberra: StandInCanberra
    var played: String { canberra.dir.path + "/played" }
    var environment: [String: String] { canberra.environment.merging(["ALARMD_TEST_CANBERRA_PLAYED": played]) { a, _ in a } }

    init() throws {
        canberra = try StandInCanberra(proplistSets: """
            (void)p;
            const char *to = getenv("ALARMD_TEST_CANBERRA_PLAYED");
            if (to && strcmp(k, "media.filename") == 0) {
                int fd = open(to, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
                if (fd >= 0) { dprintf(fd, "%s\\n", v); close(fd); }
            }
            return 0;
            """, playFull: "return 0;")
    }

    /// The files asked for so far, in order.
    var files: [String] { readText(played).split(separator: "\n").map(String.init) }
}

/// A file to hand over, written to a temporary directory.
func soundFile(_ bytes: [UInt8], _ name: String, in dir: TempDir) throws -> String {
    let path = dir.path + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// `path` opened for reading, as the value of `sound_file`.
func descriptor(_ path: String) throws(BusError) -> Value { .unixFD(try UnixFD.open(readingFrom: path)) }

/// The regular files below the harness's directory of copies.
func copies(_ h: Harness) -> [String] {
    let root = h.state.path + "/state/sounds"
    return (FileManager.default.subpaths(atPath: root) ?? []).filter { sub in
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: root + "/" + sub, isDirectory: &isDir) && !isDir.boolValue
    }.sorted()
}

/// The descriptors alarmd holds open now.
func openDescriptors(_ h: Harness) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(h.daemon.process.pid)/fd").count) ?? -1
}

/// An app's own sound handed over as an open file (`sound_file`): alarmd keeps a copy, rings with it
/// after the app and the original are gone and after a restart, and lets it go with the alarm.
@Suite(.serialized) struct SoundFileTests {
    @Test func aWavAndAnOggVorbisFileGivenByDescriptorRingWithTheirCopies() throws {
        let canberra = try RecordingCanberra()
        let files = TempDir("alarmd-sound-files")
        let h = try Harness(config: "[authorization]\ndefault = allow\n", environment: canberra.environment)
        let app = try h.app("org.example.Clock")
        let wav = SoundFiles.wav(seconds: 0.5)
        let ogg = try SoundFiles.shipped("beacon")
        let wavPath = try soundFile(wav, "mine.wav", in: files)
        let oggPath = try soundFile(ogg, "mine.oga", in: files)
        // The file's offset is the app's: alarmd reads from the start whatever it is.
        let fd = try UnixFD.open(readingFrom: oggPath)
        _ = lseek(fd.number, 100, SEEK_SET)
        let w = try app.schedule([("title", .string("Wav")), ("duration", .uint32(2)), ("sound_file", try descriptor(wavPath))])
        let o = try h.client.schedule([("title", .string("Ogg")), ("duration", .uint32(2)), ("sound_file", .unixFD(fd))])
        let wavCopy = try h.client.property(w, alarmInterface, "Sound").stringValue ?? ""
        let oggCopy = try h.client.property(o, alarmInterface, "Sound").stringValue ?? ""
        let root = h.state.path + "/state/sounds"
        let (wid, oid) = (AlarmID.id(fromPath: w)!, AlarmID.id(fromPath: o)!)
        #expect(wavCopy.hasPrefix("\(root)/org.example.Clock/\(wid)-") && wavCopy.hasSuffix(".wav"), "\(wavCopy)")
        #expect(oggCopy.hasPrefix("\(root)/user/\(oid)-") && oggCopy.hasSuffix(".ogg"), "\(oggCopy)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: wavCopy))) == wav)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: oggCopy))) == ogg)
        #expect(copies(h) == ["org.example.Clock/" + (wavCopy as NSString).lastPathComponent, "user/" + (oggCopy as NSString).lastPathComponent])
        // Only alarmd may read its copies.
        var st = stat()
        #expect(stat(wavCopy, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(stat(root, &st) == 0 && st.st_mode & 0o777 == 0o700)
        // The app and its files go; the alarms ring with alarmd's copies.
        try FileManager.default.removeItem(atPath: wavPath)
        try FileManager.default.removeItem(atPath: oggPath)
        _ = app
        #expect(h.client.waitForState(w, "alerting") && h.client.waitForState(o, "alerting"))
        #expect(eventually { Set(canberra.files) == [wavCopy, oggCopy] }, "\(canberra.files)")
        #expect(try h.client.property(w, alarmInterface, "SoundError") == .string(""))
        #expect(h.daemon.log.contains("keeping its sound file (WAV, \(SoundFile.words(wav.count))) as \(wavCopy)"))
    }

    /// The proof that libcanberra plays what alarmd keeps: through a real PulseAudio, measured at the sink.
    @Test func theCopiesAreHeard() throws {
        let pulse = try PulseServer()
        let rec = try SinkRecorder(pulse)
        let files = TempDir("alarmd-sound-files")
        let h = try Harness(environment: pulse.clientEnvironment)
        let c = h.client!
        for (name, bytes) in [("tone.wav", SoundFiles.wav(seconds: 0.6)), ("beacon.oga", try SoundFiles.shipped("beacon"))] {
            let path = try c.schedule([("title", .string(name)), ("duration", .uint32(1)),
                                       ("sound_file", try descriptor(try soundFile(bytes, name, in: files)))])
            #expect(c.waitForState(path, "alerting"))
            let start = try c.fireTime(path)
            c.pump(2.0)
            try c.call("Stop", [.string(AlarmID.id(fromPath: path)!)])
            let stopped = Date()
            c.pump(1.0)
            rec.waitUntilRecorded(Date())
            let ringing = rec.rms(from: start.addingTimeInterval(0.3), to: stopped.addingTimeInterval(-0.2))
            let after = rec.rms(from: stopped.addingTimeInterval(0.3), to: stopped.addingTimeInterval(0.9))
            print("RMS of \(name)'s copy: ringing \(ringing), after Stop \(after)")
            #expect(ringing > audible, "\(name): heard while alerting")
            #expect(after < silent, "\(name): silence after Stop")
            #expect(h.daemon.log.contains("loop 1 of file \(h.state.path)/state/sounds/user/"), "played from the copy")
        }
        #expect(eventually { copies(h).isEmpty }, "each copy went with its stopped alarm: \(copies(h))")
    }

    @Test func aCopySurvivesARestartAndRingsThen() throws {
        let canberra = try RecordingCanberra()
        let files = TempDir("alarmd-sound-files")
        let h = try Harness(environment: canberra.environment)
        let path = try h.client.schedule([("title", .string("Later")), ("duration", .uint32(3)),
                                          ("sound_file", try descriptor(try soundFile(SoundFiles.wav(), "a.wav", in: files)))])
        let copy = try h.client.property(path, alarmInterface, "Sound").stringValue ?? ""
        try h.restart(kill9: true)
        #expect(try h.client.property(path, alarmInterface, "Sound") == .string(copy))
        #expect(copies(h).count == 1 && FileManager.default.fileExists(atPath: copy))
        #expect(h.client.waitForState(path, "alerting", timeout: 8))
        #expect(eventually { canberra.files.contains(copy) }, "\(canberra.files)")
    }

    /// A copy goes once nothing durable names it: cancel, stop of a one-shot, a silent countdown
    /// completed, the app's authorization revoked, the sound replaced or cleared.
    @Test func aCopyGoesWithItsAlarmOrItsSound() throws {
        let files = TempDir("alarmd-sound-files")
        let h = try Harness(config: "[authorization]\ndefault = allow\n")
        let c = h.client!
        let wav = try soundFile(SoundFiles.wav(seconds: 0.2), "a.wav", in: files)
        let ogg = try soundFile(try SoundFiles.shipped("chime"), "b.oga", in: files)
        func sound(_ path: String) throws -> String { try c.property(path, alarmInterface, "Sound").stringValue ?? "" }
        func withFile(_ more: [(String, Value)] = [], client: Client? = nil) throws -> (path: String, id: String, copy: String) {
            let p = try (client ?? c).schedule([("title", .string("x")), ("duration", .uint32(600)), ("sound_file", try descriptor(wav))] + more)
            return (p, AlarmID.id(fromPath: p)!, try sound(p))
        }
        func gone(_ copy: String) -> Bool { eventually { !FileManager.default.fileExists(atPath: copy) } }

        let cancelled = try withFile()
        try c.call("Cancel", [.string(cancelled.id)])
        #expect(gone(cancelled.copy), "cancel")

        let replaced = try withFile()
        try c.call("Update", [.string(replaced.id), .vardict([("sound_file", try descriptor(ogg))]), .strings([])])
        let second = try sound(replaced.path)
        #expect(second != replaced.copy && second.hasSuffix(".ogg") && FileManager.default.fileExists(atPath: second))
        #expect(gone(replaced.copy), "replaced by another file")
        try c.call("Update", [.string(replaced.id), .vardict([("sound", .string("beacon"))]), .strings([])])
        #expect(gone(second), "replaced by a named sound")
        #expect(try sound(replaced.path) == "beacon", "replaced by a named sound")

        let cleared = try withFile()
        try c.call("Update", [.string(cleared.id), .vardict([]), .strings(["sound"])])
        #expect(gone(cleared.copy), "cleared")
        #expect(try sound(cleared.path) == "default", "cleared")
        let clearedByFile = try withFile()
        try c.call("Update", [.string(clearedByFile.id), .vardict([]), .strings(["sound_file"])])
        #expect(gone(clearedByFile.copy), "cleared as sound_file")
        #expect(try sound(clearedByFile.path) == "default", "cleared as sound_file")

        // Another change keeps it, and so does the copy's own path given back as it reads.
        let kept = try withFile()
        try c.call("Update", [.string(kept.id), .vardict([("title", .string("renamed")), ("sound", .string(kept.copy))]), .strings([])])
        try c.barrier()
        #expect(FileManager.default.fileExists(atPath: kept.copy))
        #expect(try sound(kept.path) == kept.copy)

        let stopped = try c.schedule([("title", .string("x")), ("duration", .uint32(1)), ("sound_file", try descriptor(wav))])
        let stoppedCopy = try sound(stopped)
        #expect(c.waitForState(stopped, "alerting"))
        try c.call("Stop", [.string(AlarmID.id(fromPath: stopped)!)])
        #expect(gone(stoppedCopy), "stop of a one-shot")

        let silent = try c.schedule([("title", .string("x")), ("duration", .uint32(1)), ("ring", .bool(false)), ("sound_file", try descriptor(wav))])
        let silentCopy = try sound(silent)
        #expect(c.waitFor { s in s.named("AlarmRemoved").contains { $0.args.first == .string(AlarmID.id(fromPath: silent)!) } })
        #expect(gone(silentCopy), "a silent countdown completed")

        let app = try h.app("org.example.Clock")
        let revoked = try withFile(client: app)
        #expect(revoked.copy.contains("/sounds/org.example.Clock/"))
        try c.call("SetAuthorization", [.string("org.example.Clock"), .string("denied")])
        #expect(gone(revoked.copy), "revoked")
        #expect(eventually { !FileManager.default.fileExists(atPath: h.state.path + "/state/sounds/org.example.Clock") }, "the app's directory with its last copy")

        #expect(copies(h) == ["user/" + (kept.copy as NSString).lastPathComponent], "\(copies(h))")
    }

    /// Every file libcanberra could not play whole, and everything that is not a file, is refused with
    /// the key and the reason; nothing changes and no copy is left behind.
    @Test func refusedFilesChangeNothing() throws {
        let files = TempDir("alarmd-sound-files")
        let h = try Harness(config: "[limits]\nmax_sound_bytes = 64K\n")
        let c = h.client!
        let good = try soundFile(SoundFiles.wav(seconds: 0.2), "good.wav", in: files)
        let kept = try c.schedule([("title", .string("kept")), ("duration", .uint32(600)), ("sound_file", try descriptor(good))])
        let keptId = AlarmID.id(fromPath: kept)!
        let before = stable(try c.alarms())
        let copiesBefore = copies(h)

        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pipeRead = UnixFD(owning: ends[0], release: { _ = close($0) })
        let pipeWrite = UnixFD(owning: ends[1], release: { _ = close($0) })
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        let socket = UnixFD(owning: pair[0], release: { _ = close($0) })
        let peer = UnixFD(owning: pair[1], release: { _ = close($0) })
        let fifo = files.path + "/fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let writeOnly = open(good, O_WRONLY | O_CLOEXEC)
        let pathOnly = open(good, 0o10_000_000 | O_CLOEXEC)   // O_PATH, which Glibc's module leaves out
        let wav = SoundFiles.wav(seconds: 0.2)
        let cases: [(String, Value, String)] = [
            ("a pipe", .unixFD(pipeRead), "sound_file: is a pipe or FIFO, not a regular file"),
            ("a FIFO", try descriptor(fifo), "sound_file: is a pipe or FIFO, not a regular file"),
            ("a socket", .unixFD(socket), "sound_file: is a socket, not a regular file"),
            ("/dev/null", try descriptor("/dev/null"), "sound_file: is a character device, not a regular file"),
            ("a directory", try descriptor(files.path), "sound_file: is a directory, not a regular file"),
            ("too large", try descriptor(try soundFile(SoundFiles.wav(seconds: 1), "big.wav", in: files)),
             "sound_file: is 93.8 KiB; at most 64 KiB"),
            ("garbage", try descriptor(try soundFile(Array("not a sound at all".utf8), "garbage.wav", in: files)),
             "sound_file: is not a WAV (PCM) or Ogg Vorbis file libcanberra can play: it starts with neither RIFF nor OggS"),
            ("empty", try descriptor(try soundFile([], "empty.wav", in: files)),
             "sound_file: is not a WAV (PCM) or Ogg Vorbis file libcanberra can play: it is empty"),
            ("a truncated WAV", try descriptor(try soundFile(Array(wav.prefix(wav.count - 100)), "cut.wav", in: files)),
             "sound_file: is not a WAV (PCM) or Ogg Vorbis file libcanberra can play: a WAV file cut short: its data chunk claims \(wav.count - 44) bytes, \(wav.count - 144) follow"),
            ("a 24-bit WAV", try descriptor(try soundFile(SoundFiles.wav(seconds: 0.1, bits: 24), "deep.wav", in: files)),
             "sound_file: is not a WAV (PCM) or Ogg Vorbis file libcanberra can play: a WAV file of 24-bit samples (libcanberra plays 8 and 16)"),
            ("opened for writing", .unixFD(UnixFD(owning: writeOnly, release: { _ = close($0) })),
             "sound_file: cannot be read (Bad file descriptor): open it for reading"),
            ("opened as a path only", .unixFD(UnixFD(owning: pathOnly, release: { _ = close($0) })),
             "sound_file: cannot be read (Bad file descriptor): open it for reading"),
            ("a path, not a descriptor", .string(good), "sound_file: must be a file descriptor ('h') of the sound file, opened for reading, got 's'"),
        ]
        for (what, value, message) in cases {
            for update in [false, true] {
                let e = callError { () throws(BusError) in
                    if update {
                        try c.call("Update", [.string(keptId), .vardict([("sound_file", value)]), .strings([])])
                    } else {
                        _ = try c.schedule([("title", .string(what)), ("duration", .uint32(60)), ("sound_file", value)])
                    }
                }
                #expect(e?.name == Contract.ErrorName.invalidArgument, "\(what): \(e?.description ?? "accepted")")
                #expect(e?.message == message, "\(what)")
            }
        }
        // Refused with the file, or for another reason while the file itself is fine.
        let goodFD = try descriptor(good)
        let both = callError { () throws(BusError) in
            _ = try c.schedule([("title", .string("x")), ("duration", .uint32(60)), ("sound", .string("beacon")), ("sound_file", goodFD)])
        }
        #expect(both?.message == "sound_file: cannot be given with sound: give one or the other")
        let noTitle = callError { () throws(BusError) in _ = try c.schedule([("duration", .uint32(60)), ("sound_file", goodFD)]) }
        #expect(noTitle?.message == "title: is required")
        let notFound = callError { () throws(BusError) in
            try c.call("Update", [.string(AlarmID.make()), .vardict([("sound_file", goodFD)]), .strings([])])
        }
        #expect(notFound?.name == Contract.ErrorName.notFound)
        let otherCopy = callError { () throws(BusError) in
            _ = try c.schedule([("title", .string("x")), ("duration", .uint32(60)), ("sound", .string(copiesBefore.first.map { h.state.path + "/state/sounds/" + $0 } ?? ""))])
        }
        #expect(otherCopy?.message == "sound: names a copy alarmd keeps for another alarm; give the file itself with sound_file")
        let undecided = try h.app("org.example.Undecided")
        let notAuthorized = callError { () throws(BusError) in
            _ = try undecided.schedule([("title", .string("x")), ("duration", .uint32(60)), ("sound_file", goodFD)])
        }
        #expect(notAuthorized?.name == Contract.ErrorName.notAuthorized)

        try c.barrier()
        #expect(stable(try c.alarms()) == before, "nothing changed")
        #expect(copies(h) == copiesBefore, "no copy left behind: \(copies(h))")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: h.state.path + "/state/sounds/user"))?.count == 1, "no temporary file either")
        #expect(h.client.nameHasOwner(managerName), "alarmd is still there")
        _ = (pipeWrite, peer)
    }

    /// A change that could not be written is undone, and the copies it wrote go with it; the copy the
    /// alarm still names stays.
    @Test func aFailedWriteTakesItsCopiesBack() throws {
        let files = TempDir("alarmd-sound-files")
        let h = try Harness()
        let wav = try soundFile(SoundFiles.wav(seconds: 0.1), "a.wav", in: files)
        let kept = try h.client.schedule([("title", .string("Kept")), ("duration", .string("1h")), ("sound_file", try descriptor(wav))])
        let keptCopy = try h.client.property(kept, alarmInterface, "Sound").stringValue ?? ""
        let before = copies(h)
        let lock = try CommitTests().lockStore(h)
        let caller = try Client(address: h.bus.address)
        var calls = try (0..<5).map { i in
            try caller.callAsync("Schedule", [.string(""), .vardict([("title", .string("Lost \(i)")), ("duration", .uint32(600)),
                                                                    ("sound_file", try descriptor(wav))])], timeoutSeconds: 60)
        }
        calls.append(try caller.callAsync("Update", [.string(AlarmID.id(fromPath: kept)!), .vardict([("sound_file", try descriptor(wav))]),
                                                     .strings([])], timeoutSeconds: 60))
        #expect(caller.waitFor(timeout: 40) { _ in calls.allSatisfy(\.done) })
        #expect(calls.allSatisfy { $0.error?.name == Contract.ErrorName.ioError }, "\(calls.compactMap(\.error).first.map(\.description) ?? "")")
        #expect(copies(h) == before, "only the copy the alarm names: \(copies(h))")
        #expect(try h.client.property(kept, alarmInterface, "Sound") == .string(keptCopy))
        #expect(h.daemon.log.contains("taken back with its change"))
        lock.closeOutput()
        lock.write("\n")
        lock.process.signal(SIGTERM)
        _ = lock.process.wait(timeout: 5)
        _ = try h.client.schedule([("title", .string("Fine")), ("duration", .string("1h")), ("sound_file", try descriptor(wav))])
        #expect(copies(h).count == 2)
    }

    /// A first Schedule of an undecided app waits for the user's answer, holding the file open but
    /// not its bytes: it is read again once allowed, as it is then, and checked again.
    @Test func aScheduleThatWaitsForConsentReadsTheFileWhenAllowed() throws {
        let files = TempDir("alarmd-sound-files")
        let h = try Harness(notifications: true)
        let app = try h.app("org.example.Clock")
        let first = try soundFile(SoundFiles.wav(seconds: 0.2), "first.wav", in: files)
        let second = try soundFile(SoundFiles.wav(seconds: 0.2), "second.wav", in: files)
        let kept = try app.callAsync("Schedule", [.string(""), .vardict([("title", .string("Kept")), ("duration", .uint32(600)),
                                                                        ("sound_file", try descriptor(first))])])
        let spoilt = try app.callAsync("Schedule", [.string(""), .vardict([("title", .string("Spoilt")), ("duration", .uint32(600)),
                                                                          ("sound_file", try descriptor(second))])])
        _ = try #require(h.notifier!.waitFor(pump: [app]) { $0.count == 1 })
        #expect(!kept.done && !spoilt.done && copies(h).isEmpty, "nothing kept while the user is asked")
        // The files change in place meanwhile (same inode, same descriptor).
        let changed = SoundFiles.wav(seconds: 0.3)
        for (path, bytes) in [(first, changed), (second, Array("no longer a sound".utf8))] {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(bytes))
            try handle.close()
        }
        try h.client.call("SetAuthorization", [.string("org.example.Clock"), .string("authorized")])
        #expect(app.wait(for: kept) && app.wait(for: spoilt))
        guard case .objectPath(let path)? = kept.values?.first else {
            Issue.record("the allowed Schedule failed: \(kept.error?.description ?? "")")
            return
        }
        let copy = try h.client.property(path, alarmInterface, "Sound").stringValue ?? ""
        #expect(FileManager.default.contents(atPath: copy) == Data(changed), "the file as it was when the call went on")
        let refusal = spoilt.error
        #expect(refusal?.name == Contract.ErrorName.invalidArgument, "\(refusal?.description ?? "accepted")")
        #expect(refusal?.message.hasPrefix("sound_file: is not a WAV (PCM) or Ogg Vorbis file") == true, "\(refusal?.description ?? "accepted")")
        #expect(copies(h).count == 1)
        #expect(try h.client.alarms().count == 1)
    }

    @Test func zeroMaxSoundBytesRefusesEveryFile() throws {
        let files = TempDir("alarmd-sound-files")
        let h = try Harness(config: "[limits]\nmax_sound_bytes = 0\n")
        let file = try descriptor(try soundFile(SoundFiles.wav(seconds: 0.1), "a.wav", in: files))
        let e = callError { () throws(BusError) in
            _ = try h.client.schedule([("title", .string("x")), ("duration", .uint32(60)), ("sound_file", file)])
        }
        #expect(e?.message == "sound_file: is not accepted: max_sound_bytes in alarmd.conf is 0")
    }

    /// Every descriptor alarmd is handed is closed once the call is answered, accepted or refused.
    @Test func descriptorsDoNotLeak() throws {
        let files = TempDir("alarmd-sound-files")
        let h = try Harness()
        let c = h.client!
        let good = try soundFile(SoundFiles.wav(seconds: 0.1), "good.wav", in: files)
        let garbage = try soundFile(Array("garbage".utf8), "garbage", in: files)
        // One of each first, so that whatever alarmd opens once (its sound thread's pipe, say) is open.
        let warm = try c.schedule([("title", .string("warm")), ("duration", .uint32(600)), ("sound_file", try descriptor(good))])
        try c.call("Cancel", [.string(AlarmID.id(fromPath: warm)!)])
        try c.barrier()
        let baseline = openDescriptors(h)
        try #require(baseline > 0)
        for i in 0..<60 {
            let p = try c.schedule([("title", .string("\(i)")), ("duration", .uint32(600)), ("sound_file", try descriptor(good))])
            let id = AlarmID.id(fromPath: p)!
            try c.call("Update", [.string(id), .vardict([("sound_file", try descriptor(good))]), .strings([])])
            _ = callError { () throws(BusError) in try c.call("Update", [.string(id), .vardict([("sound_file", try descriptor(garbage))]), .strings([])]) }
            _ = callError { () throws(BusError) in try c.call("Update", [.string(id), .vardict([("sound_file", try descriptor("/dev/null"))]), .strings([])]) }
            _ = callError { () throws(BusError) in _ = try c.schedule([("duration", .uint32(60)), ("sound_file", try descriptor(good))]) }
            try c.call("Cancel", [.string(id)])
        }
        // Many in flight at once: each held until its call is answered.
        let pending = try (0..<40).map { i in
            try c.callAsync("Schedule", [.string(""), .vardict([("title", .string("p\(i)")), ("duration", .uint32(600)),
                                                               ("sound_file", try descriptor(i % 2 == 0 ? good : garbage))])])
        }
        for p in pending { #expect(c.wait(for: p, timeout: 10)) }
        #expect(pending.filter { $0.error == nil }.count == 20)
        try c.barrier()
        #expect(eventually { openDescriptors(h) == baseline }, "alarmd holds \(openDescriptors(h)) descriptors, \(baseline) before")
        #expect(copies(h).count == 20)
    }

    /// What a crash left between writing a copy and its change becoming durable, or between an
    /// alarm going and its copy, goes at the next start; what alarms name stays.
    @Test func atStartUpCopiesNoAlarmNamesAreRemoved() throws {
        let files = TempDir("alarmd-sound-files")
        let h = try Harness()
        let path = try h.client.schedule([("title", .string("x")), ("duration", .uint32(600)),
                                          ("sound_file", try descriptor(try soundFile(SoundFiles.wav(seconds: 0.1), "a.wav", in: files)))])
        let copy = try h.client.property(path, alarmInterface, "Sound").stringValue ?? ""
        let user = h.state.path + "/state/sounds/user"
        let strays = [user + "/." + (copy as NSString).lastPathComponent + ".tmp",
                      user + "/\(AlarmID.make())-0011223344556677.wav",
                      user + "/" + ((copy as NSString).lastPathComponent as NSString).deletingPathExtension + "0.ogg",
                      h.state.path + "/state/sounds/org.example.Gone/\(AlarmID.make())-0011223344556677.ogg"]
        for s in strays {
            try FileManager.default.createDirectory(atPath: (s as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: s))
        }
        try h.restart(kill9: false)
        #expect(copies(h) == ["user/" + (copy as NSString).lastPathComponent], "\(copies(h))")
        #expect(!FileManager.default.fileExists(atPath: h.state.path + "/state/sounds/org.example.Gone"))
        #expect(h.daemon.logs("sound file copies in \(h.state.path)/state/sounds: 1 named by alarms, 4 no alarm names removed"))
    }

    /// `alarmctl --sound-file FILE` opens the file and hands it over as an app would; what it cannot
    /// open, and what alarmd refuses, it says in the option's words.
    @Test func alarmctlHandsOverTheFileItNames() throws {
        let files = TempDir("alarmd-sound-files")
        let h = try Harness()
        let wav = try soundFile(SoundFiles.wav(seconds: 0.2), "ring.wav", in: files)
        let ogg = try soundFile(try SoundFiles.shipped("beacon"), "ring.oga", in: files)
        let set = try h.alarmctl(["alarm", "07:30", "--title", "Own", "--sound-file", wav])
        #expect(set.status == 0, "\(set.err)")
        let id = try printedId(h, set.out)
        let first = try #require(try h.snapshot(id)?.sound)
        #expect(first.hasPrefix(h.state.path + "/state/sounds/user/\(id)-") && first.hasSuffix(".wav"), "\(first)")
        let updated = try h.alarmctl(["update", String(id.prefix(8)), "--sound-file", ogg])
        #expect(updated.status == 0, "\(updated.err)")
        let second = try #require(try h.snapshot(id)?.sound)
        #expect(second.hasSuffix(".ogg") && eventually { !FileManager.default.fileExists(atPath: first) })

        let missing = try h.alarmctl(["alarm", "07:30", "--sound-file", files.path + "/nothing.oga"])
        #expect(missing.status == 2 && missing.err.contains("cannot read \(files.path)/nothing.oga: No such file or directory"), "\(missing.err)")
        let garbage = try soundFile(Array("garbage".utf8), "garbage.oga", in: files)
        let refused = try h.alarmctl(["update", String(id.prefix(8)), "--sound-file", garbage])
        #expect(refused.status == 1 && refused.err.contains("--sound-file: is not a WAV (PCM) or Ogg Vorbis file libcanberra can play"), "\(refused.err)")
        let both = try h.alarmctl(["alarm", "07:30", "--sound", "beacon", "--sound-file", wav])
        #expect(both.status == 1 && both.err.contains("--sound-file: cannot be given with sound"), "\(both.err)")
        #expect(try h.snapshot(id)?.sound == second, "refusals changed nothing")
    }

    /// A sandboxed app may hand over its own sound (a path would mean nothing outside its sandbox),
    /// and write back its alarm's `Sound` as it reads it; it still may name no path.
    @Test func aSandboxedAppRingsItsOwnSound() throws {
        let proc = TempDir("alarmd-proc")
        let root = "\(proc.path)/\(getpid())/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "[Application]\nname=org.gnome.Clocks\n".write(toFile: root + "/.flatpak-info", atomically: true, encoding: .utf8)
        let files = TempDir("alarmd-sound-files")
        let h = try Harness(config: "[authorization]\ndefault = allow\n", extraArgs: ["--proc-root", proc.path])
        let c = h.client!
        let path = try c.schedule([("title", .string("x")), ("duration", .uint32(600)),
                                   ("sound_file", try descriptor(try soundFile(try SoundFiles.shipped("chime"), "c.oga", in: files)))])
        let copy = try c.property(path, alarmInterface, "Sound").stringValue ?? ""
        #expect(copy.hasPrefix(h.state.path + "/state/sounds/org.gnome.Clocks/") && copy.hasSuffix(".ogg"), "\(copy)")
        let id = AlarmID.id(fromPath: path)!
        try c.call("Update", [.string(id), .vardict([("title", .string("y")), ("sound", .string(copy))]), .strings([])])
        #expect(try c.property(path, alarmInterface, "Sound") == .string(copy))
        let e = callError { () throws(BusError) in
            try c.call("Update", [.string(id), .vardict([("sound", .string("/usr/share/sounds/freedesktop/stereo/bell.oga"))]), .strings([])])
        }
        #expect(e?.message.hasPrefix("sound: a sandboxed app may name") == true, "\(e?.description ?? "accepted")")
    }
}
