// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import CSystemd
import Glibc
import SDBus
import TestSupport

/// Dispatches the messages of several connections from one thread: the subscriber's first, so that
/// a ring announced before an answer is, as far as the socket order allows, seen before it.
struct Pump {
    let buses: [Bus]

    struct Disconnected: Error, CustomStringConvertible {
        let description: String
    }

    /// Dispatches what has arrived; when nothing had, waits up to `waitUSec` for more.
    func once(waitUSec: UInt64) throws(Disconnected) {
        var progressed = false
        for (i, b) in buses.enumerated() {
            while true {
                let r = sd_bus_process(b.handle, nil)
                if r < 0 { throw Disconnected(description: "connection \(i) failed: \(String(cString: strerror(-r)))") }
                if r == 0 { break }
                progressed = true
            }
        }
        guard !progressed, waitUSec > 0 else { return }
        var fds = buses.map { pollfd(fd: sd_bus_get_fd($0.handle), events: Int16(sd_bus_get_events($0.handle)), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), Int32(min((waitUSec + 999) / 1000, 50)))
    }

    /// Pumps until `done` holds; false if `seconds` passed first.
    func until(seconds: Double, _ done: () -> Bool) throws(Disconnected) -> Bool {
        let deadline = monoUSec() + UInt64(seconds * 1e6)
        while !done() {
            let now = monoUSec()
            if now >= deadline { return false }
            try once(waitUSec: min(deadline - now, 20_000))
        }
        return true
    }
}
