// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc

/// A bus connection of its own making (SASL EXTERNAL, Hello, then raw method calls), for what sd-bus
/// will not send. dbus-daemon validates every message and disconnects a peer that sends an invalid
/// one: `call` then reports `.disconnected`, and the fuzzer connects again.
final class RawConnection {
    enum Outcome {
        case reply
        case error(String)
        case disconnected
        case timedOut
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var serial: UInt32 = 1
    private(set) var alive = true

    init(address: String) throws(WireError) {
        guard let spec = address.split(separator: ";").first(where: { $0.hasPrefix("unix:") }) else {
            throw WireError("no unix address in '\(address)'")
        }
        var pairs: [String: String] = [:]
        for kv in spec.dropFirst(5).split(separator: ",") {
            let p = kv.split(separator: "=", maxSplits: 1)
            if p.count == 2 { pairs[String(p[0])] = String(p[1]).removingPercentEncoding ?? String(p[1]) }
        }
        var path: [UInt8]
        if let p = pairs["path"] {
            path = Array(p.utf8)
        } else if let a = pairs["abstract"] {
            path = [0] + Array(a.utf8)
        } else {
            throw WireError("unsupported address '\(spec)'")
        }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WireError("socket: \(String(cString: strerror(errno)))") }
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: sa.sun_path)
        guard path.count < capacity else { close(fd); throw WireError("socket path too long") }
        withUnsafeMutableBytes(of: &sa.sun_path) { raw in
            for (i, b) in path.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let r = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        guard r == 0 else { close(fd); throw WireError("connect: \(String(cString: strerror(errno)))") }
        try authenticate()
        let hello = WireMessage.methodCall(serial: nextSerial(), destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                           interface: "org.freedesktop.DBus", member: "Hello", signature: "", body: [])
        switch send(hello, serial: serial - 1, timeout: 10) {
        case .reply: break
        case let other: close(fd); throw WireError("Hello: \(other)")
        }
    }

    deinit { close(fd) }

    private func nextSerial() -> UInt32 {
        defer { serial &+= 1; if serial == 0 { serial = 1 } }
        return serial
    }

    private func authenticate() throws(WireError) {
        let uid = String(getuid())
        let hex = uid.utf8.map { String(format: "%02x", $0) }.joined()
        guard write(Array("\0AUTH EXTERNAL \(hex)\r\n".utf8)) else { throw WireError("auth: write") }
        var line: [UInt8] = []
        while !(line.count >= 2 && line.suffix(2) == [13, 10]) {
            var b: UInt8 = 0
            guard Glibc.read(fd, &b, 1) == 1 else { throw WireError("auth: the bus hung up") }
            line.append(b)
        }
        guard line.starts(with: Array("OK ".utf8)) else { throw WireError("auth: \(String(decoding: line, as: UTF8.self))") }
        guard write(Array("BEGIN\r\n".utf8)) else { throw WireError("auth: write") }
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        var at = 0
        while at < bytes.count {
            let n = bytes[at...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            at += n
        }
        return true
    }

    /// Sends a method call and waits for its answer (other messages, such as NameAcquired, are skipped).
    func call(destination: String, path: String, interface: String?, member: String, signature: String, body: [UInt8],
              timeout: Double) -> Outcome {
        let s = nextSerial()
        let m = WireMessage.methodCall(serial: s, destination: destination, path: path, interface: interface, member: member,
                                       signature: signature, body: body)
        return send(m, serial: s, timeout: timeout)
    }

    private func send(_ message: [UInt8], serial s: UInt32, timeout: Double) -> Outcome {
        guard alive, write(message) else { alive = false; return .disconnected }
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            do throws(WireError) {
                while let h = try WireMessage.parse(buffer) {
                    buffer.removeFirst(h.length)
                    guard h.replySerial == s else { continue }
                    if h.type == 3 { return .error(h.errorName ?? "?") }
                    if h.type == 2 { return .reply }
                }
            } catch {
                alive = false
                return .disconnected
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return .timedOut }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(min(left, 1) * 1000)) <= 0 { continue }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { alive = false; return .disconnected }
            buffer += chunk[0..<n]
        }
    }
}
