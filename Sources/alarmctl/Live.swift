// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Glibc
import SDBus

/// What watch, monitor and panel share: one sd-event loop that owns the bus connection, a mirror fed
/// by alarmd's signals, and one realtime timer for the next second a countdown's text changes. Nothing
/// ticks while nothing counts down.
final class Live {
    let proxy: AlarmManagerProxy
    let loop: EventLoop
    private var mirror: AlarmMirror?
    private var ticker: TimerSource?
    private var input: IOWatch?

    init(_ proxy: AlarmManagerProxy) throws(CLIError) {
        self.proxy = proxy
        do {
            loop = try EventLoop()
            try loop.exitOnSignals()
            // The session bus going away ends the loop (and alarmctl with it).
            try proxy.bus.attach(loop)
        } catch { throw .noBus(error) }
    }

    /// Starts mirroring; `onEvent` runs for the initial load and for every event after it.
    func start(_ onEvent: @escaping (MirrorEvent) -> Void, tick: @escaping () -> Void) throws(CLIError) {
        do {
            ticker = try loop.makeTimer(clock: CLOCK_REALTIME, tick)
            mirror = try AlarmMirror(proxy: proxy) { [unowned self] mirror, event in
                self.mirror = mirror
                onEvent(event)
            }
        } catch { throw .bus(error, doing: say(N_("cannot follow alarmd"))) }
    }

    var alarms: [AlarmSnapshot] { mirror.map { Array($0.alarms.values) } ?? [] }
    var running: Bool { mirror?.running ?? false }

    /// Arms the ticker for the next instant `countdown`'s remaining time crosses a whole second;
    /// nil (nothing counting down) disarms it.
    func tick(following countdown: AlarmSnapshot?) {
        guard let c = countdown, c.isCountingDown, c.fireTime > 0 else { ticker?.arm(at: nil); return }
        let now = SystemClock().now()
        guard c.fireTime > now else { ticker?.arm(at: nil); return }
        let rest = (c.fireTime - now) % usecPerSecond
        let next = now + (rest == 0 ? usecPerSecond : rest)
        // The last second ends in the alert itself, which alarmd announces: a "0:00" drawn a moment
        // before it would only be a second update in a row (polybar was seen to keep the first).
        ticker?.arm(at: next < c.fireTime ? next : nil)
    }

    /// The exit status: 0 after SIGINT/SIGTERM or an explicit exit, non-zero when the bus went away.
    func run() -> Int32 {
        let r = loop.run()
        if r != 0 { Output.error(say(N_("lost the connection to the bus"))) }
        return r == 0 ? 0 : 3
    }

    /// Hands what arrives on stdin to `handler` (keys, i3bar's clicks); at its end, stops listening
    /// and keeps running.
    func readInput(_ handler: @escaping ([UInt8]) -> Void) {
        var watch: IOWatch?
        watch = try? loop.watchReadable(0) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(0, &buffer, buffer.count)
            if n > 0 { handler(Array(buffer[0..<n])) } else if n == 0 || errno != EINTR { watch?.cancel() }
        }
        input = watch
    }

    /// Ends the program when whoever reads stdout goes away (a panel restarting), even while idle.
    func exitWhenOutputCloses() {
        _ = try? loop.watchHangup(1) { exit(0) }
    }
}
