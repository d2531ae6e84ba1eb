// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Testing
import TestSupport

@Suite struct AlarmKeyTests {
    @Test func printsAndOrdersAsTheCanonicalId() {
        var rng = SeededRandom.seeded("AlarmKeyTests")
        var keys: [AlarmKey] = []
        for _ in 0..<2_000 {
            let k = AlarmKey(hi: rng.next(), lo: rng.next())
            let uuid = UUID(uuidString: k.string)!
            #expect(k.string == uuid.uuidString.lowercased())
            #expect(AlarmKey(k.string) == k && AlarmKey(uuid.uuidString) == k)
            #expect(AlarmKey(k.string.replacingOccurrences(of: "-", with: "_")) == k, "the object-path form")
            #expect(k.withBytes { AlarmKey(bytes: $0) } == k)
            #expect(k.path == Contract.alarmPathPrefix + "/" + k.string.replacingOccurrences(of: "-", with: "_"))
            #expect(AlarmID.key(fromPath: k.path) == k && AlarmID.path(of: uuid.uuidString) == k.path)
            keys.append(k)
        }
        #expect(keys.sorted().map(\.string) == keys.map(\.string).sorted())
        let made = AlarmKey.random()
        #expect(made.string.dropFirst(14).first == "4" && "89ab".contains(made.string.dropFirst(19).first!), "version 4, RFC variant")
        #expect(AlarmKey(hi: 0x0b6c_2e2a_4f4e_4c41, lo: 0x9d2b_8f0e_8c1c_9a77).path == "/org/alarmd/AlarmManager1/alarm/0b6c2e2a_4f4e_4c41_9d2b_8f0e8c1c9a77")
    }

    @Test func refusesWhatIsNotAUUID() {
        for bad in ["", "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a7", "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a777", "0b6c2e2a4f4e-4c41-9d2b-8f0e8c1c9a77-",
                    "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a7g", "0b6c2e2a+4f4e-4c41-9d2b-8f0e8c1c9a77", "0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9aé",
                    "{b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a7}"] {
            #expect(AlarmKey(bad) == nil, "\(bad)")
            #expect((try? AlarmID.normalize(bad)) == nil)
        }
        #expect(AlarmKey(bytes: UnsafeRawBufferPointer(start: nil, count: 0)) == nil)
        let good = "/org/alarmd/AlarmManager1/alarm/0b6c2e2a_4f4e_4c41_9d2b_8f0e8c1c9a77"
        #expect(AlarmID.key(fromPath: good) != nil)
        for bad in ["", "/org/alarmd/AlarmManager1", "/org/alarmd/AlarmManager1/alarm/", good + "7", String(good.dropLast()),
                    good.replacingOccurrences(of: "/alarm/", with: "/alarn/"), good.replacingOccurrences(of: "0b6c", with: "0bé")] {
            #expect(AlarmID.key(fromPath: bad) == nil, "\(bad)")
        }
    }
}
