import AlarmCore
import Foundation

/// What a person types for alarms, parsed before anything is sent, so a typo is a usage error that
/// names itself rather than a round trip.
public enum CommandInput {
    public enum When: Equatable, Sendable {
        /// Local wall clock (`07:30`): follows the time zone, repeats on `--days`.
        case wallClock(hour: Int, minute: Int)
        /// An absolute instant in Unix seconds (`2026-12-24 18:00`, read in the local zone).
        case fixed(Int64)
    }

    /// `HH:MM`, or `YYYY-MM-DD HH:MM` (also with `T`) in `zone`.
    public static func time(_ text: String, zone: TimeZone = .current) -> When? {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let (h, m) = hourMinute(s) { return .wallClock(hour: h, minute: m) }
        let parts = s.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        guard parts.count == 2, let (h, m) = hourMinute(parts[1]) else { return nil }
        let ymd = parts[0].split(separator: "-").map { Int($0) }
        guard ymd.count == 3, let y = ymd[0], let mo = ymd[1], let d = ymd[2], parts[0].count == 10 else { return nil }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let comps = DateComponents(year: y, month: mo, day: d, hour: h, minute: m)
        // Reject dates Calendar would roll over (February 30th).
        guard let date = cal.date(from: comps), cal.component(.day, from: date) == d, cal.component(.month, from: date) == mo
        else { return nil }
        return .fixed(Int64(date.timeIntervalSince1970))
    }

    private static func hourMinute(_ s: String) -> (Int, Int)? {
        let p = s.split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 2, (1...2).contains(p[0].count), p[1].count == 2,
              let h = Int(p[0]), let m = Int(p[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
        return (h, m)
    }

    /// `mon-fri`, `weekdays`, `weekends`, `daily`, `mon,wed,fri`, full names, ranges that wrap
    /// (`fri-mon`); `never` is no repeat. nil when anything is not understood.
    public static func days(_ text: String) -> [Weekday]? {
        let s = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch s {
        case "daily", "everyday", "every-day", "all": return Weekday.allCases
        case "weekdays", "workdays": return Array(Weekday.allCases.prefix(5))
        case "weekends", "weekend": return [.saturday, .sunday]
        case "never", "none", "once": return []
        default: break
        }
        var out: Set<Weekday> = []
        for item in s.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { day(String($0)) }
            switch ends.count {
            case 1:
                guard let d = ends[0] else { return nil }
                out.insert(d)
            case 2:
                guard let a = ends[0], let b = ends[1] else { return nil }
                let all = Weekday.allCases
                var i = all.firstIndex(of: a)!
                while true {
                    out.insert(all[i])
                    if all[i] == b { break }
                    i = (i + 1) % all.count
                }
            default: return nil
            }
        }
        return out.isEmpty ? nil : out.sorted()
    }

    private static func day(_ s: String) -> Weekday? {
        guard s.count >= 2 else { return nil }
        return Weekday.allCases.first { $0.rawValue.hasPrefix(s) && (s.count >= 3 || ["mo", "tu", "we", "th", "fr", "sa", "su"].contains(s)) }
    }

    /// A duration in the daemon's grammar (`90`, `30s`, `5m`, `1h30m`, `1d12h`), in seconds.
    public static func duration(_ text: String) -> UInt64? {
        if case .success(let s) = DurationGrammar.parse(text) { return s }
        return nil
    }

    /// A human form of a duration for default titles: "25 min", "1 h 30 min", "45 s".
    public static func durationText(_ seconds: UInt64) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        var parts: [String] = []
        if h > 0 { parts.append("\(h) h") }
        if m > 0 { parts.append("\(m) min") }
        if s > 0 || parts.isEmpty { parts.append("\(s) s") }
        return parts.joined(separator: " ")
    }
}
