// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

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
        // SIGCHLD too: sd-event reaps helper children through a child source.
        sigaddset(&set, SIGCHLD)
        sigprocmask(SIG_BLOCK, &set, nil)
        for s in signals { try check(sd_event_add_signal(handle, nil, s, nil, nil), "watch signal \(s)") }
    }

    public func run() -> Int32 { sd_event_loop(handle) }

    /// sd-event's priority of a source that must be served before everything else that is ready
    /// (the bus, deferred work): among sources ready at once, the lowest value runs first.
    public static let importantPriority = Int64(SD_EVENT_PRIORITY_IMPORTANT)

    /// Calls `handler` on the loop thread whenever `fd` is readable, until the watch is cancelled;
    /// `priority` below 0 (`importantPriority`) serves it before the bus's messages.
    @discardableResult
    public func watchReadable(_ fd: Int32, priority: Int64 = 0, _ handler: @escaping () -> Void) throws(BusError) -> IOWatch {
        let w = try watch(fd, events: UInt32(EPOLLIN.rawValue), handler)
        if priority != 0 { try check(sd_event_source_set_priority(w.source, priority), "priority of fd \(fd)") }
        return w
    }

    /// Calls `handler` when `fd` reports an error or hang-up: a pipe whose reader went away does so
    /// at once, before anything is written into it.
    @discardableResult
    public func watchHangup(_ fd: Int32, _ handler: @escaping () -> Void) throws(BusError) -> IOWatch {
        try watch(fd, events: 0, handler)
    }

    private func watch(_ fd: Int32, events: UInt32, _ handler: @escaping () -> Void) throws(BusError) -> IOWatch {
        let box = IOBox(handler)
        retained.append(box)
        var source: OpaquePointer?
        try check(sd_event_add_io(handle, &source, fd, events, ioTrampoline, Unmanaged.passUnretained(box).toOpaque()),
                  "watch fd \(fd)")
        return IOWatch(source)
    }

    /// Calls `handler` on the loop thread for `signal` (blocked for the process, as sd-event wants).
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) throws(BusError) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        sigprocmask(SIG_BLOCK, &set, nil)
        let box = IOBox(handler)
        retained.append(box)
        try check(sd_event_add_signal(handle, nil, signal, signalTrampoline, Unmanaged.passUnretained(box).toOpaque()),
                  "watch signal \(signal)")
    }

    /// Starts a helper program (`xdg-open`) and reaps it when it ends, without waiting for it;
    /// `onExit` then gets its wait status (as `waitpid` gives it) and what it wrote to stderr.
    public func spawnDetached(_ path: String, _ args: [String], onExit: @escaping (Int32, String) -> Void) throws(BusError) {
        try spawn(path, args, stderr: .capture, onExit: onExit)
    }

    /// What a spawned child's stderr is: a pipe read when it ends (`onExit` gets the text), or the daemon's own.
    public enum ChildStderr {
        case capture, inherit
    }

    /// Starts `path` (looked up in `PATH` when it has no slash) with `args`, in a session of its own
    /// (as `QProcess::startDetached`), with no descriptor of this process but 0, 1 and 2, the signal
    /// mask empty and SIGPIPE at its default; sd-event reaps it when it ends and `onExit` then gets
    /// its wait status (as `waitpid` gives it) and, for `.capture`, what it wrote to stderr (at most
    /// 64 KiB, read then). Its environment is this process's, with the names in `setting` set (in the
    /// child only: this process's own is left as it is). Returns its pid.
    @discardableResult
    public func spawn(_ path: String, _ args: [String], stderr: ChildStderr, setting: [String: String] = [:],
                      onExit: @escaping (Int32, String) -> Void) throws(BusError) -> pid_t {
        var fds: [Int32] = [-1, -1]
        if stderr == .capture {
            // Both ends close-on-exec: the child gets the write end as its stderr through dup2, which clears it there.
            guard alarmd_pipe_cloexec(&fds) == 0 else { throw BusError(errno: -errno, "pipe") }
            _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stderr == .capture { posix_spawn_file_actions_adddup2(&actions, fds[1], 2) }
        // Whatever else is open here (a library's descriptor without O_CLOEXEC) stays here.
        alarmd_spawn_addclosefrom(&actions, 3)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var pipeDefault = sigset_t()
        sigemptyset(&pipeDefault)
        sigaddset(&pipeDefault, SIGPIPE)
        posix_spawnattr_setsigdefault(&attr, &pipeDefault)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | alarmd_posix_spawn_setsid)
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let r: Int32
        if setting.isEmpty {
            r = posix_spawnp(&pid, path, &actions, &attr, argv, environ)
        } else {
            let envp = EventLoop.environment(setting: setting)
            defer { envp.forEach { free($0) } }
            r = posix_spawnp(&pid, path, &actions, &attr, argv, envp)
        }
        if stderr == .capture { close(fds[1]) }
        if r != 0 {
            if stderr == .capture { close(fds[0]) }
            throw BusError(errno: -r, "spawn \(path)")
        }
        // sd-event reaps the child (SIGCHLD is blocked by exitOnSignals); the box lives until then.
        let box = Unmanaged.passRetained(ChildBox(stderr: fds[0], onExit: onExit)).toOpaque()
        var source: OpaquePointer?
        if sd_event_add_child(handle, &source, pid, WEXITED, childTrampoline, box) >= 0 {
            sd_event_source_set_floating(source, 1)
            sd_event_source_unref(source)
        } else {
            Unmanaged<ChildBox>.fromOpaque(box).release()
        }
        return pid
    }

    /// The environment `base` (this process's) with `setting` set, as a NULL-terminated block whose
    /// entries the caller frees: every other entry byte for byte as it is (not through `String`, which
    /// would mend a value that is not UTF-8), an entry of a name set here left out.
    static func environment(_ base: UnsafePointer<UnsafeMutablePointer<CChar>?> = UnsafePointer(environ),
                            setting: [String: String]) -> [UnsafeMutablePointer<CChar>?] {
        var out: [UnsafeMutablePointer<CChar>?] = []
        var entry = base
        while let pointer = entry.pointee {
            let replaced = setting.keys.contains { name in
                name.withCString { n in strncmp(pointer, n, strlen(n)) == 0 && pointer[strlen(n)] == CChar(UInt8(ascii: "=")) }
            }
            if !replaced { out.append(strdup(pointer)) }
            entry += 1
        }
        for (name, value) in setting.sorted(by: { $0.key < $1.key }) { out.append(strdup(name + "=" + value)) }
        return out + [nil]
    }

    private var retained: [AnyObject] = []

    public func exit(_ code: Int32 = 0) { sd_event_exit(handle, code) }

    /// Runs `handler` on the loop thread as the loop exits, while the buses attached to it still
    /// work: sd-bus flushes and closes an attached bus in an exit source of its own, at priority 0,
    /// and this one runs before it.
    public func beforeExit(_ handler: @escaping () -> Void) throws(BusError) {
        let box = IOBox(handler)
        retained.append(box)
        var source: OpaquePointer?
        try check(sd_event_add_exit(handle, &source, exitTrampoline, Unmanaged.passUnretained(box).toOpaque()), "add exit source")
        sd_event_source_set_priority(source, EventLoop.importantPriority)
        sd_event_source_set_floating(source, 1)
        sd_event_source_unref(source)
    }

    /// A source that runs `handler` on the next pass of the loop once triggered, however often it
    /// was triggered meanwhile.
    public func makeDefer(_ handler: @escaping () -> Void) throws(BusError) -> DeferSource {
        try DeferSource(loop: self, handler: handler)
    }

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

/// An sd-event defer source, off until triggered.
public final class DeferSource {
    private var source: OpaquePointer?
    let handler: () -> Void

    init(loop: EventLoop, handler: @escaping () -> Void) throws(BusError) {
        self.handler = handler
        var s: OpaquePointer?
        try check(sd_event_add_defer(loop.handle, &s, deferTrampoline, Unmanaged.passUnretained(self).toOpaque()), "add defer")
        source = s
        sd_event_source_set_enabled(s, Int32(SD_EVENT_OFF))
    }

    deinit { sd_event_source_disable_unref(source) }

    public func trigger() { sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT)) }
}

private let deferTrampoline: sd_event_handler_t = { _, userdata in
    let source = Unmanaged<DeferSource>.fromOpaque(userdata!).takeUnretainedValue()
    withExtendedLifetime(source) { source.handler() }
    return 0
}

/// A watched file descriptor; `cancel()` stops watching (at end of file, say).
public final class IOWatch {
    fileprivate var source: OpaquePointer?
    init(_ source: OpaquePointer?) { self.source = source }
    public func cancel() {
        sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF))
    }
}

final class ChildBox {
    /// The read end of the child's stderr, or -1 when it inherited ours.
    let stderr: Int32
    let onExit: (Int32, String) -> Void
    init(stderr: Int32, onExit: @escaping (Int32, String) -> Void) {
        self.stderr = stderr
        self.onExit = onExit
    }
}

private let childTrampoline: sd_event_child_handler_t = { _, info, userdata in
    let box = Unmanaged<ChildBox>.fromOpaque(userdata!).takeRetainedValue()
    var text = [UInt8]()
    if box.stderr >= 0 {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while text.count < 65_536 {
            let n = read(box.stderr, &chunk, chunk.count)
            if n <= 0 { break }
            text += chunk[0..<n]
        }
        close(box.stderr)
    }
    // Rebuild a waitpid-style status from the siginfo sd-event hands over.
    let code = info!.pointee.si_code, status = info!.pointee._sifields._sigchld.si_status
    let wait = code == CLD_EXITED ? (status & 0xff) << 8 : status & 0x7f
    box.onExit(wait, String(decoding: text, as: UTF8.self))
    return 0
}

final class IOBox {
    let handler: () -> Void
    init(_ handler: @escaping () -> Void) { self.handler = handler }
}

private let ioTrampoline: sd_event_io_handler_t = { _, _, _, userdata in
    Unmanaged<IOBox>.fromOpaque(userdata!).takeUnretainedValue().handler()
    return 0
}

private let exitTrampoline: sd_event_handler_t = { _, userdata in
    Unmanaged<IOBox>.fromOpaque(userdata!).takeUnretainedValue().handler()
    return 0
}

private let signalTrampoline: sd_event_signal_handler_t = { _, _, userdata in
    Unmanaged<IOBox>.fromOpaque(userdata!).takeUnretainedValue().handler()
    return 0
}
