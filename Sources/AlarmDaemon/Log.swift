import Glibc

/// One line per event that matters, on stderr (the journal under systemd).
enum Log {
    static func info(_ s: String) { emit("<6>", s) }
    static func warning(_ s: String) { emit("<4>", s) }
    static func error(_ s: String) { emit("<3>", s) }

    private static func emit(_ level: String, _ s: String) {
        // The <N> prefix gives journald the priority (sd-daemon(3)); it is harmless on a terminal.
        let line = level + "alarmd: " + s + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
