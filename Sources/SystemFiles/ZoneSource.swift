// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc

/// Where the local zone's rules come from, found the way glibc finds them: `TZ` when set (`:Name` or
/// `Name` below `TZDIR`, default /usr/share/zoneinfo; an absolute file; else a POSIX rule string;
/// empty is UTC), otherwise the TZif file `/etc/localtime` is (or links to), named by its link target
/// below `zoneinfo/`. Only reading happens here: the rules are parsed by `Zone.parse`, in the core.
public struct ZoneSource: Sendable {
    public let localtime: String
    public let environment: [String: String]
    /// Told why a zone could not be had (the daemon logs it; a client may ignore it).
    private let report: @Sendable (String) -> Void

    /// The local zone as this process's environment and the machine have it.
    public static var local: ZoneSource { ZoneSource(environment: processEnvironment()) }

    public init(localtime: String = "/etc/localtime", environment: [String: String],
                report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.localtime = localtime
        self.environment = environment
        self.report = report
    }

    /// The zone, the files to follow for it (none for UTC by default or a rule string), whether `TZ` chose it.
    public struct Loaded: Sendable {
        public var zone: Zone
        public var files: [String]
        public var pinned: Bool
    }

    public var database: String {
        guard let dir = environment["TZDIR"], !dir.isEmpty else { return "/usr/share/zoneinfo" }
        return dir.hasSuffix("/") ? String(dir.dropLast()) : dir
    }

    /// nil when the file is there but cannot be read or is not a zone (keep what we have).
    public func load() -> Loaded? {
        if let tz = environment["TZ"] {
            var spec = Substring(tz)
            if spec.hasPrefix(":") { spec = spec.dropFirst() }
            if spec.isEmpty { return Loaded(zone: .utc, files: [], pinned: true) }
            let path = spec.hasPrefix("/") ? String(spec) : database + "/" + spec
            if access(path, F_OK) == 0 {
                let name = spec.hasPrefix("/") ? (name(forTarget: path) ?? String(spec)) : String(spec)
                return read(path, name: name).map { Loaded(zone: $0, files: [path] + Self.targets(of: path).suffix(1), pinned: true) }
            }
            if let zone = try? Zone.posix(String(spec)) { return Loaded(zone: zone, files: [], pinned: true) }
            report("TZ=\(tz) names no zone file below \(database) and is no POSIX TZ rule: UTC")
            return Loaded(zone: .utc, files: [], pinned: true)
        }
        guard access(localtime, F_OK) == 0 else { return Loaded(zone: .utc, files: [], pinned: false) }   // as glibc
        let targets = Self.targets(of: localtime)
        let name = targets.lazy.compactMap(name(forTarget:)).first ?? localtime
        // The file at the end of the links is followed; a link between (timedated's business) is not.
        return read(localtime, name: name).map { Loaded(zone: $0, files: Array(targets.suffix(1)), pinned: false) }
    }

    /// What start-up begins with: the zone found, else UTC (a damaged or unreadable file leaves
    /// nothing to keep yet).
    public func initial() -> Loaded {
        load() ?? Loaded(zone: .utc, files: [], pinned: environment["TZ"] != nil)
    }

    /// The name of a zone file: its path below the database (or below any `zoneinfo/`).
    public func name(forTarget target: String) -> String? {
        if target.hasPrefix(database + "/") { return String(target.dropFirst(database.count + 1)) }
        if let r = target.firstRange(of: "zoneinfo/") { return String(target[r.upperBound...]) }
        return nil
    }

    /// The first link target of `path` (made absolute) and the file at the end of its chain of links.
    public static func targets(of path: String) -> [String] {
        var out: [String] = []
        if let first = linkTarget(path) {
            out.append(first.hasPrefix("/") ? first : parentDirectory(path) + "/" + first)
        }
        if let real = realpath(path, nil) {
            out.append(String(cString: real))
            free(real)
        }
        return out
    }

    private func read(_ path: String, name: String) -> Zone? {
        guard let data = readFile(path, limit: 4 << 20) else {
            report("cannot read the zone file \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        do { return try Zone.parse(tzif: data, name: name) } catch {
            report("\(path) is not a zone file: \(error)")
            return nil
        }
    }
}
