// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CPulse
import Glibc

/// A libpulse connection (PulseAudio, or PipeWire's pulse server) that never blocks the event loop.
///
/// libpulse runs on its own thread (`pa_threaded_mainloop`): requests are only queued from the loop
/// thread under the mainloop's lock, which libpulse's thread holds just while dispatching; replies
/// are turned into plain Swift values there and handed to the event loop through a pipe, as the
/// Ringer does with canberra's callbacks. Completions then run on the loop thread, in order.
/// (A plain `pa_mainloop` driven from sd-event would need libpulse's whole mainloop API — io, time
/// and defer events — reimplemented over sd-event with capture-free callbacks; the threaded loop is
/// libpulse's own supported way, and its lock is only ever held for microseconds: libpulse's thread
/// releases it while it polls.)
final class PulseClient {
    enum Event {
        case connected
        case gone(String)
        /// A sink or a sink input changed (or came, or went).
        case changed(sinkInput: Bool)
        case reply(UInt64, Reply)
    }

    enum Reply {
        case defaultSink(String?)
        case sink(PulseSink?)
        case ownStreamSink(UInt32?)
        case done(Bool)
    }

    private let mainloop: OpaquePointer
    private let context: OpaquePointer
    private let inbox: PulseInbox
    private var nextTag: UInt64 = 1
    private var waiting: [UInt64: (Reply) -> Void] = [:]
    private var closed = false
    /// Everything that is not a reply: connection state and subscription events.
    var onEvent: (Event) -> Void = { _ in }

    /// Loads libpulse, which an idle alarmd does without (it is opened for the first connection and
    /// stays): nil once it is there, else why it cannot be. Before any PulseClient.
    static func loadLibrary() -> String? { loadSoundLibrary(alarmd_load_pulse) }

    /// Starts connecting; `onEvent(.connected)` or `.gone` follows. Nil when libpulse cannot even start.
    /// `inbox` outlives connections (the loop watches its pipe once), and its owner calls `drain()`.
    init?(inbox: PulseInbox, applicationName: String) {
        guard let ml = sym_pa_threaded_mainloop_new!() else { return nil }
        self.inbox = inbox
        mainloop = ml
        let props = sym_pa_proplist_new!()
        _ = sym_pa_proplist_sets!(props, PA_PROP_APPLICATION_NAME, applicationName)
        _ = sym_pa_proplist_sets!(props, PA_PROP_APPLICATION_ID, "org.alarmd.AlarmManager1")
        let ctx = sym_pa_context_new_with_proplist!(sym_pa_threaded_mainloop_get_api!(ml), applicationName, props)
        sym_pa_proplist_free!(props)
        guard let ctx else {
            sym_pa_threaded_mainloop_free!(ml)
            return nil
        }
        context = ctx
        let me = Unmanaged.passUnretained(inbox).toOpaque()
        sym_pa_context_set_state_callback!(ctx, stateCallback, me)
        sym_pa_context_set_subscribe_callback!(ctx, subscribeCallback, me)
        // No autospawn: a daemon must not start a sound server behind the user's back. (From here on
        // a failed init still runs deinit, whose close() frees what was made.)
        guard sym_pa_context_connect!(ctx, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0, sym_pa_threaded_mainloop_start!(ml) >= 0 else {
            close()
            return nil
        }
    }

    deinit { close() }

    /// Disconnects and joins libpulse's thread (which wakes at once): never from a libpulse callback.
    func close() {
        guard !closed else { return }
        closed = true
        sym_pa_threaded_mainloop_lock!(mainloop)
        sym_pa_context_set_state_callback!(context, nil, nil)
        sym_pa_context_set_subscribe_callback!(context, nil, nil)
        sym_pa_context_disconnect!(context)
        sym_pa_threaded_mainloop_unlock!(mainloop)
        sym_pa_threaded_mainloop_stop!(mainloop)
        sym_pa_context_unref!(context)
        sym_pa_threaded_mainloop_free!(mainloop)
        waiting.removeAll()
        // libpulse's thread is gone: what it posted belongs to this connection only.
        _ = inbox.take()
    }

    // MARK: requests (loop thread)

    func subscribe() {
        locked { _ = pa_operation_unref_if(sym_pa_context_subscribe!(context, alarmd_subscription_mask(), nil, nil)) }
    }

    func defaultSink(_ done: @escaping (String?) -> Void) {
        request({ if case .defaultSink(let s) = $0 { done(s) } }) { box in
            sym_pa_context_get_server_info!(context, serverInfoCallback, box)
        }
    }

    /// The sink alarmd's own (canberra's) stream plays on, if one exists now.
    func ownStreamSink(_ done: @escaping (UInt32?) -> Void) {
        request({ if case .ownStreamSink(let s) = $0 { done(s) } }) { box in
            sym_pa_context_get_sink_input_info_list!(context, sinkInputCallback, box)
        }
    }

    func sink(named name: String, _ done: @escaping (PulseSink?) -> Void) {
        request({ if case .sink(let s) = $0 { done(s) } }) { box in
            sym_pa_context_get_sink_info_by_name!(context, name, sinkCallback, box)
        }
    }

    func sink(index: UInt32, _ done: @escaping (PulseSink?) -> Void) {
        request({ if case .sink(let s) = $0 { done(s) } }) { box in
            sym_pa_context_get_sink_info_by_index!(context, index, sinkCallback, box)
        }
    }

    func setMute(_ sink: String, _ muted: Bool, _ done: @escaping (Bool) -> Void) {
        request({ if case .done(let ok) = $0 { done(ok) } }) { box in
            sym_pa_context_set_sink_mute_by_name!(context, sink, muted ? 1 : 0, successCallback, box)
        }
    }

    func setVolumes(_ sink: String, _ volumes: [UInt32], _ done: @escaping (Bool) -> Void) {
        var cv = pa_cvolume()
        volumes.withUnsafeBufferPointer { alarmd_cvolume_set(&cv, UInt32($0.count), $0.baseAddress) }
        request({ if case .done(let ok) = $0 { done(ok) } }) { box in
            sym_pa_context_set_sink_volume_by_name!(context, sink, &cv, successCallback, box)
        }
    }

    /// Queues one request; a request libpulse refuses at once (the connection just died) completes
    /// as failed on the next loop pass, never re-entrantly.
    private func request(_ completion: @escaping (Reply) -> Void, _ issue: (UnsafeMutableRawPointer) -> OpaquePointer?) {
        let tag = nextTag
        nextTag += 1
        waiting[tag] = completion
        let box = Unmanaged.passRetained(PulseRequest(inbox: inbox, tag: tag)).toOpaque()
        var issued = false
        locked { issued = pa_operation_unref_if(issue(box)) }
        if !issued {
            let request = Unmanaged<PulseRequest>.fromOpaque(box).takeRetainedValue()
            request.finish(.done(false))
        }
    }

    private func locked(_ body: () -> Void) {
        guard !closed else { return }
        sym_pa_threaded_mainloop_lock!(mainloop)
        body()
        sym_pa_threaded_mainloop_unlock!(mainloop)
    }

    func drain() {
        for event in inbox.take() {
            switch event {
            case .reply(let tag, let reply):
                waiting.removeValue(forKey: tag)?(reply)
            default:
                onEvent(event)
            }
            if closed { return }
        }
    }

    /// Waits up to `timeout` s for libpulse's answers and handles them (only when the loop no longer
    /// runs: alarmd is exiting and must put the output back first).
    func pump(until done: () -> Bool, timeout: Double) {
        let deadline = SystemClock.monotonic + UInt64(timeout * 1_000_000)
        while !closed && !done() && SystemClock.monotonic < deadline {
            var p = pollfd(fd: inbox.pipe.readFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(max(1, (deadline - min(deadline, SystemClock.monotonic)) / 1000)))
            drain()
        }
    }

    fileprivate static func state(of info: UnsafePointer<pa_sink_info>) -> PulseSink {
        var cv = info.pointee.volume
        let volumes = (0..<alarmd_cvolume_channels(&cv)).map { alarmd_cvolume_get(&cv, $0) }
        return PulseSink(name: String(cString: info.pointee.name), state: OutputOverride.SinkState(muted: info.pointee.mute != 0, volumes: volumes))
    }
}

/// A sink as the server reports it.
struct PulseSink {
    let name: String
    let state: OutputOverride.SinkState
}

/// True when an operation was issued; its reference is dropped (its callback still runs).
private func pa_operation_unref_if(_ op: OpaquePointer?) -> Bool {
    guard let op else { return false }
    sym_pa_operation_unref!(op)
    return true
}

/// Shared by the loop thread and libpulse's thread: events in order, and a pipe to wake the loop.
final class PulseInbox: @unchecked Sendable {
    let pipe: FinishPipe
    private let events = Locked<[PulseClient.Event]>([])

    init() throws { pipe = try FinishPipe() }

    func post(_ e: PulseClient.Event) {
        events.withLock { $0.append(e) }
        var byte: UInt8 = 1
        _ = write(pipe.writeFD, &byte, 1)
    }

    func take() -> [PulseClient.Event] {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(pipe.readFD, &scratch, scratch.count) > 0 {}
        return events.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }
}

/// One request in flight: libpulse's callbacks carry it as userdata, and it collects list entries
/// until the end of the list.
final class PulseRequest: @unchecked Sendable {
    let inbox: PulseInbox
    let tag: UInt64
    var sink: PulseSink?
    var ownStream: UInt32?

    init(inbox: PulseInbox, tag: UInt64) {
        self.inbox = inbox
        self.tag = tag
    }

    func finish(_ r: PulseClient.Reply) { inbox.post(.reply(tag, r)) }
}

private let stateCallback: pa_context_notify_cb_t = { ctx, userdata in
    guard let ctx, let userdata else { return }
    let inbox = Unmanaged<PulseInbox>.fromOpaque(userdata).takeUnretainedValue()
    switch sym_pa_context_get_state!(ctx) {
    case PA_CONTEXT_READY: inbox.post(.connected)
    case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
        let code = sym_pa_context_errno!(ctx)
        inbox.post(.gone(sym_pa_strerror!(code).map { String(cString: $0) } ?? "error \(code)"))
    default: break
    }
}

private let subscribeCallback: pa_context_subscribe_cb_t = { _, type, _, userdata in
    guard let userdata else { return }
    let inbox = Unmanaged<PulseInbox>.fromOpaque(userdata).takeUnretainedValue()
    if alarmd_event_is_sink(type) != 0 { inbox.post(.changed(sinkInput: false)) }
    if alarmd_event_is_sink_input(type) != 0 && alarmd_event_is_removal(type) == 0 { inbox.post(.changed(sinkInput: true)) }
}

private let serverInfoCallback: pa_server_info_cb_t = { _, info, userdata in
    guard let userdata else { return }
    let r = Unmanaged<PulseRequest>.fromOpaque(userdata).takeRetainedValue()
    r.finish(.defaultSink(info?.pointee.default_sink_name.map { String(cString: $0) }))
}

private let sinkCallback: pa_sink_info_cb_t = { _, info, eol, userdata in
    guard let userdata else { return }
    if eol == 0, let info {
        Unmanaged<PulseRequest>.fromOpaque(userdata).takeUnretainedValue().sink = PulseClient.state(of: info)
        return
    }
    let r = Unmanaged<PulseRequest>.fromOpaque(userdata).takeRetainedValue()
    r.finish(.sink(r.sink))
}

private let ownPID = String(getpid())

private let sinkInputCallback: pa_sink_input_info_cb_t = { _, info, eol, userdata in
    guard let userdata else { return }
    if eol == 0, let info {
        let r = Unmanaged<PulseRequest>.fromOpaque(userdata).takeUnretainedValue()
        let props = info.pointee.proplist
        func prop(_ key: String) -> String? { sym_pa_proplist_gets!(props, key).map { String(cString: $0) } }
        // canberra's streams carry alarmd's process id from the client, and the application id
        // alarmd gives its canberra context; either marks the stream as alarmd's own.
        let pid = prop("application.process.id")
        if pid == ownPID || (pid == nil && prop("application.id") == "org.alarmd.AlarmManager1") { r.ownStream = info.pointee.sink }
        return
    }
    let r = Unmanaged<PulseRequest>.fromOpaque(userdata).takeRetainedValue()
    r.finish(.ownStreamSink(r.ownStream))
}

private let successCallback: pa_context_success_cb_t = { _, success, userdata in
    guard let userdata else { return }
    Unmanaged<PulseRequest>.fromOpaque(userdata).takeRetainedValue().finish(.done(success != 0))
}
