// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus
import SystemFiles

/// The copies alarmd keeps of the sound files apps hand it (`sound_file`): a file is read from the
/// caller's descriptor, checked (`SoundFileFormat`), and kept as `<state>/sounds/<app id or
/// user>/<alarm id>-<tag>.<wav|ogg>` for as long as an alarm names it, so that it rings after the app
/// has gone and after a restart. The alarm's `sound` is that path.
///
/// A copy is written under a temporary name while the call is planned, made durable (fsynced,
/// renamed, its directory fsynced) on the store writer's thread just before the transaction that
/// names it, and so before the call is answered; it is taken back if that change is undone. A copy
/// goes once a durable change leaves its alarm without it (the alarm removed, its sound changed or
/// cleared); what a crash left in between (a copy written for a change never made durable, one whose
/// alarm went) is removed at the next start. Copies live beside the store, which names them.
final class SoundCopies {
    /// The directory of copies: `sounds` in alarmd's state directory.
    let root: String
    private let maxBytes: Int
    private let engine: EngineView
    /// Copies a durable alarm names, by alarm; only those are ever removed.
    private var live: [AlarmKey: Set<String>] = [:]
    /// Copies written for changes not yet durable, by alarm.
    private var staged: [AlarmKey: Set<String>] = [:]

    init(stateDirectory: String, maxBytes: Int, engine: EngineView) {
        root = stateDirectory + "/sounds"
        self.maxBytes = maxBytes
        self.engine = engine
    }

    /// A file read and checked, and the path its copy will have.
    struct Intake {
        let fd: UnixFD
        /// Nil once the call waits (for the user's consent): read again when it goes on.
        let bytes: [UInt8]?
        let format: SoundFileFormat
        let key: AlarmKey
        let path: String

        /// The same file, its bytes let go: a call that waits may wait for minutes, and many may
        /// wait, each holding its descriptor (its message does in any case) but not megabytes.
        var waiting: Intake { Intake(fd: fd, bytes: nil, format: format, key: key, path: path) }
    }

    // MARK: the call

    /// `sound` of a `Schedule` or `Update` of alarm `id` by `caller` may name no copy but the alarm's
    /// own, which, given back as it reads, changes nothing and is dropped.
    func checkSound(_ config: inout [String: Value], id: String, caller: Caller) throws(AlarmError) {
        guard config["sound"] != nil else { return }
        let current = AlarmKey(id).flatMap { engine.alarms[$0] }.flatMap { caller.owns($0) ? $0.config.sound : nil }
        try SoundFile.checkSound(&config, copies: root, current: current)
    }

    /// For `Schedule` (`isNew`) and `Update` of alarm `id` by `caller`: takes `sound_file` out of
    /// `config`, reads and checks the file, and makes `sound` the path its copy will have; nil without
    /// `sound_file`. A new alarm without an id is given its id here: the copy is named after it.
    /// Refused as the contract says, naming the key: nothing is written yet.
    func take(_ config: inout [String: Value], clear: inout [String], id: inout String, isNew: Bool, caller: Caller) throws(AlarmError) -> Intake? {
        guard let fd = try SoundFile.take(from: &config, clear: &clear) else { return nil }
        if id.isEmpty, isNew { id = AlarmID.make() }
        let key = try AlarmID.key(id)
        let (bytes, format) = try read(fd)
        var random = SystemRandomNumberGenerator()
        let name = SoundFile.fileName(alarm: key.string, tag: random.next(), format: format)
        let path = root + "/" + SoundFile.directory(appId: caller.appId) + "/" + name
        config["sound"] = .string(path)
        return Intake(fd: fd, bytes: bytes, format: format, key: key, path: path)
    }

    private func refuse(_ reason: String) -> AlarmError { .invalidArgument(key: SoundFile.key, reason: reason) }

    /// The whole file, from its start whatever the descriptor's offset (`pread`), at most one byte more
    /// than the limit: its size as `fstat` gave it may change while it is read. Only a regular file is
    /// read: a pipe, a FIFO, a socket or a device could block the loop, or never end.
    private func read(_ fd: UnixFD) throws(AlarmError) -> ([UInt8], SoundFileFormat) {
        if maxBytes == 0 { throw refuse("is not accepted: max_sound_bytes in alarmd.conf is 0") }
        var st = stat()
        guard fstat(fd.number, &st) == 0 else { throw refuse("cannot be examined (\(String(cString: strerror(errno))))") }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: throw refuse("is a pipe or FIFO, not a regular file")
        case S_IFSOCK: throw refuse("is a socket, not a regular file")
        case S_IFCHR: throw refuse("is a character device, not a regular file")
        case S_IFBLK: throw refuse("is a block device, not a regular file")
        case S_IFDIR: throw refuse("is a directory, not a regular file")
        case S_IFLNK: throw refuse("is a symbolic link, not a regular file")
        default: throw refuse("is not a regular file")
        }
        if Int(st.st_size) > maxBytes { throw refuse(SoundFile.tooLarge(Int(st.st_size), max: maxBytes)) }
        var failure: Int32 = 0
        // Pages of the buffer that the file does not fill are never touched (a large block is mapped
        // on its own, see alarmdMain), so the bound costs nothing for a small file.
        let bytes = [UInt8](unsafeUninitializedCapacity: maxBytes + 1) { buffer, count in
            count = 0
            while count < buffer.count {
                let n = pread(fd.number, buffer.baseAddress! + count, buffer.count - count, off_t(count))
                if n > 0 { count += n; continue }
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = errno }
                break
            }
        }
        if failure != 0 {
            let hint = failure == EBADF ? ": open it for reading" : ""
            throw refuse("cannot be read (\(String(cString: strerror(failure))))\(hint)")
        }
        if bytes.count > maxBytes { throw refuse("is more than \(SoundFile.words(maxBytes)) (it grew while alarmd read it); at most \(SoundFile.words(maxBytes))") }
        switch SoundFileFormat.check(bytes) {
        case .success(let format): return (bytes, format)
        case .failure(let refusal): throw refuse(refusal.reason)
        }
    }

    /// Writes the copy under a temporary name, once the change that names it is planned; the store
    /// writer makes it durable under its own name before the transaction. The loop writes it: into
    /// the page cache, as fast as it was read; the fsync, which waits for the disk, is the writer's.
    func stage(_ intake: Intake) throws(AlarmError) -> StagedFiles {
        let bytes: [UInt8]
        if let read = intake.bytes {
            bytes = read
        } else {
            let (again, format) = try read(intake.fd)
            if format != intake.format { throw refuse("changed while the call waited: it is no longer the file it was") }
            bytes = again
        }
        let directory = parentDirectory(intake.path)
        let temp = directory + "/." + String(intake.path.dropFirst(directory.count + 1)) + ".tmp"
        do {
            try makeDirectories(directory, mode: 0o700)
            try Self.write(bytes, to: temp)
        } catch {
            _ = unlink(temp)
            throw .ioError("the sound file could not be kept: \(error)")
        }
        staged[intake.key, default: []].insert(intake.path)
        Log.info("alarm \(intake.key): keeping its sound file (\(intake.format == .wav ? "WAV" : "Ogg Vorbis"), \(SoundFile.words(bytes.count))) as \(intake.path)")
        let final = intake.path, root = root, key = intake.key
        return StagedFiles(makeDurable: {
            try Self.makeDurable(temp, as: final, root: root)
        }, discard: { [weak self] in
            _ = unlink(temp)
            _ = unlink(final)
            self?.staged[key]?.remove(final)
            Log.info("alarm \(key): sound file copy \(final) taken back with its change")
        })
    }

    private static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw Failure("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure("cannot write \(path): \(String(cString: strerror(errno)))") }
            done += n
        }
    }

    /// On the writer's thread: the data on disk, then the name, then the directories that hold it
    /// (the app's, created with the copy perhaps, and the directory of copies, and the state directory).
    private static func makeDurable(_ temp: String, as final: String, root: String) throws {
        func fsyncPath(_ path: String, _ flags: Int32) throws {
            let fd = open(path, flags | O_CLOEXEC)
            guard fd >= 0 else { throw Failure("cannot open \(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw Failure("cannot sync \(path): \(String(cString: strerror(errno)))") }
        }
        try fsyncPath(temp, O_RDONLY | O_NOFOLLOW)
        guard rename(temp, final) == 0 else { throw Failure("cannot rename \(temp): \(String(cString: strerror(errno)))") }
        for directory in [parentDirectory(final), root, parentDirectory(root)] { try fsyncPath(directory, O_RDONLY | O_DIRECTORY) }
    }

    /// What the system said, and of which path.
    private struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: once durable

    /// A durable change: copies its alarms no longer name go. A copy is kept while the alarm as it
    /// is durable names it, or as it is now (a later change, not yet durable, may name it again).
    func durable(_ change: AppliedChange) {
        guard !live.isEmpty || !staged.isEmpty else { return }
        let m = change.mutation
        for r in m.removals where live[r.alarm.key] != nil || staged[r.alarm.key] != nil {
            settle(r.alarm.key, durable: nil)
        }
        for a in m.upserts where live[a.key] != nil || staged[a.key] != nil {
            settle(a.key, durable: a.config.sound)
        }
    }

    private func settle(_ key: AlarmKey, durable sound: String?) {
        if let sound, staged[key]?.remove(sound) != nil { live[key, default: []].insert(sound) }
        if staged[key]?.isEmpty == true { staged[key] = nil }
        let now = engine.alarms[key]?.config.sound
        for path in live[key] ?? [] where path != sound && path != now {
            remove(path)
            live[key]?.remove(path)
        }
        if live[key]?.isEmpty == true { live[key] = nil }
    }

    private func remove(_ path: String) {
        if unlink(path) == 0 || errno == ENOENT {
            Log.info("sound file copy \(path) removed: no alarm names it")
        } else {
            Log.warning("sound file copy \(path) cannot be removed: \(String(cString: strerror(errno)))")
        }
        // The app's directory goes with its last copy (rmdir refuses one that is not empty).
        _ = rmdir(parentDirectory(path))
    }

    // MARK: start-up

    /// At start-up: the copies stored alarms name are kept (and will go with them); any other file
    /// there is what a crash left between writing a copy and its change becoming durable, or between
    /// an alarm going and its copy: removed. Not while the store says it began afresh from a damaged
    /// one: the alarms set aside with it name copies too.
    func collect(keepAll: Bool) {
        var removed = 0, kept = 0
        for app in directoryEntries(root) {
            let directory = root + "/" + app
            var st = stat()
            guard lstat(directory, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { continue }
            for name in directoryEntries(directory) {
                let path = directory + "/" + name
                if let id = SoundFile.alarmId(ofFileName: name), let key = AlarmKey(id), let alarm = engine.alarms[key],
                   SoundFile.directory(appId: alarm.appId) == app, alarm.config.sound == path {
                    live[key, default: []].insert(path)
                    kept += 1
                } else if !keepAll, lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG || st.st_mode & S_IFMT == S_IFLNK {
                    if unlink(path) == 0 { removed += 1 }
                }
            }
            if !keepAll { _ = rmdir(directory) }
        }
        if kept + removed > 0 {
            Log.info("sound file copies in \(root): \(kept) named by alarms\(keepAll ? "; others kept while the store holds a recovery" : ", \(removed) no alarm names removed")")
        }
    }
}
