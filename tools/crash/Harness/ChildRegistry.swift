import Glibc

/// The processes the run starts (its dbus-daemon, alarmd), so that Ctrl-C, SIGTERM, SIGHUP or a
/// reader that went away (SIGPIPE: `alarmd-crash | head`) end them with it instead of leaving them
/// behind.
enum ChildRegistry {
    static let capacity = 8
    nonisolated(unsafe) static let pids: UnsafeMutablePointer<pid_t> = {
        let p = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()

    static func add(_ pid: pid_t) {
        for i in 0..<capacity where pids[i] == 0 {
            pids[i] = pid
            return
        }
    }

    static func remove(_ pid: pid_t) {
        for i in 0..<capacity where pids[i] == pid { pids[i] = 0 }
    }

    static func installHandlers() {
        _ = pids
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
            signal(sig) { sig in
                for i in 0..<ChildRegistry.capacity where ChildRegistry.pids[i] > 0 { kill(ChildRegistry.pids[i], SIGKILL) }
                _exit(128 + sig)
            }
        }
    }
}
