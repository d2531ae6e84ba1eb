// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

/// Ctrl-C, SIGTERM or SIGHUP: the children (a private bus, alarmd) go first, then the run unwinds.
enum Interrupt {
    nonisolated(unsafe) static var signal: Int32 = 0
    nonisolated(unsafe) static var children: UnsafeMutablePointer<pid_t> = {
        let p = UnsafeMutablePointer<pid_t>.allocate(capacity: 8)
        p.initialize(repeating: 0, count: 8)
        return p
    }()

    static func install(_ pids: [pid_t]) {
        for (i, pid) in pids.prefix(8).enumerated() { children[i] = pid }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            Glibc.signal(sig) { sig in
                for i in 0..<8 where Interrupt.children[i] > 0 { kill(Interrupt.children[i], SIGKILL) }
                Interrupt.signal = sig
            }
        }
    }

    static func check() throws {
        if signal != 0 { throw FuzzFailure("interrupted by signal \(signal)") }
    }
}
