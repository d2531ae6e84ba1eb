// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing
import TestSupport

@Suite struct ColorNameTests {
    /// Colour names and hex as a panel draws them, shared with the GNOME Shell extension's and the
    /// Plasma applet's tests.
    @Test(arguments: try ClientRules.load().color.cases)
    func sharedCase(_ c: ClientRules.ColorCase) {
        #expect(ColorName.hex(c.input) == c.hex, "\(c)")
    }

    /// What a panel draws is what alarmd accepts: every colour with a hex is a valid one.
    @Test(arguments: try ClientRules.load().color.cases.filter { $0.hex != nil })
    func drawnColoursAreValid(_ c: ClientRules.ColorCase) {
        #expect(ColorName.isValid(c.input), "\(c)")
    }
}
