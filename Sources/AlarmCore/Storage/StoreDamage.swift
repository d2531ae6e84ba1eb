// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// What alarmd found wrong with its store at start-up, and what follows from it: the reason it
/// reports, and what it tells the user in the log, the `StoreRecovery` property and a notification.
/// Pure: the daemon gathers the facts (what SQLite or the system said, the file's first bytes and
/// its size) and moves the files.
public struct StoreDamage: Sendable, Equatable {
    public typealias Reason = Contract.StoreRecovery.Reason

    public let reason: Reason
    /// What SQLite or the system said, in words a search engine knows.
    public let detail: String

    public init(reason: Reason, detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// SQLite found the file unusable (not a database, malformed, or failing its check). A file
    /// shorter than its own header says, or one that ends inside a page, was cut short — by a full
    /// disk, a copy that stopped, a sync tool — which tells the user more than "corrupt" does.
    public static func unusable(_ sqliteSaid: String, header: [UInt8], fileSize: UInt64) -> StoreDamage {
        if let h = SQLiteHeader(header), let cut = h.truncation(fileSize: fileSize) {
            return StoreDamage(reason: .truncated, detail: cut)
        }
        if fileSize > 0, fileSize < UInt64(SQLiteHeader.size), header.starts(with: SQLiteHeader.magic.prefix(min(header.count, 16))) {
            return StoreDamage(reason: .truncated, detail: "\(fileSize) bytes, less than a database header")
        }
        return StoreDamage(reason: .corrupt, detail: sqliteSaid)
    }

    public static func unreadable(_ why: String) -> StoreDamage {
        StoreDamage(reason: .unreadable, detail: why)
    }

    /// A store whose `user_version` is above what this alarmd knows: a downgrade. Its data may be
    /// fine; this alarmd just cannot know what it means.
    public static func newerSchema(_ version: Int, supported: Int) -> StoreDamage {
        StoreDamage(reason: .newerSchema, detail: "schema \(version) > \(supported)")
    }

    /// How the store at `store` was found, as the start of a sentence.
    public func finding(store: String) -> String {
        switch reason {
        case .corrupt: "\(store) is corrupt (\(detail))"
        case .truncated: "\(store) is truncated (\(detail))"
        case .unreadable: "\(store) cannot be read (\(detail))"
        case .newerSchema: "\(store) was written by a newer alarmd (\(detail))"
        }
    }

    /// How to get the alarms in `kept` back. Putting a file back replaces the store alarmd started
    /// afresh, so the sentence says so.
    public func hint(store: String, kept: String) -> String {
        let s = Self.shellWord(store), k = Self.shellWord(kept)
        return switch reason {
        case .corrupt, .truncated:
            "To salvage its alarms: stop alarmd, run sqlite3 \(k) .recover | sqlite3 \(Self.shellWord(store + ".recovered")), "
                + "and rename \(Self.shellWord(store + ".recovered")) to \(s) (alarms set since are then lost)."
        case .unreadable:
            "To use it again: stop alarmd, make \(k) a file alarmd can read and write, "
                + "and rename it back to \(s) (alarms set since are then lost)."
        case .newerSchema:
            "Reinstall the newer alarmd and rename it back to \(s) to use it."
        }
    }

    /// The one log line: what was found, where it is kept, and how to recover. `companions` are the
    /// suffixes of the files kept with it (`-wal`, `-shm`).
    public func report(store: String, kept: String, companions: [String]) -> String {
        let with = companions.isEmpty ? "" : " (with its \(companions.joined(separator: " and ")) beside it)"
        return "store: \(finding(store: store)); kept as \(kept)\(with), never deleted; alarmd started with an empty store. "
            + hint(store: store, kept: kept)
    }

    /// The one desktop notification about it, in the user's language (the log and the
    /// `StoreRecovery` property stay in English, the words a search engine knows).
    public func notification(kept: String, _ language: any Language) -> (summary: String, body: String) {
        switch reason {
        case .newerSchema:
            // Translators: the title of the notification shown when alarmd was downgraded.
            (language.say(N_("Alarms saved by a newer alarmd")),
             // Translators: %1$s says why in technical words (English), %2$s is a file's path.
             language.say(N_("This alarmd cannot read them (%1$s) and started with no alarms. They are kept in %2$s: reinstall the newer alarmd and rename it back to use them.", detail, kept)))
        case .corrupt:
            // Translators: the title of the notification shown when alarmd's saved alarms were damaged.
            (language.say(N_("Alarms could not be read")),
             // Translators: %1$s says why in technical words (English), %2$s is a file's path; keep “alarmctl status” as it is.
             language.say(N_("The alarms store was corrupt (%1$s); alarmd started with no alarms. The old store is kept in %2$s; “alarmctl status” says how to recover it.", detail, kept)))
        case .truncated:
            (language.say(N_("Alarms could not be read")),
             // Translators: %1$s says why in technical words (English), %2$s is a file's path; keep “alarmctl status” as it is.
             language.say(N_("The alarms store was cut short (%1$s); alarmd started with no alarms. The old store is kept in %2$s; “alarmctl status” says how to recover it.", detail, kept)))
        case .unreadable:
            (language.say(N_("Alarms could not be read")),
             // Translators: %1$s says why in technical words (English), %2$s is a file's path; keep “alarmctl status” as it is.
             language.say(N_("The alarms store could not be read (%1$s); alarmd started with no alarms. The old store is kept in %2$s; “alarmctl status” says how to recover it.", detail, kept)))
        }
    }

    /// `path` as one word for a POSIX shell, quoted only when it needs to be.
    static func shellWord(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { c in
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || "/._-+:@%,=".unicodeScalars.contains(c)
        }
        return plain && !path.isEmpty ? path : "'" + path.replacing("'", with: "'\\''") + "'"
    }
}

/// The first 100 bytes of an SQLite database, as far as they tell a cut-short file
/// (https://sqlite.org/fileformat2.html#the_database_header).
public struct SQLiteHeader: Sendable, Equatable {
    public static let size = 100
    static let magic = Array("SQLite format 3\0".utf8)

    let pageSize: UInt64
    /// The size in pages the header vouches for; nil when it does not (a writer that predates the
    /// field, or a change counter that does not match it).
    let pageCount: UInt64?

    /// Nil unless `bytes` start with a whole header of the right magic and a valid page size.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.size, bytes.starts(with: Self.magic) else { return nil }
        func be(_ at: Int, _ n: Int) -> UInt64 { bytes[at..<at + n].reduce(0) { $0 << 8 | UInt64($1) } }
        let raw = be(16, 2)
        let size = raw == 1 ? 65_536 : raw
        guard size >= 512, size <= 65_536, size & (size - 1) == 0 else { return nil }
        pageSize = size
        let count = be(28, 4)
        pageCount = count > 0 && be(24, 4) == be(92, 4) ? count : nil
    }

    /// Why a file of `fileSize` bytes cannot hold the whole database; nil when it may.
    func truncation(fileSize: UInt64) -> String? {
        if fileSize % pageSize != 0 {
            return "\(fileSize) bytes, not a whole number of \(pageSize)-byte pages"
        }
        if let pageCount, fileSize < pageCount * pageSize {
            return "\(fileSize) of the \(pageCount * pageSize) bytes its header counts"
        }
        return nil
    }
}
