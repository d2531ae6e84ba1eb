// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import BusValue
import Glibc

extension UnixFD {
    /// A duplicate of `fd`, close-on-exec, in a box that closes it: the caller keeps `fd` as it was.
    /// A message's own descriptors live only as long as the message, which may go first.
    public static func duplicate(_ fd: Int32) throws(BusError) -> UnixFD {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        if copy < 0 { throw BusError(errno: -errno, "duplicate fd \(fd)") }
        return UnixFD(owning: copy, release: { _ = Glibc.close($0) })
    }

    /// The file at `path`, opened for reading, to hand to a peer. Non-blocking, so that opening a
    /// FIFO does not wait for a writer (the peer may refuse it for what it is); reading a regular
    /// file ignores the flag.
    public static func open(readingFrom path: String) throws(BusError) -> UnixFD {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        if fd < 0 { throw BusError(errno: -errno, path) }
        return UnixFD(owning: fd, release: { _ = Glibc.close($0) })
    }
}
