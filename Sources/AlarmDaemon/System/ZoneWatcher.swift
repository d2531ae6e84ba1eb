// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus
import SystemFiles

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
        do {
            _ = try loop.watchReadable(inotify) { [unowned self] in self.drain() }
        } catch {
            Log.warning("cannot watch for time-zone changes: \(error)")
        }
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
        var wanted = Set(current.files.map(parentDirectory))
        if !current.pinned { wanted.insert(parentDirectory(source.localtime)) }
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
