// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import BusValue
import CSystemd
import Glibc

/// An interface's whole shape, declared once as a table (as systemd's vtables and logind's
/// `BusObjectImplementation` do): each method row carries its name, signature, argument names, flags
/// and handler; each property row its signature, how it changes and its getter. sd-bus's vtable, the
/// introspection data and the dispatch are all made from it: nothing else names a member.
public struct Interface<Object: BusObject>: Sendable {
    public let name: String
    public let methods: [Method]
    public let properties: [Property]
    public let signals: [Signal]

    public init(_ name: String, methods: [Method] = [], properties: [Property] = [], signals: [Signal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    public struct Method: Sendable {
        public let name: String
        public let inArgs: [(name: String, type: String)]
        public let outArgs: [(name: String, type: String)]
        public let flags: MethodFlags
        /// Runs the method for what the object's `invoke` resolved (the caller).
        public let handler: @Sendable (Object, MethodCall, Object.CallContext) throws(Object.CallError) -> MethodResult

        public init(_ name: String, in inArgs: [(String, String)] = [], out outArgs: [(String, String)] = [],
                    flags: MethodFlags = [],
                    _ handler: @escaping @Sendable (Object, MethodCall, Object.CallContext) throws(Object.CallError) -> MethodResult) {
            self.name = name
            self.inArgs = inArgs.map { (name: $0.0, type: $0.1) }
            self.outArgs = outArgs.map { (name: $0.0, type: $0.1) }
            self.flags = flags
            self.handler = handler
        }

        public var inSignature: String { inArgs.map(\.type).joined() }
        public var outSignature: String { outArgs.map(\.type).joined() }
    }

    public struct Property: Sendable {
        public let name: String
        public let signature: String
        public let change: PropertyChange
        /// The value at `path` (fallback objects serve many) for the caller whose call asks for it (nil
        /// outside a call); nil when there is no such object.
        public let get: @Sendable (Object, _ path: String, _ caller: Message?) -> Value?

        public init(_ name: String, _ signature: String, _ change: PropertyChange,
                    _ get: @escaping @Sendable (Object, _ path: String, _ caller: Message?) -> Value?) {
            self.name = name
            self.signature = signature
            self.change = change
            self.get = get
        }

        /// A property whose value is the same whoever asks.
        public init(_ name: String, _ signature: String, _ change: PropertyChange, _ get: @escaping @Sendable (Object, _ path: String) -> Value?) {
            self.init(name, signature, change) { object, path, _ in get(object, path) }
        }
    }

    public struct Signal: Sendable {
        public let name: String
        public let args: [(name: String, type: String)]

        public init(_ name: String, _ args: [(String, String)]) {
            self.name = name
            self.args = args.map { (name: $0.0, type: $0.1) }
        }
    }
}

extension Interface.Method where Object.CallContext == Void, Object.CallError == BusError {
    /// A row of an object without a call policy: its handler needs no caller.
    public init(_ name: String, in inArgs: [(String, String)] = [], out outArgs: [(String, String)] = [],
                flags: MethodFlags = [], _ handler: @escaping @Sendable (Object, MethodCall) throws(BusError) -> MethodResult) {
        self.init(name, in: inArgs, out: outArgs, flags: flags) { (object, call, _) throws(BusError) in try handler(object, call) }
    }
}

/// What a method does, for the object's own call policy: sd-bus is not told (every member is callable
/// by every peer of the session bus), the object's `invoke` reads them.
public struct MethodFlags: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Changes state: costs a durable write, so callers are rate-limited.
    public static let mutating = MethodFlags(rawValue: 1)
    /// Reserved to the user's own tools (not to apps).
    public static let privileged = MethodFlags(rawValue: 2)
    /// Says who the caller is (registers it): limited as what it claims to be, not as what it was.
    public static let identifies = MethodFlags(rawValue: 4)
}

public enum PropertyChange: Sendable {
    case const
    case emitsChange
    /// Computed from the clock: never announced by PropertiesChanged.
    case computed

    var raw: UInt64 {
        switch self {
        case .const: return UInt64(SD_BUS_VTABLE_PROPERTY_CONST)
        case .emitsChange: return UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
        case .computed: return 0
        }
    }
}

/// A method call as handed to a method row.
public struct MethodCall {
    public let message: Message
    public let path: String
    public let member: String
    public let sender: String
    public let args: [Value]

    /// Argument `i` as a string ("" for another type: sd-bus checked the signature already).
    public func string(_ i: Int) -> String { i < args.count ? args[i].stringValue ?? "" : "" }
}

public enum MethodResult {
    case reply([Value])
    /// The handler kept `call.message` and will reply later (for example after asking the user).
    case later
}

/// An object that exports interfaces. Calls and property reads arrive on the event-loop thread.
public protocol BusObject: AnyObject, SendableMetatype {
    /// What the object's call policy resolves for its rows (who the caller is): nothing by default.
    associatedtype CallContext = Void
    /// What the rows throw; the policy turns it into a D-Bus error.
    associatedtype CallError: Error = BusError
    /// Runs one method row under the object's call policy, the one place for it: who the caller is,
    /// whether it may call (the rows' flags ask), how its refusals read. By default the row's handler.
    func invoke(_ method: Interface<Self>.Method, _ call: MethodCall) throws(BusError) -> MethodResult
    /// For fallback objects: whether `path` exists for the sender of `caller` (nil outside a call,
    /// when sd-bus itself builds a signal).
    func exists(path: String, caller: Message?) -> Bool
    /// For fallback objects: the child object paths the sender of `caller` may see.
    func children(caller: Message?) -> [String]
}

extension BusObject where CallContext == Void, CallError == BusError {
    public func invoke(_ method: Interface<Self>.Method, _ call: MethodCall) throws(BusError) -> MethodResult {
        try method.handler(self, call, ())
    }
}

extension BusObject {
    public func exists(path: String, caller: Message?) -> Bool { true }
    public func children(caller: Message?) -> [String] { [] }
}

/// An exported interface: the C vtable (built with the real sd-bus macros in the shim) and the
/// strings it points to, kept alive for as long as the bus, with the table's rows bound to the object.
final class ExportedInterface {
    /// Runs the row the call names under the object's policy; nil for a member it does not have.
    let invoke: (MethodCall) throws(BusError) -> MethodResult?
    let properties: [String: (String, Message?) -> Value?]
    let exists: (String, Message?) -> Bool
    let children: (Message?) -> [String]
    let vtable: UnsafeMutablePointer<sd_bus_vtable>
    let maxReplyBytes: Int
    private var cStrings: [UnsafeMutablePointer<CChar>] = []

    init<Object: BusObject>(object: Object, interface: Interface<Object>, maxReplyBytes: Int) {
        self.maxReplyBytes = maxReplyBytes
        let rows = Dictionary(interface.methods.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        invoke = { call throws(BusError) in
            guard let row = rows[call.member] else { return nil }
            return try object.invoke(row, call)
        }
        var properties: [String: (String, Message?) -> Value?] = [:]
        for p in interface.properties { properties[p.name] = { path, caller in p.get(object, path, caller) } }
        self.properties = properties
        exists = { object.exists(path: $0, caller: $1) }
        children = { object.children(caller: $0) }

        let count = interface.methods.count + interface.properties.count + interface.signals.count
        vtable = .allocate(capacity: count + 2)
        var i = 0
        vtable[i] = alarmd_vtable_start(0); i += 1
        for m in interface.methods {
            vtable[i] = alarmd_vtable_method(keep(m.name), keep(m.inSignature), keep(m.outSignature),
                                             keepNames((m.inArgs + m.outArgs).map(\.name)), methodTrampoline,
                                             UInt64(SD_BUS_VTABLE_UNPRIVILEGED))
            i += 1
        }
        for p in interface.properties {
            vtable[i] = alarmd_vtable_property(keep(p.name), keep(p.signature), propertyTrampoline, p.change.raw)
            i += 1
        }
        for s in interface.signals {
            vtable[i] = alarmd_vtable_signal(keep(s.name), keep(s.args.map(\.type).joined()), keepNames(s.args.map(\.name)), 0)
            i += 1
        }
        vtable[i] = alarmd_vtable_end()
    }

    private func keep(_ s: String) -> UnsafeMutablePointer<CChar> {
        let p = strdup(s)!
        cStrings.append(p)
        return p
    }

    /// sd-bus wants argument names as one buffer of NUL-terminated names.
    private func keepNames(_ names: [String]) -> UnsafeMutablePointer<CChar> {
        let bytes: [CChar] = names.flatMap { Array($0.utf8CString) } + [0]
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        p.initialize(from: bytes, count: bytes.count)
        cStrings.append(p)
        return p
    }

    deinit {
        for p in cStrings { free(p) }
        vtable.deallocate()
    }
}

extension Bus {
    /// Exports `object` at `path` under `interface`.
    public func export<Object: BusObject>(_ object: Object, path: String, _ interface: Interface<Object>) throws(BusError) {
        let e = ExportedInterface(object: object, interface: interface, maxReplyBytes: maxReplyBytes)
        retained.append(e)
        try register("export \(interface.name) at \(path)") {
            sd_bus_add_object_vtable(handle, $0, path, interface.name, e.vtable, Unmanaged.passUnretained(e).toOpaque())
        }
    }

    /// Exports one interface for every object below `prefix` (logind style): `object.exists`
    /// decides which paths are real, `object.children` enumerates them.
    public func exportFallback<Object: BusObject>(_ object: Object, prefix: String, _ interface: Interface<Object>) throws(BusError) {
        let e = ExportedInterface(object: object, interface: interface, maxReplyBytes: maxReplyBytes)
        retained.append(e)
        let userdata = Unmanaged.passUnretained(e).toOpaque()
        try register("export \(interface.name) below \(prefix)") {
            sd_bus_add_fallback_vtable(handle, $0, prefix, interface.name, e.vtable, findTrampoline, userdata)
        }
        try register("enumerator \(prefix)") { sd_bus_add_node_enumerator(handle, $0, prefix, enumeratorTrampoline, userdata) }
    }
}

private func exported(_ userdata: UnsafeMutableRawPointer?) -> ExportedInterface {
    Unmanaged<ExportedInterface>.fromOpaque(userdata!).takeUnretainedValue()
}

/// The method call being served, if sd-bus is serving one. While a signal is dispatched (a
/// notification server's ActionInvoked, say) there is no caller: what the daemon emits then is
/// not filtered by the identity of whoever sent that signal.
private func currentCall(_ bus: OpaquePointer?) -> Message? {
    guard let bus, let m = sd_bus_get_current_message(bus), sd_bus_message_is_method_call(m, nil, nil) > 0,
          sd_bus_message_get_sender(m) != nil else { return nil }
    return Message(retaining: m)
}

private let methodTrampoline: sd_bus_message_handler_t = { m, userdata, retError in
    let e = exported(userdata)
    let msg = Message(retaining: m!)
    let args: [Value]
    do throws(BusError) {
        args = try msg.readAll()
    } catch {
        // dbus-daemon delivers strings that sd-bus refuses to read (noncharacters); the caller gets
        // an answer, and nothing of the call is acted on.
        return setError(retError, BusError(BusError.invalidArgs,
            "arguments cannot be read (\(error.message)): strings must be UTF-8 without NUL or noncharacters (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF)"))
    }
    do throws(BusError) {
        let call = MethodCall(message: msg, path: msg.path ?? "", member: msg.member ?? "", sender: msg.sender ?? "", args: args)
        // sd-bus dispatches only members of the vtable, which was made from the same rows.
        guard let result = try e.invoke(call) else {
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", "no method \(call.member)")
        }
        switch result {
        case .reply(let values):
            // dbus-daemon disconnects a peer that sends a message over its size limit: refuse instead.
            let size = Value.marshalledSize(values)
            if size > e.maxReplyBytes {
                throw BusError(BusError.limitsExceeded, "the reply (\(size) bytes) would exceed the \(e.maxReplyBytes)-byte limit of one message")
            }
            try msg.reply(values)
            // A reply of megabytes (GetAlarms) leaves its buffers in malloc's free lists: give them back.
            if size > 1 << 20 { malloc_trim(0) }
        case .later: break
        }
        return 1
    } catch {
        return setError(retError, error)
    }
}

private let propertyTrampoline: sd_bus_property_get_t = { bus, path, _, property, reply, userdata, retError in
    let e = exported(userdata)
    let name = String(cString: property!)
    guard let value = e.properties[name]?(String(cString: path!), currentCall(bus)) else {
        return setError(retError, BusError("org.freedesktop.DBus.Error.UnknownObject", "no such object"))
    }
    do throws(BusError) {
        try Message(retaining: reply!).append(value)
        return 1
    } catch {
        return setError(retError, error)
    }
}

private let findTrampoline: sd_bus_object_find_t = { bus, path, _, userdata, found, _ in
    let e = exported(userdata)
    guard e.exists(String(cString: path!), currentCall(bus)) else { return 0 }
    found?.pointee = userdata
    return 1
}

private let enumeratorTrampoline: sd_bus_node_enumerator_t = { bus, _, userdata, nodes, _ in
    let paths = exported(userdata).children(currentCall(bus))
    let strv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: paths.count + 1)
    for (i, p) in paths.enumerated() { strv[i] = strdup(p) }
    strv[paths.count] = nil
    // sd-bus frees the array with free(); hand it memory from malloc.
    let bytes = MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (paths.count + 1)
    let out = malloc(bytes)!.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: paths.count + 1)
    out.initialize(from: strv, count: paths.count + 1)
    strv.deallocate()
    nodes?.pointee = out
    return 1
}
