// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import CSystemd
import Glibc

/// A D-Bus error: a name such as `org.alarmd.Error.NotFound` and a human message.
public struct BusError: Error, CustomStringConvertible, Sendable {
    public var name: String
    public var message: String

    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    /// From a negative errno returned by sd-bus, named by sd-bus's own table (`InvalidArgs`,
    /// `NoMemory`, … or `System.Error.EBADF`): a name built from the number itself would not be a
    /// valid error name, and dbus-daemon disconnects a peer that sends one.
    public init(errno code: Int32, _ what: String) {
        var e = sd_bus_error(name: nil, message: nil, _need_free: 0)
        sd_bus_error_set_errno(&e, code)
        defer { sd_bus_error_free(&e) }
        self.name = e.name.map { String(cString: $0) } ?? BusError.failed
        self.message = "\(what): \(String(cString: strerror(abs(code))))"
    }

    init(_ e: UnsafePointer<sd_bus_error>, fallback code: Int32, _ what: String) {
        if let n = e.pointee.name {
            self.init(String(cString: n), e.pointee.message.map { String(cString: $0) } ?? "")
        } else {
            self.init(errno: code, what)
        }
    }

    public var description: String { "\(name): \(message)" }

    public static let failed = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"

    /// What may leave the process: a valid error name (else `Failed`) and a message sd-bus will send.
    /// An error reply sd-bus cannot build is never sent, and the caller would wait for nothing.
    var wireSafe: BusError {
        BusError(BusError.isValidName(name) ? name : BusError.failed, BusString.sendable(message))
    }

    /// The specification's rules for error names (those of interface names): at most 255 bytes, at
    /// least two dot-separated elements of `[A-Za-z0-9_]`, none empty or starting with a digit.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        var elements = 0, elementLength = 0
        for b in bytes {
            switch b {
            case UInt8(ascii: "."):
                if elementLength == 0 { return false }
                elements += 1
                elementLength = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if elementLength == 0 { return false }
                elementLength += 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"):
                elementLength += 1
            default:
                return false
            }
        }
        return elementLength > 0 && elements >= 1
    }
}

/// Sets `ret` from `error` as sd-bus handlers do, never with a name or message that cannot be sent.
func setError(_ ret: UnsafeMutablePointer<sd_bus_error>?, _ error: BusError) -> Int32 {
    let safe = error.wireSafe
    return sd_bus_error_set(ret, safe.name, safe.message)
}

@discardableResult
func check(_ r: Int32, _ what: @autoclosure () -> String) throws(BusError) -> Int32 {
    if r < 0 { throw BusError(errno: r, what()) }
    return r
}
