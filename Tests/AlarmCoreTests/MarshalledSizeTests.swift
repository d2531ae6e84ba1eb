// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Testing

/// Sizes worked out by hand from the D-Bus specification's marshalling rules.
struct MarshalledSizeTests {
    @Test func basicTypesAndAlignment() {
        #expect(Value.marshalledSize([.byte(1)]) == 1)
        #expect(Value.marshalledSize([.byte(1), .uint32(2)]) == 8, "u aligns to 4")
        #expect(Value.marshalledSize([.byte(1), .uint64(2)]) == 16, "t aligns to 8")
        #expect(Value.marshalledSize([.string("abc")]) == 8, "length, 3 bytes, NUL")
        #expect(Value.marshalledSize([.string("é")]) == 7, "UTF-8 bytes, not characters")
        #expect(Value.marshalledSize([.signature("a{sv}")]) == 7, "one length byte, no alignment")
        #expect(Value.marshalledSize([.bool(true), .int16(1)]) == 6)
    }

    @Test func containers() {
        // a{sv} {"a": <uint32 1>}: length 4, pad to 8, key 4+1+1=6 → 14, signature "u" 3 → 17, pad 20, u → 24.
        #expect(Value.marshalledSize([.vardict([("a", .uint32(1))])]) == 24)
        // An empty array of 8-aligned elements still pads after its length.
        #expect(Value.marshalledSize([.array(element: "t", [])]) == 8)
        #expect(Value.marshalledSize([.array(element: "s", [])]) == 4)
        // (yt): struct aligns to 8, y, pad to 8, t.
        #expect(Value.marshalledSize([.byte(0), .structure([.byte(1), .uint64(2)])]) == 24)
        // as ["ab", "c"]: 4 + (4+2+1=7, pad to 12) + 4+1+1 = 4+7+1+6 = 18.
        #expect(Value.marshalledSize([.strings(["ab", "c"])]) == 18)
    }
}
