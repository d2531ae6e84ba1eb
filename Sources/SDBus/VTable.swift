import AlarmCore
import CSystemd
import Glibc

/// One member of an exported interface.
public enum Member: Sendable {
    case method(String, in: [(String, String)], out: [(String, String)])
    case signal(String, [(String, String)])
    case property(String, String, PropertyFlags)
}

public enum PropertyFlags: Sendable {
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

/// A method call as handed to an exported object.
public struct MethodCall {
    public let message: Message
    public let path: String
    public let member: String
    public let sender: String
    public let args: [Value]
}

public enum MethodResult {
    case reply([Value])
    /// The handler kept `call.message` and will reply later (for example after asking the user).
    case later
}

/// The Swift side of an exported interface. Calls arrive on the event-loop thread.
public protocol BusObject: AnyObject {
    func handle(_ call: MethodCall) throws(BusError) -> MethodResult
    func property(_ name: String, path: String) -> Value?
    /// For fallback objects: whether `path` exists for the sender of `caller` (nil outside a call,
    /// when sd-bus itself builds a signal).
    func exists(path: String, caller: Message?) -> Bool
    /// For fallback objects: the child object paths the sender of `caller` may see.
    func children(caller: Message?) -> [String]
}

extension BusObject {
    public func exists(path: String, caller: Message?) -> Bool { true }
    public func children(caller: Message?) -> [String] { [] }
}

/// An exported interface: the C vtable (built with the real sd-bus macros in the shim) and the
/// strings it points to, kept alive for as long as the bus.
final class ExportedInterface {
    let object: BusObject
    let vtable: UnsafeMutablePointer<sd_bus_vtable>
    let maxReplyBytes: Int
    private var cStrings: [UnsafeMutablePointer<CChar>] = []

    init(object: BusObject, members: [Member], maxReplyBytes: Int) {
        self.object = object
        self.maxReplyBytes = maxReplyBytes
        vtable = .allocate(capacity: members.count + 2)
        var i = 0
        vtable[i] = alarmd_vtable_start(0); i += 1
        for member in members {
            switch member {
            case .method(let name, let ins, let outs):
                vtable[i] = alarmd_vtable_method(keep(name), keep(ins.map(\.1).joined()), keep(outs.map(\.1).joined()),
                                                 keepNames((ins + outs).map(\.0)), methodTrampoline,
                                                 UInt64(SD_BUS_VTABLE_UNPRIVILEGED))
            case .signal(let name, let args):
                vtable[i] = alarmd_vtable_signal(keep(name), keep(args.map(\.1).joined()), keepNames(args.map(\.0)), 0)
            case .property(let name, let sig, let flags):
                vtable[i] = alarmd_vtable_property(keep(name), keep(sig), propertyTrampoline, flags.raw)
            }
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
    public func export(_ object: BusObject, path: String, interface: String, members: [Member]) throws(BusError) {
        let e = ExportedInterface(object: object, members: members, maxReplyBytes: maxReplyBytes)
        retained.append(e)
        try check(sd_bus_add_object_vtable(handle, nil, path, interface, e.vtable, Unmanaged.passUnretained(e).toOpaque()),
                  "export \(interface) at \(path)")
    }

    /// Exports one interface for every object below `prefix` (logind style): `object.exists`
    /// decides which paths are real, `object.children` enumerates them.
    public func exportFallback(_ object: BusObject, prefix: String, interface: String, members: [Member]) throws(BusError) {
        let e = ExportedInterface(object: object, members: members, maxReplyBytes: maxReplyBytes)
        retained.append(e)
        let userdata = Unmanaged.passUnretained(e).toOpaque()
        try check(sd_bus_add_fallback_vtable(handle, nil, prefix, interface, e.vtable, findTrampoline, userdata),
                  "export \(interface) below \(prefix)")
        try check(sd_bus_add_node_enumerator(handle, nil, prefix, enumeratorTrampoline, userdata), "enumerator \(prefix)")
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
        switch try e.object.handle(call) {
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

private let propertyTrampoline: sd_bus_property_get_t = { _, path, _, property, reply, userdata, retError in
    let e = exported(userdata)
    let name = String(cString: property!)
    guard let value = e.object.property(name, path: String(cString: path!)) else {
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
    guard e.object.exists(path: String(cString: path!), caller: currentCall(bus)) else { return 0 }
    found?.pointee = userdata
    return 1
}

private let enumeratorTrampoline: sd_bus_node_enumerator_t = { bus, _, userdata, nodes, _ in
    let paths = exported(userdata).object.children(caller: currentCall(bus))
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
