import AlarmCore
import Glibc
import SDBus

/// Holds a logind `sleep:idle` block inhibitor while any alarm rings, so the machine does not fall
/// asleep mid-ring. Without logind (no system bus, or no login1) it says so once and does nothing.
final class SleepInhibitor {
    private let systemBus: () -> Bus?
    private var warned = false
    private var fd: Int32 = -1
    private var wanted = false
    private var requesting = false

    init(systemBus: @escaping () -> Bus?) { self.systemBus = systemBus }

    func set(_ on: Bool) {
        wanted = on
        if on { acquire() } else { release() }
    }

    private func acquire() {
        guard fd < 0, !requesting else { return }
        guard let system = systemBus() else {
            if !warned { Log.warning("no system bus: cannot keep the machine awake while an alarm rings") }
            warned = true
            return
        }
        requesting = true
        let args: [Value] = [.string("sleep:idle"), .string("alarmd"), .string("An alarm is ringing"), .string("block")]
        do {
            try system.callAsync("org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
                                  "Inhibit", args, timeoutUSec: 5_000_000) { [unowned self] reply in
                self.requesting = false
                if let e = reply.error {
                    Log.warning("logind refused a sleep inhibitor: \(e)")
                    return
                }
                guard let fd = try? reply.readUnixFD() else { return }
                if self.wanted {
                    self.fd = fd
                    Log.info("holding a sleep:idle inhibitor while alarms ring")
                } else {
                    close(fd)
                }
            }
        } catch {
            requesting = false
            Log.warning("cannot ask logind for a sleep inhibitor: \(error)")
        }
    }

    private func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        Log.info("released the sleep inhibitor")
    }
}
