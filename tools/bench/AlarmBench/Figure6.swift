// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport

// Figure 6: firing lateness seen by an independent monitor, idle and while 16 client processes
// stream Schedule. 200 one-shot alarms at seeded random instants over 4 s; lateness = the
// `dbus-monitor --profile` timestamp (its own process, eavesdropping through BecomeMonitor, stamped
// when dbus-daemon hands it the message) of each alarm's first PropertiesChanged − the alarm's fire
// time. Baseline, measured in the same phase: a CLOCK_REALTIME timerfd in a helper process of its
// own, armed for the same instants; and the floor: that helper also sends a signal through the same
// dbus-daemon at each expiry, stamped by the same monitor (a timer's lateness plus the bus's hop,
// under the same load). Figure 2 measures at the bench's own subscriber instead, idle.

struct Figure6: Codable {
    struct Phase: Codable {
        var load: String
        var alarms: Int
        var received: Int
        /// alarmd → the monitor.
        var alarmd: Latency
        /// The helper process's timerfd.
        var timerfd: Latency
        /// The helper's signal sent at each expiry, through dbus-daemon → the monitor.
        var timerfd_via_bus: Latency
        /// What the streaming clients got done while the alarms fired (0 idle).
        var calls: Int
        var calls_per_s: Double
        var call_errors: Int
        /// Seconds from the go of the clients to the first instant (negative: they started late).
        var lead_s: Double
    }
    var idle: Phase
    var loaded: Phase
    var targets: [Target]
}

func figure6(_ cfg: BenchConfig, work: String) throws -> Figure6 {
    say("")
    say("── Figure 6: firing lateness at an independent monitor, \(cfg.monitorCount) alarms over \(cfg.monitorSpan) s, idle and "
        + "with \(cfg.manyClients) clients streaming Schedule, vs a timerfd in a helper process ──")
    guard let dbusMonitor = ["/usr/bin/dbus-monitor", "/bin/dbus-monitor"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw BenchError("no dbus-monitor (Debian: dbus-bin)")
    }
    let dir = work + "/fig6"
    let bus = try BenchBus()
    let daemon = try BenchDaemon(cfg, bus: bus, stateDir: dir)
    defer { daemon.stop() }
    try daemon.start()

    // The monitor: its own process and connection; every PropertiesChanged, stamped as it arrives.
    let monitorOut = dir + "/monitor.txt"
    let fd = open(monitorOut, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw BenchError("cannot create \(monitorOut)") }
    let monitor = try Child(dbusMonitor, ["--address", bus.address, "--profile",
                                          "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"],
                            stdoutPipe: fd, stderrPath: dir + "/monitor.log")
    close(fd)
    defer { monitor.kill9() }
    // Seen once it stamps a PropertiesChanged of its own making.
    let probe = try Pipeline(address: bus.address)
    let probeDeadline = monoUSec() + 30_000_000
    while !procFile(monitorOut).contains("/bench/probe") {
        try probe.bus.emitSignal(path: "/bench/probe", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                 [.string("org.alarmd.Bench"), .dict(key: "s", value: "v", []), .array(element: "s", [])])
        probe.bus.flush()
        try pause(0.1)
        if monoUSec() > probeDeadline || monitor.exited {
            throw BenchError("dbus-monitor saw nothing:\n" + tail(of: dir + "/monitor.log"))
        }
    }

    var rng = SeededRandom(seed: cfg.seed &+ 6)
    let filler = try Pipeline(address: bus.address)

    func phase(_ clients: Int) throws -> Figure6.Phase {
        let n = cfg.monitorCount
        let span = UInt64(cfg.monitorSpan * 1e6)
        // The clients first, connected and waiting: starting 16 processes takes a while.
        let load = clients > 0 ? "\(clients) clients streaming Schedule" : "idle"
        let workers = clients > 0
            ? try CallWorkers(address: bus.address, member: "Schedule", clients: clients, seconds: cfg.monitorSpan + 2.5,
                              depth: 1, seed: cfg.seed &+ 60, dir: dir)
            : nil
        let t0 = realUSec() + 2_000_000 + UInt64(n) * 2_000
        let instants = (0..<n).map { _ in t0 + UInt64.random(in: 0..<span, using: &rng) }.sorted()
        // Scheduled from one connection, 32 in flight, each alarm's path kept with its instant.
        var fireTime: [String: UInt64] = [:]
        var sent = 0, replied = 0
        func issue() throws {
            guard sent < n else { return }
            let at = instants[sent]
            sent += 1
            try filler.call("Schedule", [.string(""), .vardict([("title", .string("monitor \(sent)")),
                                                               ("fixed_date", .double(Double(at) / 1e6))])]) { o in
                replied += 1
                if o.error == nil, case .objectPath(let path)? = try? o.message.readAll().first { fireTime[path] = at }
                try? issue()
            }
        }
        for _ in 0..<32 { try issue() }
        try filler.pump(until: { replied == n }, timeout: 60, what: "scheduling the alarms")
        guard fireTime.count == n else { throw BenchError("\(n - fireTime.count) of \(n) Schedule calls failed") }

        let instantsFile = dir + "/instants-\(clients).txt"
        try instants.map { "\($0)\n" }.joined().write(toFile: instantsFile, atomically: true, encoding: .utf8)
        let timerOut = dir + "/timerfd-\(clients).txt"
        let helper = try Child(selfPath, ["--worker", "timerfd", instantsFile, timerOut, bus.address], stderrPath: dir + "/worker.log")
        let goAt = realUSec()
        workers?.go()
        // Until every instant has passed (the helper ends after the last), and a margin for stragglers.
        let end = instants[n - 1] + 1_500_000
        while helper.wait(timeout: 0.05) == nil || realUSec() < end {
            try ChildRegistry.check()
            if realUSec() > end + 30_000_000 { throw BenchError("the timerfd helper did not finish") }
        }
        let run = try workers?.collect()
        let timer = procFile(timerOut).split(separator: "\n").compactMap { Double($0) }

        // The monitor's lines: "sig <sec>.<µs> <serial> <sender> <destination> <path> <interface> <member>".
        var late: [Double] = []
        var relayed: [Double] = []
        var seen = Set<String>()
        let timerPrefix = "/bench/timer/"
        for line in procFile(monitorOut).split(separator: "\n") {
            let f = line.split(separator: "\t")
            let stamp = f.count > 1 ? f[1].split(separator: ".") : []
            guard f.count >= 7, f[0] == "sig", stamp.count == 2, let sec = UInt64(stamp[0]), stamp[1].count <= 6,
                  let frac = UInt64(stamp[1]) else { continue }
            var usec = frac
            for _ in stamp[1].count..<6 { usec *= 10 }
            let at = sec * 1_000_000 + usec
            if let p = f.first(where: { $0.hasPrefix(timerPrefix) }) {
                // This phase's: the helper's file of instants is this phase's, its paths restart at 0.
                if let i = Int(p.dropFirst(timerPrefix.count)), i < n, at >= instants[i], at - instants[i] < 60_000_000,
                   seen.insert(String(p) + "@\(clients)").inserted {
                    relayed.append(Double(at - instants[i]))
                }
                continue
            }
            guard let path = f.first(where: { $0.hasPrefix(Contract.alarmPathPrefix) }).map(String.init),
                  let ft = fireTime[path], !seen.contains(path) else { continue }
            seen.insert(path)
            late.append(Double(Int64(bitPattern: at &- ft)))
        }
        let calls = run?.calls ?? 0
        return Figure6.Phase(load: load, alarms: n, received: late.count, alarmd: Latency(late), timerfd: Latency(timer),
                             timerfd_via_bus: Latency(relayed),
                             calls: calls, calls_per_s: run.map { $0.perSecond } ?? 0, call_errors: run?.errors ?? 0,
                             lead_s: (Double(instants[0]) - Double(goAt)) / 1e6)
    }

    let idle = try phase(0)
    let loaded = try phase(cfg.manyClients)
    let fig = Figure6(idle: idle, loaded: loaded, targets: [
        Target("idle: lateness at the monitor p99 ≤ 1 ms", value: idle.alarmd.p99_us, limit: 1_000, unit: "µs",
               note: "\(us(idle.alarmd.p99_us)) (helper timerfd p99 \(us(idle.timerfd.p99_us)), through the bus \(us(idle.timerfd_via_bus.p99_us)))"),
        Target("\(loaded.load): lateness at the monitor p99 ≤ 2 ms", value: loaded.alarmd.p99_us, limit: 2_000, unit: "µs",
               note: "\(us(loaded.alarmd.p99_us)) (helper timerfd p99 \(us(loaded.timerfd.p99_us)), through the bus \(us(loaded.timerfd_via_bus.p99_us)))"),
        Target("every alarm reached the monitor", value: Double(idle.received + loaded.received),
               limit: Double(idle.alarms + loaded.alarms), unit: "alarms", atMost: false,
               note: "\(idle.received) of \(idle.alarms) idle, \(loaded.received) of \(loaded.alarms) loaded"),
    ])
    var rows: [[String]] = []
    for p in [idle, loaded] {
        rows.append(["\(p.load): timerfd in a helper process (baseline)", us(p.timerfd.p50_us), us(p.timerfd.p99_us), us(p.timerfd.max_us),
                     "\(p.timerfd.n)", "×1", "×1", ""])
        rows.append(["\(p.load): helper's signal at each expiry → monitor (floor)", us(p.timerfd_via_bus.p50_us),
                     us(p.timerfd_via_bus.p99_us), us(p.timerfd_via_bus.max_us), "\(p.timerfd_via_bus.n)",
                     ratio(p.timerfd_via_bus.p50_us, p.timerfd.p50_us), ratio(p.timerfd_via_bus.p99_us, p.timerfd.p99_us), ""])
        rows.append(["\(p.load): alarmd → monitor", us(p.alarmd.p50_us), us(p.alarmd.p99_us), us(p.alarmd.max_us), "\(p.alarmd.n)",
                     ratio(p.alarmd.p50_us, p.timerfd.p50_us), ratio(p.alarmd.p99_us, p.timerfd.p99_us),
                     p.calls > 0 ? String(format: "%.0f/s (%d errors), lead %.1f s", p.calls_per_s, p.call_errors, p.lead_s) : ""])
    }
    printTable(["lateness", "p50", "p99", "max", "n", "p50 × base", "p99 × base", "Schedule calls"], rows)
    printTargets(fig.targets, tiny: cfg.tiny)
    return fig
}
