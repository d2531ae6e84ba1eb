// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

/// The processes a tool starts (private buses, daemons, workers, strace), listed while they may run,
/// so that a signal that ends the tool (Ctrl-C, SIGTERM, SIGHUP, or SIGPIPE for a reader that went
/// away: `alarmd-crash | head`) kills them with it instead of leaving them behind. Used by the
/// benchmark (alarmd-bench) and the crash harness (alarmd-crash).
///
/// The handlers are async-signal-safe: they only read a fixed array of pids, allocated by
/// installHandlers before any handler can run, call kill(2), then store an integer or call _exit(2).
/// Nothing in them allocates or locks.
public enum ChildRegistry {
    /// How many children may be listed at once; one more is not killed on a signal.
    public static let capacity = 1024
    nonisolated(unsafe) static let pids: UnsafeMutablePointer<pid_t> = {
        let p = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()

    /// The signal that ended the run, under `.unwind`; 0 until one arrives.
    nonisolated(unsafe) public static var interrupted: Int32 = 0

    /// What a handler does once it has killed the children.
    public enum AfterKilling {
        /// Records the signal in `interrupted` and returns: the tool notices it, unwinds (removing its
        /// temporary directories) and exits 128 + the signal itself.
        case unwind
        /// Ends the process at once with status 128 + the signal (_exit: no cleanup runs).
        case exit
    }

    public static func add(_ pid: pid_t) {
        for i in 0..<capacity where pids[i] == 0 {
            pids[i] = pid
            return
        }
    }

    public static func remove(_ pid: pid_t) {
        for i in 0..<capacity where pids[i] == pid { pids[i] = 0 }
    }

    /// On each of `signals`, every listed child is sent SIGKILL, then the handler does `then`.
    /// Call it before starting any child.
    public static func installHandlers(_ signals: [Int32], then: AfterKilling) {
        _ = pids  // allocated here, not lazily inside a handler
        for sig in signals {
            switch then {
            case .unwind:
                signal(sig) { sig in
                    for i in 0..<ChildRegistry.capacity where ChildRegistry.pids[i] > 0 { kill(ChildRegistry.pids[i], SIGKILL) }
                    ChildRegistry.interrupted = sig
                }
            case .exit:
                signal(sig) { sig in
                    for i in 0..<ChildRegistry.capacity where ChildRegistry.pids[i] > 0 { kill(ChildRegistry.pids[i], SIGKILL) }
                    _exit(128 + sig)
                }
            }
        }
    }
}
