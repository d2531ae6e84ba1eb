// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import BusValue
import CSystemd
import Glibc

/// A connection to a message bus.
public final class Bus {
    public let handle: OpaquePointer
    /// Exported interfaces, match boxes and slots stay alive as long as the bus.
    var retained: [AnyObject] = []
    /// The registrations (exports, filters, matches) `close` takes back, newest last.
    private var slots: [OpaquePointer] = []
    /// The largest reply an exported method may send. The specification caps a message at 128 MiB
    /// and dbus-daemon disconnects whoever sends more; the system bus's default is 32 MiB. Set
    /// before exporting.
    public var maxReplyBytes = 32 << 20

    init(adopting handle: OpaquePointer) { self.handle = handle }

    deinit {
        for slot in slots.reversed() { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(handle)
    }

    /// Registers through `add` (an `sd_bus_add_…` call given the slot to fill) and keeps the slot.
    func register(_ what: String, _ add: (UnsafeMutablePointer<OpaquePointer?>) -> Int32) throws(BusError) {
        var slot: OpaquePointer?
        try check(add(&slot), what)
        if let slot { slots.append(slot) }
    }

    /// Takes back every export, filter and match, and drops what their handlers hold. Objects a bus
    /// serves often hold the bus themselves (to emit signals): without this, that cycle would outlive
    /// the loop. Call it once the loop has stopped; the connection stays open until the bus goes.
    public func close() {
        for slot in slots.reversed() { sd_bus_slot_unref(slot) }
        slots.removeAll()
        retained.removeAll()
    }

    /// The session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    public static func session() throws(BusError) -> Bus {
        var b: OpaquePointer?
        try check(sd_bus_open_user(&b), "connect to the session bus")
        return Bus(adopting: b!)
    }

    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
    public static func system() throws(BusError) -> Bus {
        var b: OpaquePointer?
        try check(sd_bus_open_system(&b), "connect to the system bus")
        return Bus(adopting: b!)
    }

    /// Attaches without ending the loop when this bus goes away (for secondary connections).
    public func attachSecondary(_ loop: EventLoop) throws(BusError) {
        try check(sd_bus_attach_event(handle, loop.handle, 0), "attach bus to event loop")
    }

    public static func connect(address: String) throws(BusError) -> Bus {
        var b: OpaquePointer?
        try check(sd_bus_new(&b), "sd_bus_new")
        let bus = Bus(adopting: b!)
        try check(sd_bus_set_address(bus.handle, address), "bus address '\(address)'")
        try check(sd_bus_set_bus_client(bus.handle, 1), "bus client")
        try check(sd_bus_start(bus.handle), "connect to \(address)")
        return bus
    }

    public var uniqueName: String {
        var p: UnsafePointer<CChar>?
        sd_bus_get_unique_name(handle, &p)
        return p.map { String(cString: $0) } ?? ""
    }

    public func requestName(_ name: String) throws(BusError) {
        try check(sd_bus_request_name(handle, name, 0), "request name \(name)")
    }

    public func attach(_ loop: EventLoop) throws(BusError) {
        try check(sd_bus_attach_event(handle, loop.handle, 0), "attach bus to event loop")
        // A service without its bus has nothing left to do: end the loop.
        try check(sd_bus_set_exit_on_disconnect(handle, 1), "exit on disconnect")
    }

    public func flush() { sd_bus_flush(handle) }

    /// Dispatches what already arrived (up to `limit` messages) without waiting for more; stops
    /// early, before the next message, once `stop` says so (something more urgent is due).
    public func processPending(limit: Int = 10_000, stop: () -> Bool = { false }) {
        var n = 0
        while n < limit, !stop(), sd_bus_process(handle, nil) > 0 { n += 1 }
    }

    // MARK: emitting

    /// Sends a signal to `destination` alone (a unicast signal: the bus delivers it to that
    /// connection whatever its match rules, and to nobody else but monitors), or to every
    /// subscriber when nil.
    public func emitSignal(path: String, interface: String, member: String, _ args: [Value], to destination: String? = nil) throws(BusError) {
        var m: OpaquePointer?
        try check(sd_bus_message_new_signal(handle, &m, path, interface, member), "new signal \(member)")
        let msg = Message(adopting: m!)
        if let destination { try check(sd_bus_message_set_destination(msg.handle, destination), "address \(member) to \(destination)") }
        try msg.append(args)
        try check(sd_bus_send(handle, msg.handle, nil), "send \(member)")
    }

    /// Emits a signal row of `interface` (its table declares the signature `args` must have).
    public func emit<Object>(_ signal: Interface<Object>.Signal, of interface: Interface<Object>, path: String,
                             _ args: [Value], to destination: String? = nil) throws(BusError) {
        try emitSignal(path: path, interface: interface.name, member: signal.name, args, to: destination)
    }

    /// `PropertiesChanged` with the values given (not read back through the getters), to
    /// `destination` alone or broadcast when nil.
    public func emitPropertiesChanged(path: String, interface: String, _ changed: [(String, Value)], to destination: String?) throws(BusError) {
        guard !changed.isEmpty else { return }
        try emitSignal(path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                       [.string(interface), .vardict(changed), .strings([])], to: destination)
    }

    /// `InterfacesAdded` of the object manager at `manager` for the object at `path`, with each
    /// interface's properties as given, to `destination` alone or broadcast when nil.
    public func emitInterfacesAdded(manager: String, path: String, _ interfaces: [(String, [(String, Value)])],
                                    to destination: String?) throws(BusError) {
        try emitSignal(path: manager, interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded",
                       [.objectPath(path), .dict(key: "s", value: "a{sv}", interfaces.map { .init(.string($0.0), .vardict($0.1)) })],
                       to: destination)
    }

    /// `InterfacesRemoved` of the object manager at `manager`, to `destination` alone or broadcast when nil.
    public func emitInterfacesRemoved(manager: String, path: String, _ interfaces: [String], to destination: String?) throws(BusError) {
        try emitSignal(path: manager, interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesRemoved",
                       [.objectPath(path), .strings(interfaces)], to: destination)
    }

    public func emitPropertiesChanged(path: String, interface: String, _ names: [String]) throws(BusError) {
        guard !names.isEmpty else { return }
        _ = try withStrv(names) { (strv) throws(BusError) in
            try check(sd_bus_emit_properties_changed_strv(handle, path, interface, strv), "PropertiesChanged on \(path)")
        }
    }

    public func addObjectManager(path: String) throws(BusError) {
        try register("object manager at \(path)") { sd_bus_add_object_manager(handle, $0, path) }
    }

    // MARK: calling

    /// A synchronous method call; throws the error reply as a `BusError`.
    @discardableResult
    public func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
                     _ args: [Value] = [], timeoutUSec: UInt64 = 25_000_000) throws(BusError) -> [Value] {
        try callMessage(destination, path, interface, member, args, timeoutUSec: timeoutUSec).readAll()
    }

    public func callMessage(_ destination: String, _ path: String, _ interface: String, _ member: String,
                            _ args: [Value] = [], timeoutUSec: UInt64 = 25_000_000) throws(BusError) -> Message {
        let msg = try newCall(destination, path, interface, member, args)
        var err = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&err) }
        var reply: OpaquePointer?
        let r = sd_bus_call(handle, msg.handle, timeoutUSec, &err, &reply)
        if r < 0 { throw BusError(&err, fallback: r, "\(interface).\(member)") }
        return Message(adopting: reply!)
    }

    private func newCall(_ destination: String, _ path: String, _ interface: String, _ member: String,
                         _ args: [Value]) throws(BusError) -> Message {
        var m: OpaquePointer?
        try check(sd_bus_message_new_method_call(handle, &m, destination, path, interface, member), "new call \(member)")
        let msg = Message(adopting: m!)
        try msg.append(args)
        return msg
    }

    /// Sends a call without waiting; the reply (or error) goes to `handler` from the event loop.
    /// `autoStart` false: the bus does not activate `destination` for it (no owner is an error reply).
    public func callAsync(_ destination: String, _ path: String, _ interface: String, _ member: String,
                          _ args: [Value], timeoutUSec: UInt64 = 25_000_000, autoStart: Bool = true,
                          _ handler: @escaping (Message) -> Void) throws(BusError) {
        let msg = try newCall(destination, path, interface, member, args)
        if !autoStart { try check(sd_bus_message_set_auto_start(msg.handle, 0), "no auto-start for \(member)") }
        let box = CallbackBox(handler, owner: self)
        retained.append(box)
        try check(sd_bus_call_async(handle, nil, msg.handle, asyncReplyTrampoline,
                                    Unmanaged.passUnretained(box).toOpaque(), timeoutUSec), "call \(member)")
    }

    /// Sees every method call to exactly `path` before sd-bus dispatches it, its own interfaces
    /// (`ObjectManager`, `Properties`) included: `handler` returns an error to answer with, or nil
    /// to let the call go on.
    public func addCallFilter(path: String, _ handler: @escaping (Message) -> BusError?) throws(BusError) {
        let box = FilterBox(handler)
        retained.append(box)
        try register("filter \(path)") { sd_bus_add_object(handle, $0, path, filterTrampoline, Unmanaged.passUnretained(box).toOpaque()) }
    }

    // MARK: matching

    /// Calls `handler` for every message matching `rule` (D-Bus match rule syntax).
    public func addMatch(_ rule: String, _ handler: @escaping (Message) -> Void) throws(BusError) {
        let box = CallbackBox(handler, owner: nil)
        retained.append(box)
        try register("add match \(rule)") { sd_bus_add_match(handle, $0, rule, matchTrampoline, Unmanaged.passUnretained(box).toOpaque()) }
    }

    // MARK: processing (clients without an event loop)

    /// Processes queued messages, waiting up to `timeoutUSec` for one to arrive.
    public func processOnce(timeoutUSec: UInt64) throws(BusError) {
        let r = try check(sd_bus_process(handle, nil), "process")
        if r == 0 { _ = sd_bus_wait(handle, timeoutUSec) }
    }

}

final class CallbackBox {
    let handler: (Message) -> Void
    weak var owner: Bus?
    init(_ handler: @escaping (Message) -> Void, owner: Bus?) {
        self.handler = handler
        self.owner = owner
    }
}

final class FilterBox {
    let handler: (Message) -> BusError?
    init(_ handler: @escaping (Message) -> BusError?) { self.handler = handler }
}

private let filterTrampoline: sd_bus_message_handler_t = { m, userdata, retError in
    guard let m, let userdata, sd_bus_message_is_method_call(m, nil, nil) > 0 else { return 0 }
    guard let error = Unmanaged<FilterBox>.fromOpaque(userdata).takeUnretainedValue().handler(Message(retaining: m)) else { return 0 }
    return setError(retError, error)
}

private let matchTrampoline: sd_bus_message_handler_t = { m, userdata, _ in
    guard let m, let userdata else { return 0 }
    Unmanaged<CallbackBox>.fromOpaque(userdata).takeUnretainedValue().handler(Message(retaining: m))
    return 0
}

private let asyncReplyTrampoline: sd_bus_message_handler_t = { m, userdata, _ in
    guard let m, let userdata else { return 0 }
    let box = Unmanaged<CallbackBox>.fromOpaque(userdata).takeUnretainedValue()
    box.handler(Message(retaining: m))
    // One reply per call: let the box go.
    if let bus = box.owner { bus.retained.removeAll { $0 === box } }
    return 1
}

/// Runs `body` with a NULL-terminated C string array.
func withStrv<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws(BusError) -> R) throws(BusError) -> R {
    let ptrs = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
    for (i, s) in strings.enumerated() { ptrs[i] = strdup(s) }
    ptrs[strings.count] = nil
    defer {
        for i in 0..<strings.count { free(ptrs[i]) }
        ptrs.deallocate()
    }
    return try body(ptrs)
}
