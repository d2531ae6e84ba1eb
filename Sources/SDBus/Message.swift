// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import BusValue
import CSystemd
import Glibc

/// An sd-bus message, reference-counted, with reading and writing of whole `Value`s.
public final class Message {
    public let handle: OpaquePointer

    /// Takes a new reference to `handle`.
    public init(retaining handle: OpaquePointer) {
        self.handle = handle
        sd_bus_message_ref(handle)
    }

    /// Adopts a reference the caller already owns.
    init(adopting handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { sd_bus_message_unref(handle) }

    public var sender: String? { sd_bus_message_get_sender(handle).map { String(cString: $0) } }
    public var member: String? { sd_bus_message_get_member(handle).map { String(cString: $0) } }
    public var interface: String? { sd_bus_message_get_interface(handle).map { String(cString: $0) } }
    public var path: String? { sd_bus_message_get_path(handle).map { String(cString: $0) } }
    public var signature: String { sd_bus_message_get_signature(handle, 1).map { String(cString: $0) } ?? "" }
    public var isMethodError: Bool { sd_bus_message_is_method_error(handle, nil) > 0 }

    public var error: BusError? {
        guard let e = sd_bus_message_get_error(handle), e.pointee.name != nil else { return nil }
        return BusError(e, fallback: -EIO, "error reply")
    }

    /// What the bus driver vouches for about the sender: its PID and its LSM (AppArmor/SELinux)
    /// label, both taken by the kernel when it connected.
    public func senderCredentials() -> (pid: pid_t?, securityLabel: String?) {
        var creds: OpaquePointer?
        let mask = UInt64(SD_BUS_CREDS_PID) | UInt64(SD_BUS_CREDS_SELINUX_CONTEXT)
        guard sd_bus_query_sender_creds(handle, mask, &creds) >= 0, let creds else { return (nil, nil) }
        defer { sd_bus_creds_unref(creds) }
        var pid: pid_t = 0
        var label: UnsafePointer<CChar>?
        let hasPid = sd_bus_creds_get_pid(creds, &pid) >= 0
        let hasLabel = sd_bus_creds_get_selinux_context(creds, &label) >= 0
        return (hasPid ? pid : nil, hasLabel ? label.map { String(cString: $0) } : nil)
    }

    /// Reads a unix fd argument ('h') and returns a duplicate the caller owns.
    public func readUnixFD() throws(BusError) -> Int32 {
        var fd: Int32 = -1
        try check(sd_bus_message_read_basic(handle, CChar(UInt8(ascii: "h")), &fd), "read fd")
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        if copy < 0 { throw BusError(errno: -errno, "dup fd") }
        return copy
    }

    // MARK: reading

    /// Reads every remaining argument.
    public func readAll() throws(BusError) -> [Value] {
        var out: [Value] = []
        while let v = try read() { out.append(v) }
        return out
    }

    /// Reads the next complete value, nil at the end of the current container.
    public func read() throws(BusError) -> Value? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let r = try check(sd_bus_message_peek_type(handle, &type, &contents), "peek")
        if r == 0 { return nil }
        let t = UInt8(bitPattern: type)
        switch t {
        case UInt8(ascii: "a"):
            let inner = String(cString: contents!)
            try check(sd_bus_message_enter_container(handle, type, contents), "enter array")
            var result: Value
            if inner.hasPrefix("{") {
                let body = inner.dropFirst().dropLast()
                let keySig = String(body.prefix(1))
                let valueSig = String(body.dropFirst())
                var entries: [Value.DictEntry] = []
                while try check(sd_bus_message_enter_container(handle, CChar(UInt8(ascii: "e")), String(body)), "enter entry") > 0 {
                    guard let k = try read(), let v = try read() else { throw BusError(errno: -EBADMSG, "dict entry") }
                    try check(sd_bus_message_exit_container(handle), "exit entry")
                    entries.append(.init(k, v))
                }
                result = .dict(key: keySig, value: valueSig, entries)
            } else {
                var items: [Value] = []
                while let v = try read() { items.append(v) }
                result = .array(element: inner, items)
            }
            try check(sd_bus_message_exit_container(handle), "exit array")
            return result
        case UInt8(ascii: "v"):
            try check(sd_bus_message_enter_container(handle, type, contents), "enter variant")
            guard let inner = try read() else { throw BusError(errno: -EBADMSG, "empty variant") }
            try check(sd_bus_message_exit_container(handle), "exit variant")
            return .variant(inner)
        case UInt8(ascii: "r"):
            try check(sd_bus_message_enter_container(handle, type, contents), "enter struct")
            let items = try readAll()
            try check(sd_bus_message_exit_container(handle), "exit struct")
            return .structure(items)
        default:
            return try readBasic(t)
        }
    }

    private func readBasic(_ t: UInt8) throws(BusError) -> Value {
        func get<T: BitwiseCopyable>(_ initial: T) throws(BusError) -> T {
            var v = initial
            try check(sd_bus_message_read_basic(handle, CChar(bitPattern: t), &v), "read '\(Character(UnicodeScalar(t)))'")
            return v
        }
        switch Character(UnicodeScalar(t)) {
        case "y": return .byte(try get(UInt8(0)))
        case "b": return .bool(try get(Int32(0)) != 0)
        case "n": return .int16(try get(Int16(0)))
        case "q": return .uint16(try get(UInt16(0)))
        case "i": return .int32(try get(Int32(0)))
        case "u": return .uint32(try get(UInt32(0)))
        case "x": return .int64(try get(Int64(0)))
        case "t": return .uint64(try get(UInt64(0)))
        case "d": return .double(try get(Double(0)))
        case "h":
            // The message owns what sd-bus read and closes it with the message: the value gets a
            // duplicate of its own, closed when the last copy of the value goes.
            return .unixFD(try UnixFD.duplicate(try get(Int32(-1))))
        case "s", "o", "g":
            let p: UnsafePointer<CChar>? = try get(nil)
            let s = p.map { String(cString: $0) } ?? ""
            return t == UInt8(ascii: "s") ? .string(s) : t == UInt8(ascii: "o") ? .objectPath(s) : .signature(s)
        default:
            throw BusError("org.freedesktop.DBus.Error.InvalidArgs", "values of type '\(Character(UnicodeScalar(t)))' are not accepted")
        }
    }

    // MARK: writing

    public func append(_ values: [Value]) throws(BusError) {
        for v in values { try append(v) }
    }

    public func append(_ value: Value) throws(BusError) {
        func basic<T: BitwiseCopyable>(_ type: Character, _ v: T) throws(BusError) {
            var copy = v
            try check(sd_bus_message_append_basic(handle, CChar(type.asciiValue!), &copy), "append '\(type)'")
        }
        func string(_ type: Character, _ s: String) throws(BusError) {
            let r = s.withCString { sd_bus_message_append_basic(handle, CChar(type.asciiValue!), $0) }
            try check(r, "append string")
        }
        func container(_ type: Character, _ contents: String, _ body: () throws(BusError) -> Void) throws(BusError) {
            try check(sd_bus_message_open_container(handle, CChar(type.asciiValue!), contents), "open '\(type)'")
            try body()
            try check(sd_bus_message_close_container(handle), "close '\(type)'")
        }
        switch value {
        case .byte(let v): try basic("y", v)
        case .bool(let v): try basic("b", Int32(v ? 1 : 0))
        case .int16(let v): try basic("n", v)
        case .uint16(let v): try basic("q", v)
        case .int32(let v): try basic("i", v)
        case .uint32(let v): try basic("u", v)
        case .int64(let v): try basic("x", v)
        case .uint64(let v): try basic("t", v)
        case .double(let v): try basic("d", v)
        case .string(let s): try string("s", BusString.sendable(s))
        case .objectPath(let s): try string("o", s)
        case .signature(let s): try string("g", s)
        case .array(let element, let items):
            try container("a", element) { () throws(BusError) in for i in items { try append(i) } }
        case .dict(let k, let v, let entries):
            try container("a", "{\(k)\(v)}") { () throws(BusError) in
                for e in entries {
                    try container("e", k + v) { () throws(BusError) in
                        try append(e.key)
                        try append(e.value)
                    }
                }
            }
        case .structure(let items):
            try container("r", items.map(\.signature).joined()) { () throws(BusError) in try append(items) }
        case .variant(let inner):
            try container("v", inner.signature) { () throws(BusError) in try append(inner) }
        // sd-bus keeps a duplicate in the message: the value's own stays the value's.
        case .unixFD(let fd): try basic("h", fd.number)
        }
    }

    // MARK: replies

    /// Sends a method return carrying `values`.
    public func reply(_ values: [Value]) throws(BusError) {
        try sendReply { (reply) throws(BusError) in try reply.append(values) }
    }

    /// Sends a method return that `build` fills value by value (with `openContainer`, `append`,
    /// `closeContainer`): a list of thousands can be made one item at a time, each dropped once
    /// appended, so that it exists whole only in the message, never also as values.
    public func reply(building build: (Message) throws(BusError) -> Void) throws(BusError) {
        try sendReply(build)
    }

    /// Opens an array (`a`, its element signature), a struct (`r`), a dict entry (`e`) or a variant (`v`).
    public func openContainer(_ type: Character, _ contents: String) throws(BusError) {
        try check(sd_bus_message_open_container(handle, CChar(type.asciiValue!), contents), "open '\(type)'")
    }

    public func closeContainer() throws(BusError) {
        try check(sd_bus_message_close_container(handle), "close container")
    }

    /// A method return carrying one unix fd (logind's Inhibit, for test peers).
    public func replyUnixFD(_ fd: Int32) throws(BusError) {
        try sendReply { (reply) throws(BusError) in
            var copy = fd
            try check(sd_bus_message_append_basic(reply.handle, CChar(UInt8(ascii: "h")), &copy), "append fd")
        }
    }

    /// Sends an error reply (for calls answered later).
    public func replyError(_ error: BusError) throws(BusError) {
        let safe = error.wireSafe
        var e = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&e) }
        sd_bus_error_set(&e, safe.name, safe.message)
        try check(sd_bus_reply_method_error(handle, &e), "send error reply")
    }

    private func sendReply(_ fill: (Message) throws(BusError) -> Void) throws(BusError) {
        var out: OpaquePointer?
        try check(sd_bus_message_new_method_return(handle, &out), "new reply")
        let reply = Message(adopting: out!)
        try fill(reply)
        try check(sd_bus_send(nil, reply.handle, nil), "send reply")
    }

}
