// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc
@testable import SDBus
import Testing

/// The environment block of a child `EventLoop.spawn` starts with variables set (the lock-screen
/// alert's display): alarmd's own block (here one the test makes), those names replaced, every other
/// entry as it was. (LockScreenAlertTests sees the child's and alarmd's environments in /proc.)
@Suite struct SpawnEnvironmentTests {
    @Test func theChildsBlockKeepsEveryOtherEntryByteForByte() {
        // One value that is not UTF-8 (Latin-1 "é"), one entry that is replaced, one that only shares a prefix.
        let entries: [[UInt8]] = [Array("HOME=/home/ada".utf8), Array("NAME=caf".utf8) + [0xE9],
                                  Array("WAYLAND_DISPLAY=".utf8), Array("WAYLAND_DISPLAYS=x".utf8)]
        var base: [UnsafeMutablePointer<CChar>?] = entries.map { bytes in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
            p[bytes.count] = 0
            return p
        } + [nil]
        defer { base.forEach { $0?.deallocate() } }
        let block = base.withUnsafeMutableBufferPointer { buffer in
            EventLoop.environment(UnsafePointer(buffer.baseAddress!), setting: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":1"])
        }
        defer { block.forEach { free($0) } }
        #expect(block.last! == nil, "NULL-terminated")
        let out = block.dropLast().map { p in Array(UnsafeBufferPointer(start: p!, count: strlen(p!))).map { UInt8(bitPattern: $0) } }
        #expect(out == [entries[0], entries[1], entries[3], Array("DISPLAY=:1".utf8), Array("WAYLAND_DISPLAY=wayland-0".utf8)])
    }
}
