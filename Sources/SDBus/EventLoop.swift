import CSystemd
import Glibc

/// The process's sd-event loop: one thread owns the bus, the timers and everything else.
public final class EventLoop {
    public let handle: OpaquePointer

    public init() throws(BusError) {
        var e: OpaquePointer?
        try check(sd_event_default(&e), "sd_event_default")
        handle = e!
    }

    deinit { sd_event_unref(handle) }

    /// SIGTERM and SIGINT end the loop cleanly (sd-event's default handler calls sd_event_exit).
    public func exitOnSignals(_ signals: [Int32] = [SIGTERM, SIGINT]) throws(BusError) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        sigprocmask(SIG_BLOCK, &set, nil)
        for s in signals { try check(sd_event_add_signal(handle, nil, s, nil, nil), "watch signal \(s)") }
    }

    public func run() -> Int32 { sd_event_loop(handle) }

    public func exit(_ code: Int32 = 0) { sd_event_exit(handle, code) }

    /// A one-shot timer on `clock` that can be re-armed; `handler` runs on the loop thread.
    public func makeTimer(clock: clockid_t = CLOCK_REALTIME, _ handler: @escaping () -> Void) throws(BusError) -> TimerSource {
        try TimerSource(loop: self, clock: clock, handler: handler)
    }
}

/// One kernel timer (through sd-event) armed for an absolute deadline, with 1 µs accuracy: sd-event's
/// default slack is 250 ms, far too coarse for an alarm.
public final class TimerSource {
    private var source: OpaquePointer?
    let handler: () -> Void
    public private(set) var deadline: UInt64?

    init(loop: EventLoop, clock: clockid_t, handler: @escaping () -> Void) throws(BusError) {
        self.handler = handler
        var s: OpaquePointer?
        try check(sd_event_add_time(loop.handle, &s, clock, UInt64.max, 1, timerTrampoline,
                                    Unmanaged.passUnretained(self).toOpaque()), "add timer")
        source = s
        sd_event_source_set_enabled(s, Int32(SD_EVENT_OFF))
    }

    deinit { sd_event_source_disable_unref(source) }

    /// Arms for `usec` (absolute, on the timer's clock), or disarms for nil.
    public func arm(at usec: UInt64?) {
        guard deadline != usec else { return }
        deadline = usec
        guard let usec else {
            sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF))
            return
        }
        sd_event_source_set_time(source, max(usec, 1))
        sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT))
    }

    fileprivate func fire() {
        deadline = nil
        handler()
    }
}

private let timerTrampoline: sd_event_time_handler_t = { _, _, userdata in
    // The handler may drop the last reference to its own timer: keep it alive until it returns.
    let timer = Unmanaged<TimerSource>.fromOpaque(userdata!).takeUnretainedValue()
    withExtendedLifetime(timer) { timer.fire() }
    return 0
}
