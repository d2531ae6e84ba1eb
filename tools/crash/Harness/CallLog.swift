// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

/// Every call of the run and how it ended, one line each, for reading after a failure.
final class CallLog {
    private let fd: Int32
    private var buffer = ""
    let path: String

    init(path: String) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }

    deinit {
        flush()
        close(fd)
    }

    func add(_ line: String) {
        buffer += line
        buffer += "\n"
        if buffer.utf8.count > 1 << 16 { flush() }
    }

    func flush() {
        guard fd >= 0, !buffer.isEmpty else { return }
        buffer.withUTF8 { b in
            var off = 0
            while off < b.count {
                let n = write(fd, b.baseAddress! + off, b.count - off)
                if n <= 0 { break }
                off += n
            }
        }
        buffer = ""
    }
}
