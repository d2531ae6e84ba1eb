import AlarmCore
import Foundation
import Glibc
import TestSupport

// Figure 1: Schedule throughput and latency from 1 and from 16 client processes, against
// org.freedesktop.DBus.Peer.Ping to alarmd measured the same way (same processes, same window,
// same calls in flight): Ping is one bus round trip to alarmd and no work, so the ratio is what a
// durable Schedule costs on top of the bus.

struct CallFigures: Codable {
    var calls: Int
    var calls_per_s: Double
    var latency: Latency
    var errors: Int
    var limit_hits: Int
    var first_error: String?

    init(_ r: CallRun) {
        calls = r.calls
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
        /// Schedule calls/s ÷ Ping calls/s.
        var ratio: Double
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
    var fig = Figure1(window_s: cfg.callWindow)
    // Sync: each client waits for each reply (latency = one call); pipelined: several in flight.
    let cases: [(clients: Int, depth: Int, target: Double)] = [(1, 1, 0.33), (cfg.manyClients, 1, 0.5), (1, cfg.pipelineDepth, 0.33)]
    for (i, c) in cases.enumerated() {
        let seed = cfg.seed &+ UInt64(i) &* 1_000
        let ping = try runCallWorkers(address: bus.address, member: "Ping", clients: c.clients, seconds: cfg.callWindow,
                                      depth: c.depth, seed: seed, dir: work)
        let schedule = try runCallWorkers(address: bus.address, member: "Schedule", clients: c.clients, seconds: cfg.callWindow,
                                          depth: c.depth, seed: seed, dir: work)
        let r = ping.perSecond > 0 ? schedule.perSecond / ping.perSecond : .nan
        let what = "Schedule/Ping calls/s, \(c.clients) client\(c.clients == 1 ? "" : "s")\(c.depth > 1 ? ", \(c.depth) in flight" : "") ≥ \(c.target)×"
        fig.rows.append(.init(clients: c.clients, in_flight_per_client: c.depth, ping: CallFigures(ping), schedule: CallFigures(schedule),
                              ratio: r, target: Target(what, value: r, limit: c.target, unit: "×", atMost: false,
                                                       note: String(format: "%.3f×", r))))
    }
    fig.alarms_at_end = fig.rows.reduce(0) { $0 + $1.schedule.calls }

    var rows: [[String]] = []
    for r in fig.rows {
        let who = "\(r.clients) × \(r.in_flight_per_client == 1 ? "sync" : "\(r.in_flight_per_client) in flight")"
        for (name, f) in [("Ping (baseline)", r.ping), ("Schedule", r.schedule)] {
            rows.append([name == "Schedule" ? "" : who, name, String(format: "%.0f", f.calls_per_s), us(f.latency.p50_us), us(f.latency.p99_us),
                         name == "Schedule" ? ratio(r.schedule.calls_per_s, r.ping.calls_per_s) : "×1",
                         name == "Schedule" ? "≥ ×\(r.target.limit)  \(r.target.verdict)" : "",
                         f.errors + f.limit_hits > 0 ? "\(f.errors) errors, \(f.limit_hits) LimitReached (resent)" : ""])
        }
    }
    printTable(["clients", "call", "calls/s", "p50", "p99", "× Ping", "target", "notes"], rows)
    for r in fig.rows {
        if let e = r.schedule.first_error ?? r.ping.first_error { say("first error: \(e)") }
    }
    return fig
}
