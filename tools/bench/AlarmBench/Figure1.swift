// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import TestSupport

// Figure 1: Schedule throughput and latency from 1 and from 16 client processes, against
// org.freedesktop.DBus.Peer.Ping to alarmd measured the same way (same processes, same window,
// same calls in flight): Ping is one bus round trip to alarmd and no work, so the ratio is what a
// durable Schedule costs on top of the bus. A second alarmd keeps its store in RAM (tmpfs, where
// fsync returns at once) and takes the same Schedule load: the figure that remains there is what
// the bus and alarmd's CPU allow with the disk out of the way, the floor of the durable figure.
// alarmd's and dbus-daemon's CPU time in each window say which process the load is waiting on.

struct CallFigures: Codable {
    var calls: Int
    var calls_per_s: Double
    var latency: Latency
    var errors: Int
    var limit_hits: Int
    var first_error: String?

    /// CPU alarmd and dbus-daemon used in the window, as a share of one core, and alarmd's CPU per call.
    var alarmd_cpu_share: Double
    var dbus_cpu_share: Double
    var alarmd_cpu_us_per_call: Double

    /// The client processes' CPU per call, and the three parties' (clients, dbus-daemon, alarmd)
    /// together: when they saturate the cores, calls/s is the cores divided by that.
    var clients_cpu_us_per_call: Double
    var all_cpu_us_per_call: Double
    /// The whole machine's busy share in the window (other work on a shared machine included).
    var machine_busy_share: Double

    init(_ r: CallRun, alarmd: SchedCounters, dbus: SchedCounters, machine: MachineCPU) {
        calls = r.calls
        machine_busy_share = machine.busyShare
        let n = Double(max(r.calls, 1))
        clients_cpu_us_per_call = Double(r.clientCPUUSec) / n
        all_cpu_us_per_call = (Double(r.clientCPUUSec) + Double(alarmd.cpuNs + dbus.cpuNs) / 1e3) / n
        alarmd_cpu_share = Double(alarmd.cpuNs) / (r.seconds * 1e9)
        dbus_cpu_share = Double(dbus.cpuNs) / (r.seconds * 1e9)
        alarmd_cpu_us_per_call = r.calls > 0 ? Double(alarmd.cpuNs) / 1e3 / Double(r.calls) : .nan
        calls_per_s = r.perSecond
        latency = Latency(r.latencies)
        errors = r.errors
        limit_hits = r.limitHits
        first_error = r.firstError.isEmpty ? nil : r.firstError
    }
}

struct Figure1: Codable {
    struct Row: Codable {
        var clients: Int
        var in_flight_per_client: Int
        var ping: CallFigures
        var schedule: CallFigures
        /// The same Schedule load on an alarmd whose store is in RAM: the floor without the disk.
        var schedule_ram: CallFigures?
        /// Schedule calls/s ÷ Ping calls/s.
        var ratio: Double
        var ratio_ram: Double?
        var target: Target
    }

    var window_s: Double
    var rows: [Row] = []
    var alarms_at_end = 0
}

func figure1(_ cfg: BenchConfig, work: String) throws -> Figure1 {
    say("")
    say("── Figure 1: Schedule calls/s vs Peer.Ping to alarmd (same clients, same \(cfg.callWindow) s window) ──")
    let bus = try BenchBus()
    let daemon = try BenchDaemon(cfg, bus: bus, stateDir: work + "/fig1")
    defer { daemon.stop() }
    try daemon.start()
    // The in-RAM twin, on a bus of its own (both take alarmd's name).
    let ramDir = ramDirectory()
    let ramBus = try ramDir.map { _ in try BenchBus() }
    let ram = try ramDir.flatMap { dir in try ramBus.map { try BenchDaemon(cfg, bus: $0, stateDir: dir.path + "/fig1") } }
    defer { ram?.stop() }
    try ram?.start()
    func measured(_ d: BenchDaemon, _ b: BenchBus, _ run: () throws -> CallRun) throws -> CallFigures {
        let a0 = SchedCounters.read(d.pid), b0 = SchedCounters.read(b.bus.pid), m0 = MachineCPU.read()
        let r = try run()
        return CallFigures(r, alarmd: SchedCounters.read(d.pid) - a0, dbus: SchedCounters.read(b.bus.pid) - b0,
                           machine: MachineCPU.read() - m0)
    }
    var fig = Figure1(window_s: cfg.callWindow)
    // Sync: each client waits for each reply (latency = one call); pipelined: several in flight.
    let cases: [(clients: Int, depth: Int, target: Double)] = [(1, 1, 0.33), (cfg.manyClients, 1, 0.5), (1, cfg.pipelineDepth, 0.33)]
    for (i, c) in cases.enumerated() {
        let seed = cfg.seed &+ UInt64(i) &* 1_000
        func calls(_ member: String, on b: BenchBus) throws -> CallRun {
            try runCallWorkers(address: b.address, member: member, clients: c.clients, seconds: cfg.callWindow,
                               depth: c.depth, seed: seed, dir: work)
        }
        let ping = try measured(daemon, bus) { try calls("Ping", on: bus) }
        let schedule = try measured(daemon, bus) { try calls("Schedule", on: bus) }
        var scheduleRAM: CallFigures?
        if let ram, let ramBus { scheduleRAM = try measured(ram, ramBus) { try calls("Schedule", on: ramBus) } }
        let r = ping.calls_per_s > 0 ? schedule.calls_per_s / ping.calls_per_s : .nan
        let what = "Schedule/Ping calls/s, \(c.clients) client\(c.clients == 1 ? "" : "s")\(c.depth > 1 ? ", \(c.depth) in flight" : "") ≥ \(c.target)×"
        fig.rows.append(.init(clients: c.clients, in_flight_per_client: c.depth, ping: ping, schedule: schedule,
                              schedule_ram: scheduleRAM, ratio: r,
                              ratio_ram: scheduleRAM.map { ping.calls_per_s > 0 ? $0.calls_per_s / ping.calls_per_s : .nan },
                              target: Target(what, value: r, limit: c.target, unit: "×", atMost: false,
                                             note: String(format: "%.3f×", r))))
    }
    fig.alarms_at_end = fig.rows.reduce(0) { $0 + $1.schedule.calls }

    var rows: [[String]] = []
    for r in fig.rows {
        let who = "\(r.clients) × \(r.in_flight_per_client == 1 ? "sync" : "\(r.in_flight_per_client) in flight")"
        var lines = [("Ping (baseline)", r.ping), ("Schedule", r.schedule)]
        if let ram = r.schedule_ram { lines.append(("Schedule, RAM store", ram)) }
        for (name, f) in lines {
            let isPing = name.hasPrefix("Ping")
            rows.append([isPing ? who : "", name, String(format: "%.0f", f.calls_per_s), us(f.latency.p50_us), us(f.latency.p99_us),
                         isPing ? "×1" : ratio(f.calls_per_s, r.ping.calls_per_s),
                         String(format: "%.0f %%", f.alarmd_cpu_share * 100), String(format: "%.0f µs", f.alarmd_cpu_us_per_call),
                         String(format: "%.0f %%", f.dbus_cpu_share * 100),
                         String(format: "%.0f µs", f.clients_cpu_us_per_call), String(format: "%.0f µs", f.all_cpu_us_per_call),
                         String(format: "%.0f %%", f.machine_busy_share * 100),
                         name == "Schedule" ? "≥ ×\(r.target.limit)  \(r.target.verdict)" : "",
                         f.errors + f.limit_hits > 0 ? "\(f.errors) errors, \(f.limit_hits) LimitReached (resent)" : ""])
        }
    }
    printTable(["clients", "call", "calls/s", "p50", "p99", "× Ping", "alarmd CPU", "per call", "dbus CPU", "clients/call", "all/call", "machine busy", "target", "notes"], rows)
    say("CPU: alarmd's and dbus-daemon's share of one core in the window and alarmd's per call; clients/call: the client processes' CPU per call;"
        + " all/call: clients + dbus-daemon + alarmd per call; machine busy: all \(ProcessInfo.processInfo.activeProcessorCount) cores, other work included")
    say("RAM store: a second alarmd with its store on tmpfs,"
        + " where fsync costs nothing (\(ramDir == nil ? "not measured: no tmpfs at /dev/shm" : "the floor of the durable figure"))")
    for r in fig.rows {
        if let e = r.schedule.first_error ?? r.ping.first_error ?? r.schedule_ram?.first_error { say("first error: \(e)") }
    }
    return fig
}

/// A scratch directory on tmpfs (/dev/shm), or nil where there is none.
private func ramDirectory() -> TempDir? {
    let mounts = procFile("/proc/self/mounts").split(separator: "\n").map { $0.split(separator: " ") }
    guard mounts.contains(where: { $0.count > 2 && $0[1] == "/dev/shm" && $0[2] == "tmpfs" }) else { return nil }
    return TempDir(root: "/dev/shm", "alarmd-bench-ram")
}

/// The machine's CPU time from /proc/stat (every core; jiffies of 1/100 s), busy and in all.
struct MachineCPU {
    var busy = 0, total = 0

    static func read() -> MachineCPU {
        let line = procFile("/proc/stat").split(separator: "\n").first ?? ""
        let v = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard v.count >= 5 else { return MachineCPU() }
        // user nice system idle iowait irq softirq steal …: idle and iowait are not busy.
        let all = v.prefix(8).reduce(0, +)
        return MachineCPU(busy: all - v[3] - v[4], total: all)
    }

    static func - (a: MachineCPU, b: MachineCPU) -> MachineCPU { MachineCPU(busy: a.busy - b.busy, total: a.total - b.total) }
    var busyShare: Double { total > 0 ? Double(busy) / Double(total) : .nan }
    var busySeconds: Double { Double(busy) / 100 }
}
