// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
import Testing

/// `JOURNAL_STREAM` is `DEVICE:INODE` of the stream systemd connected to the journal; only a stderr
/// that is that very stream gets journal priority prefixes.
struct LogTargetTests {
    @Test func onlyTheNamedStreamIsTheJournal() {
        #expect(LogTarget.isJournal(journalStream: "8:12345", device: 8, inode: 12345))
        #expect(!LogTarget.isJournal(journalStream: "8:12345", device: 8, inode: 12346), "inherited from a parent")
        #expect(!LogTarget.isJournal(journalStream: "9:12345", device: 8, inode: 12345))
        for bad in ["", "8", "8:", ":12345", "8:12345:1", "x:y", "-8:12345", " 8:12345"] {
            #expect(!LogTarget.isJournal(journalStream: bad, device: 8, inode: 12345), "\(bad)")
        }
    }

    @Test func ownIconsByNameOrFile() {
        #expect(OwnIcons(directory: nil).icon("alarmd-timer") == "alarmd-timer")
        #expect(OwnIcons(directory: "/nonexistent").icon("alarmd-timer") == "alarmd-timer", "no file: the name still")
    }
}
