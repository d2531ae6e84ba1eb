// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc
import SDBus
import Testing

/// dbus-daemon disconnects a peer that sends an invalid error name, and sd-bus refuses to send
/// strings with noncharacters: what the SDBus layer puts on the wire must avoid both.
struct BusErrorTests {
    @Test func errnoErrorsCarryValidNames() {
        for code in Int32(1)...Int32(133) {
            let e = BusError(errno: -code, "op")
            #expect(BusError.isValidName(e.name), "errno \(code) → \(e.name)")
        }
        #expect(BusError(errno: -EINVAL, "x").name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(BusError(errno: -ENOMEM, "x").name == "org.freedesktop.DBus.Error.NoMemory")
    }

    @Test func errorNameRules() {
        for valid in ["org.alarmd.Error.NotFound", "a.b", "A_1.b2", "System.Error.EBADF"] {
            #expect(BusError.isValidName(valid), "\(valid)")
        }
        for invalid in ["System.Error.-22", "noDots", "", ".a.b", "a..b", "a.b.", "a.1b", "a.b-c", "a.bé",
                        String(repeating: "a.", count: 128) + "a"] {
            #expect(!BusError.isValidName(invalid), "\(invalid)")
        }
    }

    @Test func sendableStringsReplaceWhatSDBusRefuses() {
        #expect(BusString.sendable("plain ascii") == "plain ascii")
        #expect(BusString.sendable("Grüße ⏰") == "Grüße ⏰")
        #expect(BusString.sendable("a\(nc(0xFDDC))b") == "a\u{FFFD}b")
        #expect(BusString.sendable("\(nc(0xFFFE))\(nc(0x10FFFF))\(nc(0x1FFFF))") == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(BusString.sendable("nul\u{0}here") == "nul\u{FFFD}here")
        #expect(BusString.sendable("\u{FDCF}\u{FDF0}\u{FFFD}") == "\u{FDCF}\u{FDF0}\u{FFFD}", "neighbours of the ranges stay")
    }
}

/// A noncharacter as a string: Swift refuses them in literals.
private func nc(_ v: UInt32) -> String { String(Unicode.Scalar(v)!) }
