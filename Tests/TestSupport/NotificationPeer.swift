// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import SDBus

/// The test notification server (`alarmd-test-peer --notifications`) on a test bus, and the test's hands on it:
/// what it was asked to show, and the user's clicks.
public final class NotificationPeer {
    private let process: ChildProcess
    private let control: Client

    /// `vendor`: what `GetServerInformation` says (`Phosh`: as Phosh's server does).
    public init(bus: TestBus, vendor: String? = nil) throws {
        process = try ChildProcess(Products.directory + "/alarmd-test-peer",
                                   ["--bus-address", bus.address, "--notifications"] + (vendor.map { ["--vendor", $0] } ?? []),
                                   stderrPath: bus.dir.path + "/notifier.log")
        control = try Client(address: bus.address)
        let deadline = Date().addingTimeInterval(10)
        while !control.nameHasOwner("org.freedesktop.Notifications") {
            if Date() > deadline { throw TestFailure("the test notification server did not start") }
            usleep(10_000)
        }
    }

    deinit { process.stop() }

    /// Every notification shown so far (replacements update their entry).
    public func notifications() throws(BusError) -> [[String: Value]] {
        let r = try control.bus.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                     "org.alarmd.TestNotifier", "Notifications")
        guard case .array(_, let items)? = r.first else { return [] }
        return items.map { Dictionary(($0.vardictEntries ?? []), uniquingKeysWith: { a, _ in a }) }
    }

    /// Waits until `predicate` holds for the notifications, up to `timeout` seconds; `pump` lets
    /// clients with pending calls dispatch while waiting.
    public func waitFor(timeout: Double = 5, pump: [Client] = [], _ predicate: ([[String: Value]]) -> Bool) -> [[String: Value]]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let n = try? notifications(), predicate(n) { return n }
            if pump.isEmpty { usleep(10_000) } else { for c in pump { c.pump(0.005) } }
        }
        return nil
    }

    public func invoke(_ id: UInt32, _ action: String) throws(BusError) {
        try control.bus.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.alarmd.TestNotifier",
                             "Invoke", [.uint32(id), .string(action)])
    }

    public func dismiss(_ id: UInt32) throws(BusError) {
        try control.bus.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.alarmd.TestNotifier",
                             "Dismiss", [.uint32(id)])
    }
}

extension Dictionary where Key == String, Value == AlarmCore.Value {
    public func string(_ key: String) -> String { self[key]?.unwrapped.stringValue ?? "" }
    public func uint32(_ key: String) -> UInt32 {
        if case .uint32(let v)? = self[key]?.unwrapped { return v }
        return 0
    }
}
