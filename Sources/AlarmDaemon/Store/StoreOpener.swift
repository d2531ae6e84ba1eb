// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SystemFiles

/// Opens alarmd's store so that a bad one never blocks start-up. A store that is corrupt, truncated,
/// unreadable or of a newer schema is moved aside under a timestamped name (its WAL and WAL index
/// with it) and alarmd starts on a fresh one, saying so in one log line, in the `StoreRecovery`
/// property and in one notification. Nothing is ever deleted or overwritten. Only when the move
/// itself fails is starting impossible, and the error says what to do.
enum StoreOpener {
    struct Opened {
        let store: Store
        let alarms: SlotStore
        /// Rows that could not be decoded: kept in the store and reported, not loaded.
        let skipped: Int
        let authorizations: [String: AuthorizationState]
        /// The recovery that began this store, at this start or an earlier one.
        let recovery: StoreRecovery?
        /// How long the check of an existing store took, in µs.
        let checkUSec: UInt64
    }

    static let fileName = "alarmd.sqlite"

    /// `now`: realtime µs, for the kept name and the record.
    static func open(directory: String, now: () -> UInt64 = { SystemClock.realtime }) throws -> Opened {
        try makeDirectories(directory, mode: 0o700)
        let path = directory + "/" + fileName
        let started = SystemClock.monotonic
        var damage: StoreDamage?
        switch StoreProbe.check(path, supportedSchema: Store.schemaVersion) {
        case .sound: break
        case .damaged(let found): damage = found
        case .failed(let why): throw Store.Failure(description: "cannot check \(path): \(why)")
        }
        let checked = SystemClock.monotonic - started
        if damage == nil {
            do {
                return try load(Store(directory: directory), checked: checked)
            } catch let failure as Store.Failure where failure.isDamage {
                // What the check let through, the load found: the same verdict.
                let header = (try? StoreProbe.readHeader(path).get()) ?? []
                damage = .unusable(failure.description, header: header, fileSize: fileSize(path))
            }
        }
        guard let damage else { preconditionFailure("a sound store either loads or throws") }
        let at = now()
        let kept = try moveAside(path, damage, at: at)
        let recovery = StoreRecovery(damage: damage, store: path, kept: kept.path, at: at)
        Log.error(damage.report(store: path, kept: kept.path, companions: kept.companions))
        // A fresh store that fails too is not retried: the directory itself is at fault.
        let fresh = try Store(directory: directory)
        try recovery.save(to: fresh)
        return try load(fresh, checked: checked)
    }

    private static func load(_ store: Store, checked: UInt64) throws -> Opened {
        do {
            let (alarms, skipped) = try store.loadAlarms()
            return Opened(store: store, alarms: alarms, skipped: skipped, authorizations: try store.loadAuthorizations(),
                          recovery: try StoreRecovery.load(from: store), checkUSec: checked)
        } catch {
            store.abandon()
            throw error
        }
    }

    /// Renames the store and its companions to the kept name. The WAL goes first and the database
    /// last: SQLite deletes a WAL it finds beside a missing or empty database, so were alarmd to stop
    /// in between, the next start must find the damaged database still in place, never its WAL alone.
    private static func moveAside(_ path: String, _ damage: StoreDamage, at usec: UInt64) throws -> (path: String, companions: [String]) {
        let kept = KeptStoreName.path(for: path, stamp: KeptStoreName.stamp(usec), taken: StoreProbe.exists)
        var moved: [String] = []
        func move(_ from: String, _ to: String) throws {
            guard rename(from, to) != 0 else { return }
            let why = String(cString: strerror(errno))
            let directory = parentDirectory(path)
            let already = moved.isEmpty ? "" : " (already moved: " + moved.map { "\(path + $0) to \(kept + $0)" }.joined(separator: ", ") + ")"
            throw Store.Failure(description: "store: \(damage.finding(store: path)), and it cannot be moved aside: "
                + "renaming \(from) to \(to) failed: \(why)\(already). alarmd cannot start without a usable store: make \(directory) "
                + "writable for alarmd, or move \(path) and its -wal and -shm elsewhere yourself, then start alarmd again.")
        }
        for suffix in KeptStoreName.companions where StoreProbe.exists(path + suffix) {
            try move(path + suffix, kept + suffix)
            moved.append(suffix)
        }
        // A WAL whose database is missing is kept alone, under the name the database would have had.
        if StoreProbe.exists(path) { try move(path, kept) }
        syncDirectory(parentDirectory(path))
        return (kept, moved)
    }

    /// The renames survive a power cut only once the directory is on disk.
    private static func syncDirectory(_ directory: String) {
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func fileSize(_ path: String) -> UInt64 {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_size) : 0
    }
}
