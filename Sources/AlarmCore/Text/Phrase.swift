// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// A text for a person (a message, as gettext calls it): the English text is the message id, the `Language` the
/// shell was given says it in the user's language (the `alarmd` domain, po/). The core only builds
/// messages, so that what alarmd says is decided and tested here and translated there.
///
/// Arguments fill the text's `%s` and `%d` in order, or `%1$s`, `%2$s` where a translation reorders
/// them (xgettext marks such texts c-format and `msgfmt -c` holds translators to the same ones).
public struct Phrase: Sendable, Equatable {
    /// gettext's msgctxt: which of two meanings a short word has ("Snooze" the button, not the state).
    public let context: String?
    public let id: String
    /// With a plural, the count chooses the form (gettext's ngettext).
    public let plural: String?
    public let count: Int
    public let arguments: [String]

    /// The text in `template` (the message or a translation of it) with the arguments filled in.
    public func filled(_ template: String) -> String { Self.fill(template, arguments) }

    static func fill(_ template: String, _ arguments: [String]) -> String {
        guard template.contains("%") else { return template }
        var out = "", next = 0
        var chars = template[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "%" else { out.append(c); continue }
            // %N$ picks the Nth argument; else the next one. %% is a percent sign.
            var digits = ""
            var rest = chars
            while let d = rest.first, d.isASCII, d.isNumber { digits.append(d); rest = rest.dropFirst() }
            var index: Int?
            if !digits.isEmpty, rest.first == "$" { index = Int(digits).map { $0 - 1 }; rest = rest.dropFirst() } else { rest = chars }
            guard let conversion = rest.first else { out.append("%"); break }
            switch conversion {
            case "%": out.append("%")
            case "s", "d":
                let i = index ?? next
                if index == nil { next += 1 }
                out += arguments.indices.contains(i) ? arguments[i] : ""
            default:
                out.append("%"); continue
            }
            chars = rest.dropFirst()
        }
        return out
    }
}

// The markers `make pot` hands xgettext as keywords (po/Makefile rules: -kN_ -kNC_:1c,2 -kNP_:1,2):
// a text is translatable exactly when it is written inside one of them.

/// A message: `N_("Stop")`, `N_("Snoozed until %s", time)`.
public func N_(_ id: String, _ arguments: String...) -> Phrase {
    Phrase(context: nil, id: id, plural: nil, count: 1, arguments: arguments)
}

/// A message with a context that tells two meanings of the same English apart.
public func NC_(_ context: String, _ id: String, _ arguments: String...) -> Phrase {
    Phrase(context: context, id: id, plural: nil, count: 1, arguments: arguments)
}

/// A message with plural forms: `NP_("%d alarm missed", "%d alarms missed", n, String(n))`.
public func NP_(_ singular: String, _ plural: String, _ count: Int, _ arguments: String...) -> Phrase {
    Phrase(context: nil, id: singular, plural: plural, count: count, arguments: arguments)
}
