// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CIntl
import Glibc
import SystemFiles

/// The session's language through glibc: gettext for the words (the `alarmd` domain, po/), LC_TIME's
/// nl_langinfo for the clock and the week. The locale is the process's (LANG, LC_ALL, LC_MESSAGES,
/// LC_TIME as the user manager, D-Bus activation or the shell passed them: docs/user-guide.md).
public struct GettextLanguage: Language {
    public let domain: String
    public let conventions: LocaleConventions

    /// A domain the caller has bound (`Translation.current` binds alarmd's).
    public init(domain: String, conventions: LocaleConventions) {
        self.domain = domain
        self.conventions = conventions
    }

    public func template(of m: Phrase) -> String {
        // gettext's msgctxt: the context and the id joined by EOT, as pgettext does in C.
        let key = m.context.map { $0 + "\u{4}" + m.id } ?? m.id
        // An untranslated text comes back as the very pointer passed in, which Swift's bridged
        // argument frees on return: the answer is copied while the argument still lives.
        let found: String = key.withCString { k in
            if let plural = m.plural {
                return plural.withCString { p in String(cString: dngettext(domain, k, p, UInt(max(0, m.count)))) }
            }
            return String(cString: dgettext(domain, k))
        }
        // Untranslated: gettext hands back the English it was given (the key, for one).
        if found == key { return m.plural != nil && m.count != 1 ? m.plural! : m.id }
        return found
    }
}

public enum Translation {
    /// alarmd's and alarmctl's domain.
    public static let domain = "alarmd"

    /// The process's language, set up once: `setlocale(LC_ALL, "")` and the domain bound to
    /// `$ALARMD_LOCALEDIR` (a checkout's built catalogs, the tests') or else the `share/locale`
    /// beside the installed binary (`/usr/bin/alarmd` → `/usr/share/locale`).
    public static let current: GettextLanguage = {
        setlocale(LC_ALL, "")
        let directory = processEnvironment()["ALARMD_LOCALEDIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? parentDirectory(parentDirectory(linkTarget("/proc/self/exe") ?? CommandLine.arguments[0])) + "/share/locale"
        bindtextdomain(domain, directory)
        bind_textdomain_codeset(domain, "UTF-8")
        return GettextLanguage(domain: domain, conventions: localeConventions())
    }()

    /// LC_TIME's clock and week; the C and POSIX locales keep what alarmd always wrote (`.c`).
    static func localeConventions() -> LocaleConventions {
        let name = setlocale(LC_TIME, nil).map { String(cString: $0) } ?? "C"
        if name == "C" || name == "POSIX" || name.hasPrefix("C.") { return .c }
        func info(_ item: Int) -> String { String(cString: nl_langinfo(nl_item(item))) }
        let clock = LocaleConventions.clock(timeFormat: info(Int(T_FMT)), am: info(Int(AM_STR)), pm: info(Int(PM_STR)))
        // ABDAY_1 is Sunday; the contract's week starts on Monday.
        let sundayFirst = (0..<7).map { info(Int(ABDAY_1) + $0) }
        let names = Array(sundayFirst[1...]) + [sundayFirst[0]]
        let first = Int(alarmd_first_weekday())   // 1 = Sunday … 7 = Saturday
        let firstDay = (1...7).contains(first) ? Weekday.allCases[(first + 5) % 7] : .monday
        return LocaleConventions(clock: clock, weekdayNames: names, firstWeekday: firstDay)
    }
}
