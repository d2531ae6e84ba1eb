// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSystemd
import Foundation
import Glibc
import SDBus
import TestSupport

// Figures 3 and 4 share one daemon filled step by step to 1k, 10k and 100k far-future alarms.
// Figure 4, at each size: Schedule and Cancel latency (a few hundred synchronous calls each at that
// size), resident memory, the store on disk, reading every alarm back (GetAlarms, and all pages of
// GetAlarmsPage), and the time from spawning alarmd after `kill -9` to its name being owned;
// ratios against the 1k values, and an empty store's idle RSS as baseline. Memory at each size:
// right after filling, the peak of each phase (filling, GetAlarms, paging, the restart that loads
// everything; VmHWM, reset between phases), and once idle (the committer hands freed memory back
// a second after the last call). The empty alarmd's idle RSS and binary size are set beside
// alarmd-floor's: sd-bus, SQLite and the static Swift runtime with FoundationEssentials, nothing more. Figure 3, at 10k:
// wake-ups and syscalls of the (restarted) daemon while nobody calls it, against an alarmd with an
// empty store on its own bus measured in the same window.

struct StoreBytes: Codable {
    var db: Int
    var wal: Int
    var shm: Int
    var db_and_wal: Int { db + wal }
}

struct SizeRow: Codable {
    var target: Int
    var size: Int
    var fill_s: Double
    var fill_per_s: Double
    var fill_limit_hits: Int
    var fill_errors: Int
    var fill_first_error: String?
    var schedule: Latency
    var cancel: Latency
    /// After the reads (GetAlarms, pages) and the Schedule/Cancel samples.
    var rss_kib: Int
    var rss_anon_kib: Int
    var rss_after_fill_kib: Int
    /// The most resident at any moment of filling, of one GetAlarms, of reading every page, of the
    /// restart that loads every alarm.
    var peak_fill_kib: Int
    var peak_get_alarms_kib: Int
    var peak_pages_kib: Int
    /// Reading every page of the contract's default size (max_count 0: 1,000), as alarmd's clients do.
    var peak_default_pages_kib: Int
    var default_pages: Int
    var peak_restart_kib: Int
    /// Once idle after the reads.
    var rss_idle_kib: Int
    /// The most at any moment of what clients do: filling, a GetAlarms, paging as alarmd's clients page, loading.
    var peak_kib: Int { max(peak_fill_kib, peak_get_alarms_kib, peak_default_pages_kib, peak_restart_kib) }
    var rss_after_restart_kib: Int
    var rss_after_restart_anon_kib: Int
    var store: StoreBytes
    var get_alarms_us: Double?
    var get_alarms_error: String?
    var get_alarms_count: Int
    var pages_us: Double
    var pages: Int
    var pages_count: Int
    var restart_s: Double
    /// SIGTERM to exit, with everything loaded (#12 item 5), its exit code and what WAL it left.
    var stop_s: Double
    var stop_exit_code: Int32?
    var wal_after_stop: Int
}

struct Figure4: Codable {
    var empty_rss_kib: Int
    var empty_rss_anon_kib: Int
    /// alarmd-floor beside it on the same bus: the baseline for idle memory and binary size.
    var floor_rss_kib: Int?
    var floor_rss_anon_kib: Int?
    /// Bytes of alarmd, alarmctl (beside it) and alarmd-floor as built for the run.
    var binary_bytes: [String: Int]
    var empty_start_s: Double
    var fill_workers: Int
    var fill_in_flight_per_worker: Int
    var fill_budget_s: Double
    var fill_total_s: Double
    var reached_all_sizes: Bool
    var rows: [SizeRow]
    var targets: [Target]
}

struct IdleCounts: Codable {
    var threads: Int
    var voluntary_switches: Int
    var involuntary_switches: Int
    /// Times a thread of the process was put on a CPU (schedstat): every wake-up.
    var wakeups: Int
    var cpu_ms: Double
    var wakeups_per_min: Double
    /// From `strace -f -c` attached for its own window; nil when strace is missing or not allowed.
    var syscalls: Int?
    var syscalls_per_min: Double?
    var syscalls_by_name: [String: Int]
    var rss_kib: Int
}

struct Figure3: Codable {
    var alarms_pending: Int
    var window_s: Double
    var strace_window_s: Double
    var pending: IdleCounts
    var empty: IdleCounts
    var targets: [Target]
}

/// Counts the elements of the array at the message's read position (without decoding them).
func countArray(_ m: Message, _ element: String) -> Int {
    guard sd_bus_message_enter_container(m.handle, CChar(UInt8(ascii: "a")), element) > 0 else { return 0 }
    var n = 0
    while sd_bus_message_skip(m.handle, element) > 0 { n += 1 }
    sd_bus_message_exit_container(m.handle)
    return n
}

final class ScaleRun {
    let cfg: BenchConfig
    let work: String
    let bus: BenchBus
    let daemon: BenchDaemon
    var size = 0
    var fillSeconds = 0.0
    var rng: SeededRandom

    init(_ cfg: BenchConfig, work: String) throws {
        self.cfg = cfg
        self.work = work
        rng = SeededRandom(seed: cfg.seed &+ 4)
        bus = try BenchBus()
        daemon = try BenchDaemon(cfg, bus: bus, stateDir: work + "/fig4")
    }

    /// Schedules alarms until there are `target`, or the fill budget (filling time only, all sizes
    /// together) runs out.
    func fill(to target: Int) throws -> FillRun {
        let deadline = realUSec() + UInt64(max(0, cfg.fillBudget - fillSeconds) * 1e6)
        let r = try runFillWorkers(address: bus.address, count: target - size, workers: cfg.fillWorkers, depth: cfg.fillDepth,
                                   seed: cfg.seed &+ UInt64(target), tag: "\(target)", deadline: deadline, dir: work)
        size += r.done
        fillSeconds += r.seconds
        return r
    }

    /// Synchronous Schedule, then Cancel of the same alarms: the size is the same after.
    func samples() throws -> (schedule: Latency, cancel: Latency) {
        var ids: [String] = []
        var sl: [Double] = [], cl: [Double] = []
        for i in 0..<cfg.samples {
            let o = try daemon.control.sync("Schedule", farFutureAlarm("sample \(i)", &rng))
            if let e = o.error { throw BenchError("Schedule: \(e)") }
            guard case .objectPath(let p)? = try o.message.readAll().first, let id = AlarmID.id(fromPath: p) else {
                throw BenchError("Schedule gave no path")
            }
            sl.append(o.latency)
            ids.append(id)
        }
        for id in ids {
            let o = try daemon.control.sync("Cancel", [.string(id)])
            if let e = o.error { throw BenchError("Cancel: \(e)") }
            cl.append(o.latency)
        }
        return (Latency(sl), Latency(cl))
    }

    func getAlarms() throws -> (us: Double?, error: String?, count: Int) {
        let o = try daemon.control.sync("GetAlarms")
        if let e = o.error { return (nil, e.name, 0) }
        return (o.latency, nil, countArray(o.message, "a{sv}"))
    }

    /// Every page of `size` alarms (0: the contract's default, 1,000, which alarmd's clients ask for).
    func pages(size: Int) throws -> (us: Double, pages: Int, count: Int) {
        let t0 = monoUSec()
        var after = "", pages = 0, count = 0
        repeat {
            let o = try daemon.control.sync("GetAlarmsPage", [.string(after), .uint32(UInt32(size))])
            if let e = o.error { throw BenchError("GetAlarmsPage: \(e)") }
            count += countArray(o.message, "a{sv}")
            guard case .string(let next)? = try o.message.read() else { throw BenchError("GetAlarmsPage: no next_after_id") }
            after = next
            pages += 1
        } while !after.isEmpty
        return (Double(monoUSec() - t0), pages, count)
    }
}

/// Attaches `strace -f -c` for `seconds`; nil when strace is not there or may not attach.
final class SyscallCount {
    let child: Child?
    let out: String
    let err: String

    init(pid: pid_t, dir: String, label: String) {
        out = "\(dir)/strace-\(label).out"
        err = "\(dir)/strace-\(label).err"
        child = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")
            ? try? Child("/usr/bin/strace", ["-f", "-c", "-o", out, "-p", String(pid)], stderrPath: err) : nil
    }

    /// Waits until strace says it attached.
    func attached() throws -> Bool {
        guard let child else { return false }
        let deadline = monoUSec() + 5_000_000
        while !procFile(err).contains("attached") {
            if child.exited || monoUSec() > deadline { return false }
            try pause(0.01)
        }
        return true
    }

    /// Detaches (SIGINT) and reads the summary: calls per syscall.
    func finish() -> [String: Int]? {
        guard let child else { return nil }
        child.signal(SIGINT)
        child.wait(timeout: 10)
        guard procFile(err).contains("attached") else { return nil }
        var calls: [String: Int] = [:]
        for line in procFile(out).split(separator: "\n") {
            let t = line.split(separator: " ")
            guard t.count >= 5, let name = t.last, name != "total", let n = Int(t[3]) else { continue }
            calls[String(name)] = n
        }
        return calls
    }
}

/// Idle counts of two daemons over the same windows: scheduler counters first (nothing attached),
/// then syscalls with strace attached.
func measureIdle(_ a: pid_t, _ b: pid_t, window: Double, dir: String) throws -> (IdleCounts, IdleCounts) {
    let a0 = SchedCounters.read(a), b0 = SchedCounters.read(b)
    try pause(window)
    let a1 = SchedCounters.read(a) - a0, b1 = SchedCounters.read(b) - b0
    let sa = SyscallCount(pid: a, dir: dir, label: "pending"), sb = SyscallCount(pid: b, dir: dir, label: "empty")
    let attached = try sa.attached() && sb.attached()
    if attached { try pause(window) }
    let ca = sa.finish(), cb = sb.finish()
    func counts(_ c: SchedCounters, _ calls: [String: Int]?, _ pid: pid_t) -> IdleCounts {
        let total = attached ? calls.map { $0.values.reduce(0, +) } : nil
        return IdleCounts(threads: c.threads, voluntary_switches: c.voluntary, involuntary_switches: c.involuntary, wakeups: c.runs,
                          cpu_ms: Double(c.cpuNs) / 1e6, wakeups_per_min: Double(c.runs) * 60 / window,
                          syscalls: total, syscalls_per_min: total.map { Double($0) * 60 / window },
                          syscalls_by_name: attached ? calls ?? [:] : [:], rss_kib: rssKiB(pid))
    }
    return (counts(a1, ca, a), counts(b1, cb, b))
}

func figures34(_ cfg: BenchConfig, work: String, want3: Bool, want4: Bool) throws -> (Figure3?, Figure4?) {
    let run = try ScaleRun(cfg, work: work)
    defer { run.daemon.stop() }
    say("")
    say("── Figure 4: alarmd at \(cfg.sizes.map { grouped($0) }.joined(separator: ", ")) far-future alarms (ratios against the first size) ──")
    let emptyStart = try run.daemon.start()
    let floor = try FloorProbe(beside: cfg.alarmd, bus: run.bus, control: run.daemon.control, dir: work + "/floor")
    try pause(cfg.tiny ? 0.2 : 1.5)
    let (emptyRSS, emptyAnon, _) = rssBreakdown(run.daemon.pid)
    let floorRSS = floor.map { rssBreakdown($0.pid) }
    floor?.stop()
    say("empty store: start \(us(emptyStart * 1e6)), idle RSS \(mib(emptyRSS)) of which anonymous \(mib(emptyAnon))"
        + (floorRSS.map { " — alarmd-floor \(mib($0.total)) (anonymous \(mib($0.anon))): \(ratio(Double(emptyRSS), Double($0.total)))" }
           ?? " — no alarmd-floor beside alarmd to compare with"))
    var binaries: [String: Int] = [:]
    let directory = (cfg.alarmd as NSString).deletingLastPathComponent
    for (name, path) in [("alarmd", cfg.alarmd), ("alarmctl", directory + "/alarmctl"), ("alarmd-floor", directory + "/alarmd-floor")] {
        if let n = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int { binaries[name] = n }
    }
    let floorBytes = binaries["alarmd-floor"].map(Double.init)
    say("binaries: " + ["alarmd", "alarmctl", "alarmd-floor"].compactMap { name in
        binaries[name].map { n in "\(name) \(bytes(n))" + (floorBytes.map { name == "alarmd-floor" ? "" : " \(ratio(Double(n), $0))" } ?? "") }
    }.joined(separator: ", "))
    var rows: [SizeRow] = []
    var fig3: Figure3?
    let sizes = want4 ? cfg.sizes : Array(cfg.sizes.prefix(2))
    for target in sizes {
        resetPeakRSS(run.daemon.pid)
        let f = try run.fill(to: target)
        let rssAfterFill = rssKiB(run.daemon.pid), peakFill = peakRSSKiB(run.daemon.pid)
        let partial = run.size < target
        say(String(format: "filled to %@ in %.1f s (%.0f Schedule/s from %d processes × %d in flight%@)%@",
                   grouped(run.size), f.seconds, Double(f.done) / max(f.seconds, 1e-9), cfg.fillWorkers, cfg.fillDepth,
                   f.limitHits > 0 ? ", \(f.limitHits) LimitReached resent on new connections" : "",
                   partial ? " — the fill budget (\(Int(cfg.fillBudget)) s) ran out before \(grouped(target))" : ""))
        if f.errors > 0 { say("fill errors: \(f.errors), first: \(f.firstError)") }
        let (schedule, cancel) = try run.samples()
        resetPeakRSS(run.daemon.pid)
        let ga = try run.getAlarms()
        let peakGetAlarms = peakRSSKiB(run.daemon.pid)
        resetPeakRSS(run.daemon.pid)
        let pg = try run.pages(size: cfg.pageSize)
        let peakPages = peakRSSKiB(run.daemon.pid)
        resetPeakRSS(run.daemon.pid)
        let defaultPages = try run.pages(size: 0)
        let peakDefaultPages = peakRSSKiB(run.daemon.pid)
        let rss = rssBreakdown(run.daemon.pid)
        try pause(cfg.tiny ? 0.2 : 2)
        let rssIdle = rssKiB(run.daemon.pid)
        let b = run.daemon.storeBytes
        try run.daemon.kill9()
        let restart = try run.daemon.start()
        let rssRestart = rssBreakdown(run.daemon.pid)
        let peakRestart = peakRSSKiB(run.daemon.pid)
        // A clean stop with everything loaded and the WAL left by the kill: alarmd closes the store,
        // which checkpoints the log into the database.
        let stop = try run.daemon.terminate()
        let walAfterStop = fileSize(run.daemon.storePath + "-wal")
        try run.daemon.start()
        rows.append(SizeRow(target: target, size: run.size, fill_s: f.seconds, fill_per_s: Double(f.done) / max(f.seconds, 1e-9),
                            fill_limit_hits: f.limitHits, fill_errors: f.errors, fill_first_error: f.firstError.isEmpty ? nil : f.firstError,
                            schedule: schedule, cancel: cancel, rss_kib: rss.total, rss_anon_kib: rss.anon,
                            rss_after_fill_kib: rssAfterFill, peak_fill_kib: peakFill, peak_get_alarms_kib: peakGetAlarms,
                            peak_pages_kib: peakPages, peak_default_pages_kib: peakDefaultPages,
                            default_pages: defaultPages.pages, peak_restart_kib: peakRestart, rss_idle_kib: rssIdle,
                            rss_after_restart_kib: rssRestart.total, rss_after_restart_anon_kib: rssRestart.anon,
                            store: StoreBytes(db: b.db, wal: b.wal, shm: b.shm), get_alarms_us: ga.us, get_alarms_error: ga.error,
                            get_alarms_count: ga.count, pages_us: pg.us, pages: pg.pages, pages_count: pg.count, restart_s: restart,
                            stop_s: stop.seconds, stop_exit_code: stop.exitCode, wal_after_stop: walAfterStop))
        if want3 && target == cfg.sizes[1] {
            fig3 = try figure3(cfg, work: work, pending: run.daemon, size: run.size)
            if want4 {
                say("")
                say("── Figure 4 (continued) ──")
            }
        }
        if partial { break }
    }
    guard want4 else { return (fig3, nil) }

    let base = rows[0]
    var table: [[String]] = []
    func add(_ name: String, _ f: (SizeRow) -> Double, _ fmt: (Double) -> String) {
        table.append([name] + rows.map { r in "\(fmt(f(r))) \(r.size == base.size ? "" : ratio(f(r), f(base)))" })
    }
    add("Schedule p50", { $0.schedule.p50_us }, us)
    add("Schedule p99", { $0.schedule.p99_us }, us)
    add("Cancel p50", { $0.cancel.p50_us }, us)
    add("Cancel p99", { $0.cancel.p99_us }, us)
    add("RSS after filling", { Double($0.rss_after_fill_kib) }, { mib(Int($0)) })
    add("  peak while filling", { Double($0.peak_fill_kib) }, { mib(Int($0)) })
    add("  peak in GetAlarms", { Double($0.peak_get_alarms_kib) }, { mib(Int($0)) })
    add("  peak reading pages of 1,000", { Double($0.peak_default_pages_kib) }, { mib(Int($0)) })
    add("  peak reading pages of \(grouped(cfg.pageSize))", { Double($0.peak_pages_kib) }, { mib(Int($0)) })
    add("RSS after the reads", { Double($0.rss_kib) }, { mib(Int($0)) })
    add("  anonymous", { Double($0.rss_anon_kib) }, { mib(Int($0)) })
    add("RSS once idle", { Double($0.rss_idle_kib) }, { mib(Int($0)) })
    add("  peak loading at restart", { Double($0.peak_restart_kib) }, { mib(Int($0)) })
    add("RSS after restart", { Double($0.rss_after_restart_kib) }, { mib(Int($0)) })
    add("  anonymous", { Double($0.rss_after_restart_anon_kib) }, { mib(Int($0)) })
    add("store (sqlite + wal)", { Double($0.store.db_and_wal) }, { bytes(Int($0)) })
    table.append(["GetAlarms"] + rows.map { r in
        r.get_alarms_us.map { v in "\(us(v)) \(r.size == base.size ? "" : base.get_alarms_us.map { b in ratio(v, b) } ?? "")" }
            ?? (r.get_alarms_error?.split(separator: ".").last.map(String.init) ?? "error")
    })
    add("GetAlarmsPage, all pages", { $0.pages_us }, us)
    add("  per alarm", { $0.pages_us / Double(max($0.pages_count, 1)) }, { String(format: "%.1f µs", $0) })
    add("restart after kill -9", { $0.restart_s * 1e6 }, us)
    add("stop on SIGTERM", { $0.stop_s * 1e6 }, us)
    say("")
    printTable(["alarms"] + rows.map { r in grouped(r.size) + (r.size < r.target ? " (of \(grouped(r.target)))" : "") }, table)
    say("pages of \(grouped(cfg.pageSize)): " + rows.map { "\($0.pages) for \(grouped($0.pages_count))" }.joined(separator: ", ")
        + "; GetAlarms returned " + rows.map { $0.get_alarms_error == nil ? grouped($0.get_alarms_count) : "an error" }.joined(separator: ", "))
    say("stop on SIGTERM: after the restart, all alarms loaded; exit code " + rows.map { $0.stop_exit_code.map(String.init) ?? "none (killed)" }.joined(separator: ", ")
        + "; WAL left after the stop " + rows.map { bytes($0.wal_after_stop) }.joined(separator: ", ") + " (0 B: closed cleanly, the log folded into the database)")
    say("store files: " + rows.map { "\(bytes($0.store.db)) + wal \(bytes($0.store.wal)) + shm \(bytes($0.store.shm))" }.joined(separator: "; "))
    say(String(format: "baseline: empty store idle RSS %@ (anonymous %@, the rest mapped libraries), start %@; filling took %.1f s in all",
               mib(emptyRSS), mib(emptyAnon), us(emptyStart * 1e6), run.fillSeconds))

    let last = rows[rows.count - 1]
    let lastName = grouped(last.size) + (last.size < last.target ? " (short of \(grouped(last.target)))" : "")
    var targets = [
        Target("RSS ≤ 48 MiB at any moment at \(grouped(cfg.sizes[2])) (filling, GetAlarms, paging by 1,000 as clients do, loading)",
               value: Double(max(last.peak_kib, last.rss_after_restart_kib)) / 1024, limit: 48, unit: "MiB",
               note: "peaks \(mib(last.peak_fill_kib)) filling, \(mib(last.peak_get_alarms_kib)) in GetAlarms"
                   + (last.get_alarms_error == nil ? "" : " (refused)")
                   + ", \(mib(last.peak_default_pages_kib)) paging by 1,000, \(mib(last.peak_restart_kib)) loading; \(mib(last.rss_idle_kib)) once idle, at \(lastName)"
                   + " (pages of \(grouped(cfg.pageSize)), the most a page may hold: \(mib(last.peak_pages_kib)))"),
        Target("Schedule p99 ≤ 2 × its \(grouped(base.size)) value", value: last.schedule.p99_us, limit: 2 * base.schedule.p99_us, unit: "µs",
               note: "\(us(last.schedule.p99_us)) at \(lastName) vs \(us(base.schedule.p99_us)) (\(ratio(last.schedule.p99_us, base.schedule.p99_us)))"),
        Target("Cancel p99 ≤ 2 × its \(grouped(base.size)) value", value: last.cancel.p99_us, limit: 2 * base.cancel.p99_us, unit: "µs",
               note: "\(us(last.cancel.p99_us)) at \(lastName) vs \(us(base.cancel.p99_us)) (\(ratio(last.cancel.p99_us, base.cancel.p99_us)))"),
        Target("restart ≤ 1 s at \(grouped(cfg.sizes[2]))", value: last.restart_s, limit: 1, unit: "s", note: "\(us(last.restart_s * 1e6)) at \(lastName)"),
        Target("SIGTERM ends alarmd well under 1 s (≤ 0.25 s) at \(grouped(cfg.sizes[2])), exit code 0",
               value: last.stop_exit_code == 0 ? last.stop_s : .infinity, limit: 0.25, unit: "s",
               note: "\(us(last.stop_s * 1e6)) at \(lastName), exit code \(last.stop_exit_code.map(String.init) ?? "none")"),
        Target("idle empty-store RSS ≤ 12 MiB", value: Double(emptyRSS) / 1024, limit: 12, unit: "MiB",
               note: "\(mib(emptyRSS)), of which anonymous \(mib(emptyAnon))"
                   + (floorRSS.map { "; alarmd-floor \(mib($0.total)) (\(ratio(Double(emptyRSS), Double($0.total))))" } ?? "")),
    ]
    if last.size < last.target {
        targets.append(Target("filled to \(grouped(last.target)) within the fill budget", value: Double(last.size), limit: Double(last.target),
                              unit: "alarms", atMost: false, note: "\(grouped(last.size)) in \(Int(cfg.fillBudget)) s"))
    }
    printTargets(targets, tiny: cfg.tiny)
    let fig4 = Figure4(empty_rss_kib: emptyRSS, empty_rss_anon_kib: emptyAnon, floor_rss_kib: floorRSS?.total,
                       floor_rss_anon_kib: floorRSS?.anon, binary_bytes: binaries, empty_start_s: emptyStart, fill_workers: cfg.fillWorkers,
                       fill_in_flight_per_worker: cfg.fillDepth, fill_budget_s: cfg.fillBudget, fill_total_s: run.fillSeconds,
                       reached_all_sizes: last.size >= last.target && rows.count == cfg.sizes.count, rows: rows, targets: targets)
    return (fig3, fig4)
}

func figure3(_ cfg: BenchConfig, work: String, pending: BenchDaemon, size: Int) throws -> Figure3 {
    say("")
    say("── Figure 3: idle with \(grouped(size)) pending alarms vs an empty store (same windows of \(cfg.idleWindow) s) ──")
    let bus = try BenchBus()
    let empty = try BenchDaemon(cfg, bus: bus, stateDir: work + "/fig3-empty")
    defer { empty.stop() }
    try empty.start()
    // Both just started (the pending one after kill -9); let start-up work finish.
    try pause(cfg.tiny ? 0.2 : 2)
    let (p, e) = try measureIdle(pending.pid, empty.pid, window: cfg.idleWindow, dir: work)
    func rate(_ v: Double?) -> String { v.map { String(format: "%.1f", $0) } ?? "—" }
    func top(_ c: IdleCounts) -> String {
        c.syscalls_by_name.sorted { $0.value > $1.value }.prefix(4).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
    printTable(["daemon", "threads", "wake-ups", "/min", "× base", "syscalls", "/min", "× base", "CPU", "RSS", "syscalls seen"], [
        ["empty store (baseline)", "\(e.threads)", "\(e.wakeups)", rate(e.wakeups_per_min), "×1", e.syscalls.map(String.init) ?? "—",
         rate(e.syscalls_per_min), "×1", String(format: "%.1f ms", e.cpu_ms), mib(e.rss_kib), top(e)],
        ["\(grouped(size)) pending", "\(p.threads)", "\(p.wakeups)", rate(p.wakeups_per_min),
         e.wakeups > 0 ? ratio(Double(p.wakeups), Double(e.wakeups)) : (p.wakeups == 0 ? "=" : "—"),
         p.syscalls.map(String.init) ?? "—", rate(p.syscalls_per_min),
         (e.syscalls ?? 0) > 0 ? ratio(Double(p.syscalls ?? 0), Double(e.syscalls ?? 0)) : (p.syscalls == 0 ? "=" : "—"),
         String(format: "%.1f ms", p.cpu_ms), mib(p.rss_kib), top(p)],
    ])
    say("wake-ups: times a thread was put on a CPU (/proc/PID/task/*/schedstat), \(cfg.idleWindow) s with nothing attached; "
        + "syscalls: strace -f -c attached for the next \(cfg.idleWindow) s (its attach and detach included)")
    let targets = [
        Target("0 wake-ups per minute with \(grouped(size)) pending", value: p.wakeups_per_min, limit: 0, unit: "/min",
               note: "\(rate(p.wakeups_per_min))/min (empty store: \(rate(e.wakeups_per_min))/min)"),
        // Attaching strace interrupts the daemon's epoll_wait once: sd-event calls gettid() and waits again.
        // Any sd-event daemon shows it, so the empty store's count (the baseline) is what is allowed.
        Target("0 syscalls per minute with \(grouped(size)) pending, beyond the empty store's", value: p.syscalls_per_min.map { $0 - (e.syscalls_per_min ?? 0) } ?? .nan,
               limit: 0, unit: "/min",
               note: p.syscalls == nil ? "not measured (strace missing or not allowed)"
                   : "\(rate(p.syscalls_per_min))/min (empty store: \(rate(e.syscalls_per_min))/min; strace's attach costs one gettid per thread)"),
    ]
    printTargets(targets, tiny: cfg.tiny)
    return Figure3(alarms_pending: size, window_s: cfg.idleWindow, strace_window_s: cfg.idleWindow, pending: p, empty: e, targets: targets)
}

/// alarmd-floor (tools/bench/Floor) on the run's bus, up once it answers Ping; nil when it was not
/// built beside the alarmd measured.
final class FloorProbe {
    let child: Child
    var pid: pid_t { child.pid }

    init?(beside alarmd: String, bus: BenchBus, control: Pipeline, dir: String) throws {
        let path = (alarmd as NSString).deletingLastPathComponent + "/alarmd-floor"
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        child = try Child(path, ["--bus-address", bus.address, "--state-dir", dir], stderrPath: dir + "/floor.log")
        let deadline = monoUSec() + 30_000_000
        func answers() -> Bool {
            guard let o = try? control.sync("Ping", interface: "org.alarmd.Floor1", destination: "org.alarmd.Floor1",
                                            path: "/org/alarmd/Floor1", timeout: 5) else { return false }
            return o.error == nil
        }
        while !answers() {
            if child.exited || monoUSec() > deadline { throw BenchError("alarmd-floor did not answer:\n" + tail(of: dir + "/floor.log")) }
            try pause(0.05)
        }
    }

    func stop() {
        child.signal(SIGTERM)
        child.wait(timeout: 10)
    }
}
