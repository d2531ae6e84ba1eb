// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing

/// The decisions about a damaged store: its reason, the name that keeps it, what the user is told.
@Suite struct StoreDamageTests {
    /// A database header of `pageSize`-byte pages (1 for 65,536) counting `pages`, trusted when the
    /// change counter and the version-valid-for number agree.
    func header(pageSize: UInt16 = 4096, pages: UInt32 = 16, trusted: Bool = true) -> [UInt8] {
        var h = SQLiteHeader.magic + [UInt8](repeating: 0, count: SQLiteHeader.size - 16)
        func put(_ v: UInt32, at: Int, _ n: Int) { for i in 0..<n { h[at + i] = UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - i))) } }
        put(UInt32(pageSize), at: 16, 2)
        put(7, at: 24, 4)
        put(pages, at: 28, 4)
        put(trusted ? 7 : 6, at: 92, 4)
        return h
    }

    @Test func stampsAreUTCAndSortable() {
        #expect(KeptStoreName.stamp(1_796_106_600_000_000) == "20261201T063000Z")
        #expect(KeptStoreName.isoTime(1_796_106_600_999_999) == "2026-12-01T06:30:00Z")
        #expect(KeptStoreName.stamp(0) == "19700101T000000Z")
        #expect(KeptStoreName.isoTime(951_868_799_000_000) == "2000-02-29T23:59:59Z")
        // Against Foundation's calendar, one instant every 37 days and 12,345 s for 150 years.
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        var previous = ""
        for i in 0..<1_500 {
            let seconds = UInt64(i) * (37 * 86_400 + 12_345)
            #expect(KeptStoreName.isoTime(seconds * 1_000_000) == f.string(from: Date(timeIntervalSince1970: Double(seconds))))
            let stamp = KeptStoreName.stamp(seconds * 1_000_000)
            #expect(stamp > previous, "\(stamp) sorts after \(previous)")
            previous = stamp
        }
    }

    @Test func theKeptNameNeverOverwritesAnything() {
        let store = "/s/alarmd.sqlite", stamp = "20261201T063000Z"
        #expect(KeptStoreName.path(for: store, stamp: stamp) { _ in false } == "/s/alarmd.sqlite.broken-20261201T063000Z")
        var taken: Set<String> = ["/s/alarmd.sqlite.broken-20261201T063000Z"]
        #expect(KeptStoreName.path(for: store, stamp: stamp, taken: taken.contains) == "/s/alarmd.sqlite.broken-20261201T063000Z-2")
        // A WAL left under a name is as good as the name being taken: it would be read with the new file.
        taken = ["/s/alarmd.sqlite.broken-20261201T063000Z-wal", "/s/alarmd.sqlite.broken-20261201T063000Z-2-shm"]
        #expect(KeptStoreName.path(for: store, stamp: stamp, taken: taken.contains) == "/s/alarmd.sqlite.broken-20261201T063000Z-3")
    }

    @Test func theHeaderTellsACutShortFile() throws {
        let h = try #require(SQLiteHeader(header()))
        #expect(h.pageSize == 4096 && h.pageCount == 16)
        #expect(h.truncation(fileSize: 65_536) == nil)
        #expect(h.truncation(fileSize: 69_632) == nil, "a file longer than its header says is not cut short")
        #expect(h.truncation(fileSize: 4096) == "4096 of the 65536 bytes its header counts")
        #expect(h.truncation(fileSize: 40_000) == "40000 bytes, not a whole number of 4096-byte pages")
        // A count the header does not vouch for proves nothing; a partial page still does.
        let untrusted = try #require(SQLiteHeader(header(trusted: false)))
        #expect(untrusted.pageCount == nil && untrusted.truncation(fileSize: 4096) == nil)
        #expect(untrusted.truncation(fileSize: 4097) != nil)
        #expect(SQLiteHeader(header(pageSize: 1))?.pageSize == 65_536)
        #expect(SQLiteHeader(header(pageSize: 1000)) == nil)
        #expect(SQLiteHeader(Array(header().prefix(99))) == nil)
        #expect(SQLiteHeader([UInt8](repeating: 0x41, count: 100)) == nil)
    }

    @Test func unusableFilesAreTruncatedOrCorrupt() {
        #expect(StoreDamage.unusable("database disk image is malformed", header: header(), fileSize: 4096)
                == StoreDamage(reason: .truncated, detail: "4096 of the 65536 bytes its header counts"))
        #expect(StoreDamage.unusable("database disk image is malformed", header: header(), fileSize: 65_536)
                == StoreDamage(reason: .corrupt, detail: "database disk image is malformed"))
        let garbage = [UInt8](repeating: 0xa5, count: 100)
        #expect(StoreDamage.unusable("file is not a database", header: garbage, fileSize: 4096).reason == .corrupt)
        #expect(StoreDamage.unusable("file is not a database", header: Array(header().prefix(50)), fileSize: 50)
                == StoreDamage(reason: .truncated, detail: "50 bytes, less than a database header"))
        #expect(StoreDamage.unusable("file is not a database", header: Array(garbage.prefix(50)), fileSize: 50).reason == .corrupt)
    }

    @Test func theLogLineSaysWhyWhereAndHowToRecover() {
        let store = "/s/alarmd.sqlite", kept = "/s/alarmd.sqlite.broken-20261201T063000Z"
        let corrupt = StoreDamage(reason: .corrupt, detail: "file is not a database")
        let line = corrupt.report(store: store, kept: kept, companions: ["-wal", "-shm"])
        #expect(line.hasPrefix("store: /s/alarmd.sqlite is corrupt (file is not a database); kept as \(kept) (with its -wal and -shm beside it)"))
        #expect(line.contains("never deleted") && line.contains("sqlite3 \(kept) .recover"), "\(line)")
        #expect(!corrupt.report(store: store, kept: kept, companions: []).contains("beside it"))

        let newer = StoreDamage.newerSchema(7, supported: 3)
        let downgrade = newer.report(store: store, kept: kept, companions: [])
        #expect(downgrade.contains("written by a newer alarmd (schema 7 > 3); kept as \(kept)"), "\(downgrade)")
        #expect(downgrade.lowercased().contains("reinstall the newer alarmd and rename it back"), "\(downgrade)")

        let unreadable = StoreDamage.unreadable("a directory, not a file")
        #expect(unreadable.report(store: store, kept: kept, companions: []).contains("cannot be read (a directory, not a file)"))
        #expect(unreadable.hint(store: store, kept: kept).contains("rename it back to \(store)"))
    }

    @Test func pathsInTheHintAreOneShellWordEach() {
        let hint = StoreDamage(reason: .truncated, detail: "x").hint(store: "/home/a b/alarmd.sqlite", kept: "/home/a b/it's kept")
        #expect(hint.contains("sqlite3 '/home/a b/it'\\''s kept' .recover | sqlite3 '/home/a b/alarmd.sqlite.recovered'"), "\(hint)")
    }

    @Test(arguments: StoreDamage.Reason.allCases) func theNotificationNamesTheKeptFile(reason: StoreDamage.Reason) {
        let text = StoreDamage(reason: reason, detail: "why").notification(kept: "/s/kept", English())
        #expect(!text.summary.isEmpty && text.body.contains("/s/kept") && text.body.contains("(why)"), "\(text)")
    }
}
