// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

/// One line per event that matters, on stderr: with a journal priority prefix when stderr is the
/// journal (systemd says so in `JOURNAL_STREAM`), as plain lines on a terminal or into a file.
enum Log {
    static func info(_ s: String) { emit("<6>", "", s) }
    static func warning(_ s: String) { emit("<4>", "warning: ", s) }
    static func error(_ s: String) { emit("<3>", "error: ", s) }

    /// A realtime µs instant as local ISO 8601, for humans reading the journal.
    static func time(_ usec: UInt64) -> String {
        guard usec > 0 else { return "never" }
        var t = time_t(usec / 1_000_000)
        var tm = tm()
        localtime_r(&t, &tm)
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: 64) { strftime($0, 64, "%Y-%m-%dT%H:%M:%S%z", &tm) }
        }
        return String(decoding: buf[..<n], as: UTF8.self)
    }

    /// Decided once: stderr does not change under a running alarmd.
    private static let toJournal: Bool = {
        var st = stat()
        guard let value = getenv("JOURNAL_STREAM"), fstat(2, &st) == 0 else { return false }
        return LogTarget.isJournal(journalStream: String(cString: value), device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }()

    /// The journal takes the priority from the `<N>` prefix (sd-daemon(3)) and shows it its own way;
    /// a person reading a terminal or a file gets it in words, as other command-line tools say it.
    private static func emit(_ priority: String, _ word: String, _ s: String) {
        let line = toJournal ? priority + "alarmd: " + s + "\n" : "alarmd: " + word + s + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}

/// Whether a stream is the journal: systemd sets `JOURNAL_STREAM=DEVICE:INODE` for the stream it
/// connected to journald, and a process must compare it with its own stderr (systemd.exec(5)):
/// the variable is inherited by children whose stderr went elsewhere (`alarmd 2>file` in a unit).
enum LogTarget {
    static func isJournal(journalStream: String, device: UInt64, inode: UInt64) -> Bool {
        let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        return dev == device && ino == inode
    }
}
