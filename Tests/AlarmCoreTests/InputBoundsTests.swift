// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing

/// Limits that hold however big the input: refused with the key named, by work that does not grow
/// with the input, and with an error message that does not carry it back.
@Suite struct InputBoundsTests {
    @Test func appIdsLongerThan255BytesAreRefused() throws {
        let longest = "org." + String(repeating: "a", count: 251)
        #expect(try AppID.validate(longest) == longest)
        let err = expectError { () throws(AlarmError) in _ = try AppID.validate(longest + "a") }
        #expect(err?.invalidKey == "app_id")
        // Found while building the bus fuzzer: split into parts first, 100 MiB of dots took alarmd 18 s and 4.5 GB.
        let dots = expectError { () throws(AlarmError) in _ = try AppID.validate(String(repeating: ".", count: 4 << 20)) }
        #expect(dots?.invalidKey == "app_id" && dots!.message.utf8.count < 200)
    }

    @Test func textLimitsCountCharactersNotBytes() throws {
        let (e, _) = makeEngine()
        let accents = String(repeating: "é", count: 256)
        #expect(try e.schedule(["duration": .uint32(60), "title": .string(accents)]).config.title == accents)
        for (key, limit) in [("title", 256), ("subtitle", 256), ("compact_label", 4), ("completion_message", 512)] {
            let over = expectError { () throws(AlarmError) in
                _ = try e.schedule(["duration": .uint32(60), key: .string(String(repeating: "e\u{301}", count: limit + 1))])
            }
            #expect(over?.invalidKey == key, "\(key)")
            #expect(over?.message.contains("at most \(limit) characters, got \(limit + 1)") == true, "\(over?.message ?? "")")
        }
        let huge = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60), "title": .string(String(repeating: "x", count: 1 << 20))]) }
        #expect(huge?.message == "title: must be at most 256 characters, got 1048576 bytes")
        #expect(e.count == 1)
    }

    @Test func errorMessagesDoNotCarryHugeInputBack() {
        let (e, _) = makeEngine()
        let key = String(repeating: "k", count: 1 << 20)
        let unknown = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60), key: .string("x")]) }
        #expect(unknown?.invalidKey == key, "the key is named")
        #expect((unknown?.message.utf8.count ?? .max) <= AlarmError.maxMessageBytes + 3)
        let day = expectError { () throws(AlarmError) in _ = try e.schedule(["hour": .uint32(7), "weekdays": .strings([String(repeating: "monday", count: 100_000)])]) }
        #expect(day?.invalidKey == "weekdays" && (day?.message.utf8.count ?? .max) <= AlarmError.maxMessageBytes + 3)
        let short = AlarmError.invalidArgument(key: "title", reason: "must not be empty")
        #expect(short.message == "title: must not be empty", "short messages are untouched")
    }

    @Test func metadataOfThousandsOfKeysIsRefusedWithoutEncodingIt() throws {
        let (e, _) = makeEngine()
        let big = Value.vardict((0..<10_000).map { ("k\($0)", .bool(true)) })
        let err = expectError { () throws(AlarmError) in _ = try e.schedule(["duration": .uint32(60), "metadata": big]) }
        #expect(err?.invalidKey == "metadata")
        // Just under 4 KiB as JSON is still kept.
        let near = Value.vardict([("blob", .string(String(repeating: "z", count: 3_900)))])
        #expect(try e.schedule(["duration": .uint32(60), "metadata": near]).config.metadata == near)
    }
}
