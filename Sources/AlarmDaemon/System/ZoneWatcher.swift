import Foundation
import Glibc
import SDBus

/// Follows the local time zone: `/etc/localtime` replaced or relinked (inotify on its directory),
/// or timedated announcing a new `Timezone`. `TZ` in the environment pins the zone instead.
final class ZoneWatcher {
    private let path: String
    private var current: TimeZone
    private let onChange: (TimeZone) -> Void
    private var inotify: Int32 = -1

    init(loop: EventLoop, localtime path: String, onChange: @escaping (TimeZone) -> Void) {
        self.path = path
        self.onChange = onChange
        current = ZoneWatcher.resolve(path)
        guard ProcessInfo.processInfo.environment["TZ"] == nil else {
            Log.info("time zone \(current.identifier) from TZ; not following \(path)")
            return
        }
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        let dir = (path as NSString).deletingLastPathComponent
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB | IN_MODIFY)
        if inotify < 0 || inotify_add_watch(inotify, dir, mask) < 0 {
            Log.warning("cannot watch \(dir) for time-zone changes: \(String(cString: strerror(errno)))")
            return
        }
        _ = try? loop.watchReadable(inotify) { [unowned self] in self.drain() }
    }

    var zone: TimeZone { current }

    /// The zone `/etc/localtime` names: its link target below `zoneinfo/` (the name as chosen, or
    /// the end of a chain of links), else the system's.
    static func resolve(_ path: String) -> TimeZone {
        NSTimeZone.resetSystemTimeZone()
        guard ProcessInfo.processInfo.environment["TZ"] == nil else { return TimeZone.current }
        let first = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
        let last = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        for target in [first, last].compactMap({ $0 }) {
            if let r = target.range(of: "zoneinfo/"), let zone = TimeZone(identifier: String(target[r.upperBound...])) {
                return zone
            }
        }
        return TimeZone.current
    }

    /// Checks again (timedated said so, or the directory changed).
    func recheck() {
        let zone = ZoneWatcher.resolve(path)
        guard zone.identifier != current.identifier else { return }
        Log.info("time zone changed: \(current.identifier) → \(zone.identifier)")
        current = zone
        onChange(zone)
    }

    private func drain() {
        var buf = [UInt8](repeating: 0, count: 4096)
        while read(inotify, &buf, buf.count) > 0 {}
        recheck()
    }
}
