import Glibc

/// One line per event that matters, on stderr (the journal under systemd).
enum Log {
    static func info(_ s: String) { emit("<6>", s) }
    static func warning(_ s: String) { emit("<4>", s) }
    static func error(_ s: String) { emit("<3>", s) }

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

    private static func emit(_ level: String, _ s: String) {
        // The <N> prefix gives journald the priority (sd-daemon(3)); it is harmless on a terminal.
        let line = level + "alarmd: " + s + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
