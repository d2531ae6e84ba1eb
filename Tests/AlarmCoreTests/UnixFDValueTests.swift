// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Testing

/// A file descriptor as a D-Bus value ('h'): owned by its box, closed once, never kept.
@Suite struct UnixFDValueTests {
    let fd = UnixFD(owning: 99, release: { _ in })

    /// Metadata is kept: a descriptor, which lasts only as long as the call, is refused there, and
    /// a key the engine does not know is refused whatever its value.
    @Test func theEngineKeepsNoDescriptor() {
        let (e, _) = makeEngine()
        let err = expectError { () throws(AlarmError) in
            _ = try e.schedule(["duration": .uint32(60), "metadata": .vardict([("sound", .unixFD(fd))])])
        }
        #expect(err == .invalidArgument(key: "metadata", reason: "must not hold file descriptors ('h')"))
        let unknown = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60), "file": .unixFD(fd)]) }
        #expect(unknown?.invalidKey == "file")
        #expect(e.count == 0)
    }

    @Test func aDescriptorIsClosedOnceWhenItsLastValueGoes() {
        final class Count: @unchecked Sendable { var closed: [Int32] = [] }
        let count = Count()
        do {
            let v = Value.unixFD(UnixFD(owning: 7, release: { count.closed.append($0) }))
            let copies = [v, v, .variant(v), .vardict([("f", v)])]
            #expect(copies.allSatisfy(\.containsUnixFD) && count.closed.isEmpty)
            #expect(v.signature == "h" && Value.marshalledSize([.int32(0), .byte(1), v]) == 12)
        }
        #expect(count.closed == [7])
    }
}
