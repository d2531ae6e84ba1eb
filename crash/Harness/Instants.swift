import Glibc

/// Realtime µs, the clock of every `…USec` property: alarmd and the clients read the same one.
func realUSec() -> UInt64 { read(CLOCK_REALTIME) }

/// Monotonic µs, for delays.
func monoUSec() -> UInt64 { read(CLOCK_MONOTONIC) }

private func read(_ clock: clockid_t) -> UInt64 {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
}

/// One line to stdout at once (under make, stdout is a pipe that would be buffered).
func say(_ s: String) {
    var line = s + "\n"
    line.withUTF8 { buf in
        var off = 0
        while off < buf.count {
            let n = write(1, buf.baseAddress! + off, buf.count - off)
            if n <= 0 { break }
            off += n
        }
    }
}
