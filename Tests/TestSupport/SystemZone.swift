// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation

public extension Zone {
    /// A zone of the system's database (/usr/share/zoneinfo), for tests: traps when it is missing.
    static func system(_ name: String) -> Zone {
        guard let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name),
              let zone = try? Zone.parse(tzif: [UInt8](data), name: name) else { fatalError("no zone \(name) in /usr/share/zoneinfo") }
        return zone
    }

    /// `t` as ISO 8601 with the zone's offset, as `ISO8601DateFormatter` writes it (`Z` for UTC).
    func iso8601(_ t: USec) -> String {
        let seconds = Int64(t / usecPerSecond)
        let l = localTime(at: seconds), offset = Int(self.offset(at: seconds))
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let zone = offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + two(abs(offset) / 3_600) + ":" + two(abs(offset) / 60 % 60)
        return "\(l.year)-\(two(l.month))-\(two(l.day))T\(two(l.hour)):\(two(l.minute)):\(two(l.second))" + zone
    }
}
