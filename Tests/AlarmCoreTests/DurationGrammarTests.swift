// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Testing

@Suite struct DurationGrammarTests {
    @Test(arguments: [("30s", 30), ("5m", 300), ("1h30m", 5_400), ("1500", 1_500), ("2d", 172_800),
                      ("1d2h3m4s", 93_784), ("90m", 5_400), ("43830h", 157_788_000), (" 25m ", 1_500)])
    func accepts(_ text: String, _ seconds: UInt64) {
        #expect(DurationGrammar.parse(text) == .success(seconds))
    }

    @Test(arguments: ["0", "0s", "0h0m", "-5", "abc", "1x", "", "   ", "5m30h", "1h1h", "h", "1.5h", "1h 30m", "43831h",
                      "99999999999999999999", "157788001"])
    func refuses(_ text: String) {
        guard case .failure = DurationGrammar.parse(text) else {
            Issue.record("'\(text)' was accepted")
            return
        }
    }

    @Test func saysWhy() {
        #expect(DurationGrammar.parse("0s") == .failure(.zero))
        #expect(DurationGrammar.parse("") == .failure(.empty))
        #expect(DurationGrammar.parse("6000d") == .failure(.tooLong))
        #expect(DurationGrammar.parse("1x") == .failure(.malformed("1x")))
    }
}
