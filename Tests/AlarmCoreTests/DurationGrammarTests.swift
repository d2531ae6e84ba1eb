// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Testing
import TestSupport

@Suite struct DurationGrammarTests {
    /// The grammar's cases, shared with the GNOME Shell extension's and the Plasma applet's tests.
    @Test(arguments: try ClientRules.load().duration.cases)
    func sharedCase(_ c: ClientRules.DurationCase) {
        let got: String
        switch DurationGrammar.parse(c.input) {
        case .success(let seconds): got = "\(seconds) s"
        case .failure(.empty): got = "empty"
        case .failure(.malformed): got = "malformed"
        case .failure(.zero): got = "zero"
        case .failure(.tooLong): got = "tooLong"
        }
        #expect(got == (c.seconds.map { "\($0) s" } ?? c.error), "\(c)")
    }

    @Test func malformedNamesTheTrimmedText() {
        #expect(DurationGrammar.parse(" 1x\t") == .failure(.malformed("1x")))
        #expect(DurationGrammar.parse("5m\n") == .failure(.malformed("5m\n")), "a line end is not trimmed")
    }
}
