// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The name a damaged store is kept under: `alarmd.sqlite.broken-20261201T063000Z`, its `-wal`
/// and `-shm` beside it under the same name plus their suffixes, so that `sqlite3` opens the kept
/// pair as it is and renaming all back restores it.
public enum KeptStoreName {
    /// The files SQLite keeps next to a database, which hold part of its data (the WAL, a rollback
    /// journal) or describe it (the WAL index).
    public static let companions = ["-wal", "-shm", "-journal"]

    /// `20261201T063000Z`: UTC, so that the names sort by time whatever the zone.
    public static func stamp(_ usec: UInt64) -> String {
        let t = civil(usec)
        return "\(t.year)\(twoDigits(t.month))\(twoDigits(t.day))T\(twoDigits(t.hour))\(twoDigits(t.minute))\(twoDigits(t.second))Z"
    }

    /// `2026-12-01T06:30:00Z` (ISO 8601, UTC).
    public static func isoTime(_ usec: UInt64) -> String {
        let t = civil(usec)
        return "\(t.year)-\(twoDigits(t.month))-\(twoDigits(t.day))T\(twoDigits(t.hour)):\(twoDigits(t.minute)):\(twoDigits(t.second))Z"
    }

    /// The instant `isoTime` wrote (`2026-12-01T06:30:00Z`); nil for any other text.
    public static func usec(isoTime text: String) -> UInt64? {
        let b = Array(text.utf8)
        guard b.count == 20, b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58, b[19] == 90 else { return nil }
        func number(_ from: Int, _ length: Int) -> Int? {
            var v = 0
            for c in b[from..<from + length] {
                guard (48...57).contains(c) else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2), let h = number(11, 2),
              let mi = number(14, 2), let s = number(17, 2), y >= 1970, (1...12).contains(mo),
              (1...Civil.daysInMonth(Int64(y), mo)).contains(d), h < 24, mi < 60, s < 60 else { return nil }
        let seconds = Civil.days(year: Int64(y), month: mo, day: d) * 86_400 + Int64(h * 3600 + mi * 60 + s)
        return UInt64(seconds) * 1_000_000
    }

    /// The kept name of `store` for `stamp`: the first of `STORE.broken-STAMP`, `…-2`, `…-3`, …
    /// for which neither the name nor any companion name is `taken`, so nothing is ever overwritten.
    public static func path(for store: String, stamp: String, taken: (String) -> Bool) -> String {
        var n = 1
        while true {
            let candidate = store + ".broken-" + stamp + (n == 1 ? "" : "-\(n)")
            if !taken(candidate), !companions.contains(where: { taken(candidate + $0) }) { return candidate }
            n += 1
        }
    }


    /// The UTC calendar fields of a realtime µs instant (the date by `Civil`, exact for every date).
    static func civil(_ usec: UInt64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = Int(usec / 1_000_000)
        let rest = seconds % 86_400
        let date = Civil.date(fromDays: Int64(seconds / 86_400))
        return (Int(date.year), date.month, date.day, rest / 3600, rest / 60 % 60, rest % 60)
    }
}
