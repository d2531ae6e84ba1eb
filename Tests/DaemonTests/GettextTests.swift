// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CIntl
import Foundation
import Gettext
import Glibc
import Testing
import TestSupport

/// glibc's gettext as the shells call it, against catalogs compiled from po/ in this test.
@Suite(.serialized) struct GettextTests {
    /// What no catalog translates comes back as the English, whole, however long and however often:
    /// gettext returns the caller's own pointer then, which must be read before Swift frees it (this
    /// crashed alarmd's consent prompt; under AddressSanitizer a read after the free fails here).
    @Test func untranslatedTextsComeBackWhole() {
        let none = GettextLanguage(domain: "alarmd-no-such-domain", conventions: .c)
        for n in 0..<2_000 {
            let long = String(repeating: "Alarm \(n) ", count: n % 50 + 1)
            #expect(none.say(N_("%s!", long)) == long + "!")
            #expect(none.say(NC_("button", long)) == long)
            #expect(none.say(NP_(long, long + "s", n % 3)) == (n % 3 == 1 ? long : long + "s"))
        }
    }

    /// A catalog compiled from po/de.po: contexts and plurals found as the core marks them.
    @Test func theGermanCatalogAsTheCoreAsksIt() throws {
        let dir = TempDir("alarmd-gettext")
        let out = dir.path + "/de/LC_MESSAGES"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let r = try runCommand("/usr/bin/msgfmt", ["-c", "-o", out + "/alarmd-test.mo", Products.sourceRoot + "/po/de.po"])
        try #require(r.status == 0, "\(r.err)")
        // The process's locale stays C; LANGUAGE chooses the catalog only outside the C locale, so
        // the test asks through a locale that has German (locales-all).
        let previous = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        try #require(setlocale(LC_MESSAGES, "de_DE.UTF-8") != nil, "de_DE.UTF-8 is installed (locales-all)")
        defer { setlocale(LC_MESSAGES, previous) }
        bindtextdomain("alarmd-test", dir.path)
        bind_textdomain_codeset("alarmd-test", "UTF-8")
        let de = GettextLanguage(domain: "alarmd-test", conventions: .c)
        #expect(de.say(NC_("button", "Snooze")) == "Schlummern")
        #expect(de.say(NC_("timer state", "Paused")) == "Pausiert")
        #expect(de.say(NP_("Missed alarm", "Missed alarms", 1)) == "Verpasster Wecker")
        #expect(de.say(NP_("Missed alarm", "Missed alarms", 3)) == "Verpasste Wecker")
        #expect(de.say(N_("Allow “%s” to ring alarms?", "Uhr")) == "Darf „Uhr“ Wecker klingeln lassen?")
        #expect(de.say(N_("Not in any catalog")) == "Not in any catalog")
    }
}
