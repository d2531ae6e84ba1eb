// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSQLite
import Glibc

/// SQLite's verdict on an existing store, reached without changing a byte of it, its WAL or its WAL
/// index, so that a store found damaged is kept exactly as it was.
///
/// The check is `PRAGMA quick_check`: it reads every page of every table (at 100,000 alarms about
/// 30 ms with a warm cache, against about 90 ms for the load that follows and reads the same pages)
/// and finds what breaks a B-tree — a file cut short, pages of garbage, bad cell pointers. It skips
/// what `integrity_check` adds, the agreement of each index with its table: the alarm table has no
/// index of its own (its key is the table), so that would only cover the two small tables, while it
/// would make the check grow faster than linearly should an index ever be added.
enum StoreProbe {
    enum Verdict: Equatable {
        case sound
        case damaged(StoreDamage)
        /// SQLite could not answer for a reason that is not the file's: it is locked, memory ran
        /// out. Moving a store aside for that would lose the user's alarms for nothing.
        case failed(String)

        var isDamage: Bool { if case .damaged = self { true } else { false } }
    }

    /// `path` does not exist (a first start), or SQLite reads it whole and it is of a schema this
    /// alarmd knows: sound. Anything else names what is wrong.
    static func check(_ path: String, supportedSchema: Int32) -> Verdict {
        var st = stat()
        // SQLite deletes a WAL it finds beside a missing or empty database, and that WAL may hold
        // every alarm (nothing is copied into the database until a checkpoint).
        let wal = walSize(path)
        func orphaned(_ database: String) -> Verdict? {
            wal.map { .damaged(StoreDamage(reason: .truncated, detail: "\(database), beside a WAL of \($0) bytes")) }
        }
        // Nothing there, or a dangling link: SQLite creates the store, as on a first start.
        guard lstat(path, &st) == 0, stat(path, &st) == 0 else {
            return orphaned("missing") ?? .sound
        }
        if st.st_mode & S_IFMT == S_IFDIR { return .damaged(.unreadable("a directory, not a file")) }
        if st.st_mode & S_IFMT != S_IFREG { return .damaged(.unreadable("not a regular file")) }
        // SQLite makes an empty file a new database; without a WAL there is nothing in it to lose.
        if st.st_size == 0 {
            return orphaned("empty") ?? .sound
        }
        let header: [UInt8]
        switch readHeader(path) {
        case .success(let bytes): header = bytes
        case .failure(let e): return .damaged(.unreadable(e.description))
        }
        // As root this always passes; for the user it is what makes SQLite open a store read-only,
        // on which no change could be saved.
        if access(path, W_OK) != 0 { return .damaged(.unreadable("cannot be written: \(String(cString: strerror(errno)))")) }

        let file = File(path: path, header: header, size: UInt64(st.st_size),
                        companions: Set(KeptStoreName.companions.filter { exists(path + $0) }))
        // The WAL index in the probe's own memory needs the file to itself; another process that has
        // the store open (the user's sqlite3, a backup tool) shares the WAL index it already has.
        let verdict = sqliteVerdict(file, exclusive: true, busyMS: 200, supportedSchema: supportedSchema)
        if case .failed = verdict {
            return sqliteVerdict(file, exclusive: false, busyMS: 5000, supportedSchema: supportedSchema)
        }
        return verdict
    }

    /// The store as it was found before SQLite opened it.
    private struct File {
        let path: String
        let header: [UInt8]
        let size: UInt64
        /// The suffixes of the companion files that were there.
        let companions: Set<String>
    }

    /// The first bytes of the file, up to a database header's worth.
    static func readHeader(_ path: String) -> Result<[UInt8], Store.Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(Store.Failure(description: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: SQLiteHeader.size)
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { return .failure(Store.Failure(description: String(cString: strerror(errno)))) }
            if n == 0 { break }
            got += n
        }
        return .success(Array(bytes[..<got]))
    }

    /// The size of the store's WAL, when it has one with anything in it.
    private static func walSize(_ path: String) -> Int? {
        var st = stat()
        guard lstat(path + "-wal", &st) == 0, st.st_size > 0 else { return nil }
        return Int(st.st_size)
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    private static func sqliteVerdict(_ file: File, exclusive: Bool, busyMS: Int32, supportedSchema: Int32) -> Verdict {
        var db: OpaquePointer?
        var alone = false
        let verdict = judge(file, &db, exclusive: exclusive, busyMS: busyMS, supportedSchema: supportedSchema, alone: &alone)
        // What the probe made goes while it still holds the store alone, so that no other connection
        // can have opened it since; from a store about to be set aside, it goes anyway.
        if alone || verdict.isDamage { removeWhatTheProbeMade(file) }
        sqlite3_close_v2(db)
        return verdict
    }

    /// `alone`: set once the probe holds the store's exclusive lock (kept until it closes).
    private static func judge(_ file: File, _ db: inout OpaquePointer?, exclusive: Bool, busyMS: Int32, supportedSchema: Int32,
                              alone: inout Bool) -> Verdict {
        // No SQLITE_OPEN_CREATE: the file was there a moment ago; if it is gone, that is not a verdict.
        let opened = sqlite3_open_v2(file.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        let handle = db
        func verdict(_ code: Int32) -> Verdict {
            classify(code, extended: sqlite3_extended_errcode(handle), String(cString: sqlite3_errmsg(handle)), header: file.header,
                     fileSize: file.size)
        }
        guard opened == SQLITE_OK else { return verdict(opened) }
        // The last connection to close would otherwise copy the WAL into the file and delete the WAL.
        alarmd_sqlite_checkpoint_on_close(db, 0)
        sqlite3_busy_timeout(db, busyMS)
        // Before the first read: the WAL index then lives in this connection's memory, and the -shm
        // file is never opened, let alone rebuilt.
        if exclusive, sqlite3_exec(db, "PRAGMA locking_mode=EXCLUSIVE", nil, nil, nil) != SQLITE_OK {
            return .failed(String(cString: sqlite3_errmsg(db)))
        }
        var version: Int32 = 0
        var rc = rows(db, "PRAGMA user_version") { version = sqlite3_column_int($0, 0) }
        guard rc == SQLITE_DONE else { return verdict(rc) }
        alone = exclusive
        if version > supportedSchema { return .damaged(.newerSchema(Int(version), supported: Int(supportedSchema))) }
        var problems: [String] = []
        rc = rows(db, "PRAGMA quick_check(1)") { stmt in
            problems.append(sqlite3_column_text(stmt, 0).map { String(cString: $0) } ?? "")
        }
        guard rc == SQLITE_DONE else { return verdict(rc) }
        if problems == ["ok"] { return .sound }
        let said = problems.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }.joined(separator: "; ")
        return .damaged(.unusable(said.isEmpty ? "failed its check" : said, header: file.header, fileSize: file.size))
    }

    /// SQLite's I/O errors of reading the file (SQLITE_IOERR, _READ, _SHORT_READ, _FSTAT: their
    /// macros are expressions Swift does not import), as opposed to locking or memory-mapping it.
    private static let readErrors: Set<Int32> = [SQLITE_IOERR, SQLITE_IOERR | 1 << 8, SQLITE_IOERR | 2 << 8, SQLITE_IOERR | 7 << 8]

    /// What an SQLite result code says about the file.
    static func classify(_ code: Int32, extended: Int32, _ message: String, header: [UInt8], fileSize: UInt64) -> Verdict {
        switch code & 0xff {
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return .damaged(.unusable(message, header: header, fileSize: fileSize))
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return .damaged(.unreadable(message))
        case SQLITE_IOERR where readErrors.contains(extended):
            return .damaged(.unreadable(message))
        default:
            return .failed(message)
        }
    }

    private static func rows(_ db: OpaquePointer?, _ sql: String, _ row: (OpaquePointer) -> Void) -> Int32 {
        var stmt: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard prepared == SQLITE_OK, let stmt else { return prepared }
        defer { sqlite3_finalize(stmt) }
        while true {
            let rc = sqlite3_step(stmt)
            guard rc == SQLITE_ROW else { return rc }
            row(stmt)
        }
    }

    /// SQLite creates an empty WAL when it opens a WAL-mode database that has none: that file is
    /// the probe's, not the user's, and would otherwise be kept as if it were part of the store.
    private static func removeWhatTheProbeMade(_ file: File) {
        for suffix in KeptStoreName.companions where !file.companions.contains(suffix) {
            var st = stat()
            if lstat(file.path + suffix, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size == 0 { unlink(file.path + suffix) }
        }
    }
}
