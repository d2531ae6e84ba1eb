// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation

/// What a run measures and how long it looks; `--tiny` shrinks everything so that the test suite
/// can run the whole benchmark in seconds (its figures then mean nothing).
struct BenchConfig {
    var tiny = false
    var seed: UInt64 = 20_251_201
    var out = "tools/bench/out/results.json"
    var alarmd = ""
    var figures: Set<Int> = [1, 2, 3, 4, 5, 6]
    var label = ""
    /// Keep the work directory (stores, logs) and say where it is; print each alarmd's pid (to
    /// attach a profiler).
    var keep = false
    var verbose = false

    // Figure 1: calls per second.
    var callWindow = 3.0
    var manyClients = 16
    var pipelineDepth = 16

    // Figure 2: firing lateness.
    var fireCount = 1_000
    var fireSpan = 10.0

    // Figure 6: firing lateness at an independent monitor, idle and under streaming clients.
    var monitorCount = 200
    var monitorSpan = 4.0

    // Figure 3: idle.
    var idleWindow = 15.0

    // Figure 4: scaling.
    var sizes = [1_000, 10_000, 100_000]
    var samples = 500
    var fillWorkers = 4
    var fillDepth = 32
    /// Seconds all filling together may take before the run measures the size it reached.
    var fillBudget = 150.0
    var pageSize = 10_000

    static let usage = """
        usage: alarmd-bench [--tiny] [--seed N] [--out FILE] [--alarmd PATH] [--figures 1,2,3,4,5,6]
                            [--fill-budget SECONDS] [--sizes N,N,N] [--label TEXT] [--keep] [--verbose]

        Runs the release alarmd on private dbus-daemons (state in /tmp, real SQLite on disk) and prints
        each figure beside a baseline measured in the same run, with its ratio and target; writes FILE
        (default tools/bench/out/results.json).
          1  Schedule calls/s and latency, 1 and 16 client processes, vs Peer.Ping to alarmd
          2  firing lateness of 1,000 alarms due over 10 s, vs an in-process timerfd plus one bus hop
          3  wake-ups and syscalls while idle with 10,000 pending alarms, vs an empty store
          4  Schedule/Cancel latency, RSS, store size, GetAlarms, restart at 1k/10k/100k alarms, vs 1k
          5  (extra) the core engine in-process: Schedule/Cancel/due-check cost and memory per alarm
          6  firing lateness of 200 alarms due over 4 s at an independent monitor (dbus-monitor --profile), idle
             and while 16 client processes stream Schedule, vs a timerfd in a helper process, same instants
          --tiny     50 alarms, 2 workers, 0.5–1 s windows: checks the benchmark runs, measures nothing
          --keep     keep the work directory (stores, alarmd logs) and print where it is
          --verbose  print each alarmd's pid when it starts (to attach perf or strace)
        """

    static func parse(_ args: [String]) throws -> BenchConfig {
        var c = BenchConfig()
        var it = args.makeIterator()
        func value(_ name: String) throws -> String {
            guard let v = it.next() else { throw BenchError("\(name) needs a value\n\(usage)") }
            return v
        }
        while let a = it.next() {
            switch a {
            case "--tiny": c.shrink()
            case "--seed":
                guard let s = UInt64(try value(a)) else { throw BenchError("--seed needs a number") }
                c.seed = s
            case "--out": c.out = try value(a)
            case "--alarmd": c.alarmd = try value(a)
            case "--label": c.label = try value(a)
            case "--keep": c.keep = true
            case "--verbose": c.verbose = true
            case "--figures":
                c.figures = Set(try value(a).split(separator: ",").compactMap { Int($0) })
            case "--fill-budget":
                guard let s = Double(try value(a)) else { throw BenchError("--fill-budget needs seconds") }
                c.fillBudget = s
            case "--sizes":
                let s = try value(a).split(separator: ",").compactMap { Int($0) }
                guard s.count == 3 else { throw BenchError("--sizes needs three sizes") }
                c.sizes = s
            case "-h", "--help": throw BenchError(usage)
            default: throw BenchError("unknown option \(a)\n\(usage)")
            }
        }
        if c.alarmd.isEmpty { c.alarmd = (selfPath as NSString).deletingLastPathComponent + "/alarmd" }
        return c
    }

    mutating func shrink() {
        tiny = true
        // Short: the smoke run shares the machine with the rest of the test suite.
        callWindow = 0.5
        manyClients = 2
        pipelineDepth = 4
        fireCount = 50
        fireSpan = 1
        monitorCount = 20
        monitorSpan = 1
        idleWindow = 1
        sizes = [10, 25, 50]
        samples = 10
        fillWorkers = 2
        fillDepth = 4
        fillBudget = 60
        pageSize = 20
    }
}
