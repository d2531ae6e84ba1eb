import AlarmCore
import Foundation
import Glibc
import SDBus

/// Where the local zone's rules come from, found the way glibc finds them: `TZ` when set (`:Name` or
/// `Name` below `TZDIR`, default /usr/share/zoneinfo; an absolute file; else a POSIX rule string;
/// empty is UTC), otherwise the TZif file `/etc/localtime` is (or links to), named by its link target
/// below `zoneinfo/`. Only reading happens here: the rules are parsed by `Zone.parse`, in the core.
struct ZoneSource {
    let localtime: String
    let environment: [String: String]

    /// The zone, the files to follow for it (none for UTC by default or a rule string), whether `TZ` chose it.
    struct Loaded {
        var zone: Zone
        var files: [String]
        var pinned: Bool
    }

    var database: String {
        guard let dir = environment["TZDIR"], !dir.isEmpty else { return "/usr/share/zoneinfo" }
        return dir.hasSuffix("/") ? String(dir.dropLast()) : dir
    }

    /// nil when the file is there but cannot be read or is not a zone (keep what we have).
    func load() -> Loaded? {
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
            Log.warning("TZ=\(tz) names no zone file below \(database) and is no POSIX TZ rule: UTC")
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
    func initial() -> Loaded {
        load() ?? Loaded(zone: .utc, files: [], pinned: environment["TZ"] != nil)
    }

    /// The name of a zone file: its path below the database (or below any `zoneinfo/`).
    func name(forTarget target: String) -> String? {
        if target.hasPrefix(database + "/") { return String(target.dropFirst(database.count + 1)) }
        if let r = target.range(of: "zoneinfo/") { return String(target[r.upperBound...]) }
        return nil
    }

    /// The first link target of `path` (made absolute) and the file at the end of its chain of links.
    static func targets(of path: String) -> [String] {
        var out: [String] = []
        if let first = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            out.append(first.hasPrefix("/") ? first : (path as NSString).deletingLastPathComponent + "/" + first)
        }
        if let real = realpath(path, nil) {
            out.append(String(cString: real))
            free(real)
        }
        return out
    }

    private func read(_ path: String, name: String) -> Zone? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            Log.warning("cannot read the zone file \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: 4 << 20)) ?? Data()
        do { return try Zone.parse(tzif: [UInt8](data), name: name) } catch {
            Log.warning("\(path) is not a zone file: \(error)")
            return nil
        }
    }
}

/// Follows the local time zone: `/etc/localtime` replaced or relinked (inotify on its directory),
/// timedated announcing a new `Timezone`, and the zone's own file replaced or rewritten (inotify on
/// the directory of the file, as dpkg renames a new one over it on a tzdata upgrade). `TZ` in the
/// environment pins the zone's name; its file, if it names one, is still followed.
final class ZoneWatcher {
    private let source: ZoneSource
    private var current: ZoneSource.Loaded
    private let onChange: (Zone) -> Void
    private var inotify: Int32 = -1
    private var watches: [String: Int32] = [:]

    /// Follows `source` from `current`, the zone the engine started with (read once, at start-up).
    init(loop: EventLoop, source: ZoneSource, current: ZoneSource.Loaded, onChange: @escaping (Zone) -> Void) {
        self.source = source
        self.current = current
        self.onChange = onChange
        if current.pinned { Log.info("time zone \(current.zone.name) from TZ; not following \(source.localtime)") }
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else {
            Log.warning("cannot watch for time-zone changes: \(String(cString: strerror(errno)))")
            return
        }
        updateWatches()
        _ = try? loop.watchReadable(inotify) { [unowned self] in self.drain() }
    }

    var zone: Zone { current.zone }

    /// Checks again (timedated said so, or a watched directory changed): a new name or new rules.
    func recheck() {
        guard let loaded = source.load() else { return }
        let old = current.zone
        current = loaded
        updateWatches()
        if loaded.zone.name != old.name {
            Log.info("time zone changed: \(old.name) → \(loaded.zone.name)")
        } else if !loaded.zone.hasSameRules(as: old) {
            Log.info("time zone \(old.name): its rules changed (\(loaded.files.last ?? source.localtime) reloaded)")
        } else {
            return
        }
        onChange(loaded.zone)
    }

    /// The directories of /etc/localtime (unless `TZ` pins the zone) and of the zone's files.
    private func updateWatches() {
        var wanted = Set(current.files.map { ($0 as NSString).deletingLastPathComponent })
        if !current.pinned { wanted.insert((source.localtime as NSString).deletingLastPathComponent) }
        for (dir, wd) in watches where !wanted.contains(dir) {
            inotify_rm_watch(inotify, wd)
            watches[dir] = nil
        }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB | IN_MODIFY)
        for dir in wanted.sorted() where watches[dir] == nil {
            let wd = inotify_add_watch(inotify, dir, mask)
            if wd < 0 {
                Log.warning("cannot watch \(dir) for time-zone changes: \(String(cString: strerror(errno)))")
            } else {
                watches[dir] = wd
            }
        }
    }

    private func drain() {
        var buf = [UInt8](repeating: 0, count: 4096)
        while read(inotify, &buf, buf.count) > 0 {}
        recheck()
    }
}
