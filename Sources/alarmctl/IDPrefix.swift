// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Ids as git treats commit ids: any unique prefix names one.
enum IDPrefix {
    enum Match: Equatable { case one(String), none, ambiguous([String]) }

    static func canonical(_ text: String) -> String {
        text.lowercased().replacing("_", with: "-")
    }

    static func match(_ text: String, in ids: [String]) -> Match {
        let p = canonical(text)
        guard !p.isEmpty else { return .none }
        if ids.contains(p) { return .one(p) }
        let hits = ids.filter { $0.hasPrefix(p) }
        switch hits.count {
        case 0: return .none
        case 1: return .one(hits[0])
        default: return .ambiguous(hits)
        }
    }

    /// The shortest prefix of at least 8 characters that no other id shares.
    static func shortest(_ ids: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for id in ids {
            var n = 8
            while n < id.count, ids.contains(where: { $0 != id && $0.hasPrefix(id.prefix(n)) }) { n += 1 }
            out[id] = String(id.prefix(n))
        }
        return out
    }

    static func short(_ id: String) -> String { String(id.prefix(8)) }
}
