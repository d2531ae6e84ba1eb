// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSystemd
import Foundation
import Glibc
import SDBus
import TestSupport

// Figure 2: how late alarms reach a subscriber. 1,000 one-shot alarms at seeded random instants
// over 10 s (`fixed_date` in fractional seconds: a timer's `duration` is whole seconds, so its
// instants could not be chosen); lateness = when PropertiesChanged(State=alerting) is dispatched at
// the subscriber − the alarm's FireTimeUSec (from its InterfacesAdded). Baseline, in the same
// process and loop: a CLOCK_REALTIME timerfd, absolute, re-armed for each of the same instants
// (alarmd also keeps one kernel timer for its earliest deadline), plus one bus hop (half a Ping
// round trip from the subscriber's connection).

struct Figure2: Codable {
    var alarms: Int
    var span_s: Double
    var received: Int
    /// Alarms left out because their Schedule reply came less than 200 ms before they were due (a
    /// loaded machine filling slowly): their lateness would measure the filling.
    var excluded: Int
    var fill_s: Double
    /// Seconds between the last Schedule reply and the first instant (negative: firing began before
    /// every alarm was scheduled).
    var margin_s: Double
    var alarmd: Latency
    var timerfd: Latency
    var ping_rtt: Latency
    var bus_hop_us: Double
    var allowed_p99_us: Double
    var targets: [Target]
}

func figure2(_ cfg: BenchConfig, work: String) throws -> Figure2 {
    say("")
    say("── Figure 2: firing lateness, \(cfg.fireCount) alarms due over \(cfg.fireSpan) s, vs timerfd in the subscriber ──")
    let bus = try BenchBus()
    let daemon = try BenchDaemon(cfg, bus: bus, stateDir: work + "/fig2")
    defer { daemon.stop() }
    try daemon.start()

    let sub = try Pipeline(address: bus.address)
    var changes: [(Message, UInt64)] = []
    var added: [Message] = []
    changes.reserveCapacity(cfg.fireCount * 3)
    // Stamped first, read after the window: reading must not delay the next stamp.
    try sub.bus.addMatch("type='signal',sender='\(managerName)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'") { m in
        changes.append((m, realUSec()))
    }
    try sub.bus.addMatch("type='signal',sender='\(managerName)',interface='org.freedesktop.DBus.ObjectManager',member='InterfacesAdded'") { m in
        added.append(m)
    }
    // alarmd addresses its signals to the connections that watch.
    _ = try sub.sync("Watch")
    // The bus hop: half a Ping round trip on the subscriber's connection.
    var rtts: [Double] = []
    for _ in 0..<(cfg.tiny ? 20 : 300) {
        rtts.append(try sub.sync("Ping", interface: "org.freedesktop.DBus.Peer").latency)
    }
    let rtt = Latency(rtts)
    let hop = rtt.p50_us / 2

    var rng = SeededRandom(seed: cfg.seed &+ 2)
    let n = cfg.fireCount
    let t0 = realUSec() + UInt64(2e6) + UInt64(n) * 3_000
    let span = UInt64(cfg.fireSpan * 1e6)
    let instants = (0..<n).map { _ in t0 + UInt64.random(in: 0..<span, using: &rng) }.sorted()

    let tfd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
    guard tfd >= 0 else { throw BenchError("timerfd_create: \(String(cString: strerror(errno)))") }
    defer { close(tfd) }
    func arm(_ t: UInt64) {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(t / 1_000_000)
        spec.it_value.tv_nsec = Int(t % 1_000_000) * 1_000
        timerfd_settime(tfd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }
    var timerLate: [Double] = []
    var next = 0
    arm(instants[0])

    // Scheduled in instant order from one connection, 32 in flight.
    let filler = try Pipeline(address: bus.address)
    var sent = 0, replied = 0, errors = 0
    var repliedAt = [UInt64](repeating: 0, count: n)
    var firstError = ""
    var fillEnd: UInt64 = 0
    let fillStart = monoUSec()
    func issue() throws {
        guard sent < n else { return }
        let at = Double(instants[sent]) / 1e6
        let index = sent
        sent += 1
        try filler.call("Schedule", [.string(""), .vardict([("title", .string("fire \(sent)")), ("fixed_date", .double(at))])]) { o in
            replied += 1
            repliedAt[index] = realUSec()
            if let e = o.error {
                errors += 1
                if firstError.isEmpty { firstError = e.description }
            }
            if replied == n { fillEnd = monoUSec() }
            try? issue()
        }
    }
    for _ in 0..<32 { try issue() }
    let fillEndReal: () -> UInt64 = { realUSec() - (monoUSec() - fillEnd) }
    var fillEndAt: UInt64 = 0

    // Anything later than this counts as not received.
    let end = instants[n - 1] + 2_000_000
    while true {
        try ChildRegistry.check()
        if fillEnd != 0 && fillEndAt == 0 { fillEndAt = fillEndReal() }
        var fds = [pollfd(fd: tfd, events: Int16(POLLIN), revents: 0)] + sub.pollFDs + filler.pollFDs
        _ = Glibc.poll(&fds, nfds_t(fds.count), 20)
        if fds[0].revents & Int16(POLLIN) != 0 {
            var expirations: UInt64 = 0
            if read(tfd, &expirations, 8) == 8 {
                let now = realUSec()
                while next < n && instants[next] <= now {
                    timerLate.append(Double(now - instants[next]))
                    next += 1
                }
                if next < n { arm(instants[next]) }
            }
        }
        try sub.process()
        try filler.process()
        if realUSec() > end { break }
    }
    let fillSeconds = Double((fillEnd == 0 ? monoUSec() : fillEnd) - fillStart) / 1e6

    // Now read what arrived.
    // Alarms whose Schedule reply came less than 200 ms before they were due are left out.
    var excludedPaths = Set<String>()
    var fireTime: [String: UInt64] = [:]
    for m in added {
        guard let args = try? m.readAll(), args.count == 2, case .objectPath(let path) = args[0],
              case .dict(_, _, let ifaces) = args[1] else { continue }
        for e in ifaces where e.key == .string(alarmInterface) {
            if let props = e.value.vardictEntries, let ft = props.first(where: { $0.0 == "FireTimeUSec" }), case .uint64(let t) = ft.1 {
                fireTime[path] = t
                if let i = instants.firstIndex(where: { $0 &+ 1 >= t && $0 <= t &+ 1 }), repliedAt[i] == 0 || repliedAt[i] + 200_000 > t {
                    excludedPaths.insert(path)
                }
            }
        }
    }
    var late: [Double] = []
    var seen = Set<String>()
    for (m, at) in changes {
        guard let path = m.path, !seen.contains(path), !excludedPaths.contains(path), let ft = fireTime[path], let args = try? m.readAll(), args.count >= 2,
              let props = args[1].vardictEntries, props.contains(where: { $0.0 == "State" && $0.1 == .string("alerting") }) else { continue }
        seen.insert(path)
        late.append(Double(Int64(bitPattern: at &- ft)))
    }
    let alarmd = Latency(late)
    let timer = Latency(timerLate)
    let allowed = 3 * timer.p99_us + hop
    let margin = fillEndAt == 0 ? -.infinity : (Double(instants[0]) - Double(fillEndAt)) / 1e6
    let fig = Figure2(alarms: n, span_s: cfg.fireSpan, received: late.count, excluded: excludedPaths.count, fill_s: fillSeconds, margin_s: margin,
                      alarmd: alarmd, timerfd: timer, ping_rtt: rtt, bus_hop_us: hop, allowed_p99_us: allowed,
                      targets: [
                        Target("alarmd lateness p99 ≤ 2 ms", value: alarmd.p99_us, limit: 2_000, unit: "µs", note: us(alarmd.p99_us)),
                        Target("alarmd lateness p99 ≤ 3 × timerfd p99 + one bus hop", value: alarmd.p99_us, limit: allowed, unit: "µs",
                               note: "\(us(alarmd.p99_us)) vs \(us(allowed)) = 3 × \(us(timer.p99_us)) + \(us(hop))"),
                        Target("every alarm reached the subscriber", value: Double(late.count), limit: Double(n - excludedPaths.count),
                               unit: "alarms", atMost: false,
                               note: "\(late.count) of \(n)\(excludedPaths.isEmpty ? "" : ", \(excludedPaths.count) left out: scheduled less than 200 ms before due")"),
                      ])
    printTable(["lateness", "p50", "p99", "max", "n", "p50 × base", "p99 × base"], [
        ["timerfd in subscriber (baseline)", us(timer.p50_us), us(timer.p99_us), us(timer.max_us), "\(timer.n)", "×1", "×1"],
        ["bus hop (½ Ping round trip)", us(rtt.p50_us / 2), us(rtt.p99_us / 2), us(rtt.max_us / 2), "\(rtt.n)", "", ""],
        ["timerfd + bus hop", us(timer.p50_us + hop), us(timer.p99_us + hop), "", "", "", ""],
        ["alarmd → PropertiesChanged", us(alarmd.p50_us), us(alarmd.p99_us), us(alarmd.max_us), "\(alarmd.n)",
         ratio(alarmd.p50_us, timer.p50_us + hop), ratio(alarmd.p99_us, timer.p99_us + hop)],
    ])
    say(String(format: "scheduled in %.2f s (%d errors%@), first instant %.2f s after the last reply%@; × base = against timerfd + bus hop",
               fillSeconds, errors, firstError.isEmpty ? "" : ": " + firstError, margin,
               excludedPaths.isEmpty ? "" : " (\(excludedPaths.count) alarms left out: scheduled less than 200 ms before due)"))
    printTargets(fig.targets, tiny: cfg.tiny)
    return fig
}
