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

    /// From a negative errno returned by sd-bus.
    public init(errno code: Int32, _ what: String) {
        self.name = "System.Error.\(code)"
        self.message = "\(what): \(String(cString: strerror(-code)))"
    }

    init(_ e: UnsafePointer<sd_bus_error>, fallback code: Int32, _ what: String) {
        if let n = e.pointee.name {
            self.init(String(cString: n), e.pointee.message.map { String(cString: $0) } ?? "")
        } else {
            self.init(errno: code, what)
        }
    }

    public var description: String { "\(name): \(message)" }
}

@discardableResult
func check(_ r: Int32, _ what: @autoclosure () -> String) throws(BusError) -> Int32 {
    if r < 0 { throw BusError(errno: r, what()) }
    return r
}
