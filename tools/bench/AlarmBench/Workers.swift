// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CSystemd
import Foundation
import Glibc
import SDBus
import TestSupport

// Worker processes: this program started again as `alarmd-bench --worker …`, one bus connection
// (or more, see Pipeline) each, so that "16 clients" are 16 processes as 16 apps would be.

/// A far-future one-shot alarm (2 to 60 days ahead): it stays pending for the whole run.
func farFutureAlarm(_ title: String, _ rng: inout SeededRandom) -> [Value] {
    let at = Int64(realUSec() / 1_000_000) + Int64.random(in: 2 * 86_400...60 * 86_400, using: &rng)
    return [.string(""), .vardict([("title", .string(title)), ("fixed_date", .int64(at))])]
}

enum Worker {
    /// `call ADDRESS MEMBER SECONDS DEPTH SEED OUTFILE`: after "ready" on stdout and the go (stdin
    /// closes), keeps DEPTH calls of MEMBER (Ping or Schedule) in flight for SECONDS; writes
    /// "completed errors limitHits windowUSec cpuUSec firstError" and one latency (µs) per line
    /// (cpuUSec: this process's CPU from the go to the last reply).
    static func call(_ a: [String]) throws -> Int32 {
        guard a.count == 6, let seconds = Double(a[2]), let depth = Int(a[3]), let seed = UInt64(a[4]) else {
            throw BenchError("usage: --worker call ADDRESS MEMBER SECONDS DEPTH SEED OUTFILE")
        }
        let (address, member, outPath) = (a[0], a[1], a[5])
        let parent = getppid()
        var rng = SeededRandom(seed: seed)
        let p = try Pipeline(address: address)
        // Connected and known to the bus before the clock starts.
        try p.sync("Ping", interface: "org.freedesktop.DBus.Peer")
        say("ready")
        var b: UInt8 = 0
        _ = read(0, &b, 1)

        var latencies: [Double] = []
        latencies.reserveCapacity(200_000)
        var errors = 0
        var firstError = ""
        let start = monoUSec()
        let end = start + UInt64(seconds * 1e6)
        var stopped = false
        let cpu0 = processCPUUSec()
        func issue() throws {
            let onReply: (CallOutcome) -> Void = { o in
                if o.repliedUSec <= end {
                    if let e = o.error {
                        errors += 1
                        if firstError.isEmpty { firstError = e.description }
                    } else {
                        latencies.append(o.latency)
                    }
                }
                if monoUSec() < end && !stopped { try? issue() }
            }
            if member == "Ping" {
                try p.call("Ping", interface: "org.freedesktop.DBus.Peer", onReply)
            } else {
                try p.call(member, farFutureAlarm("bench", &rng), onReply)
            }
        }
        for _ in 0..<depth { try issue() }
        while p.inFlight > 0 {
            if orphaned(parent) { return 1 }
            try p.pump(timeoutUSec: 20_000)
            if monoUSec() > end + 30_000_000 { stopped = true; break }
        }
        var text = "\(latencies.count) \(errors) \(p.limitHits) \(end - start) \(processCPUUSec() - cpu0) \(firstError.replacingOccurrences(of: "\n", with: " "))\n"
        text.reserveCapacity(latencies.count * 6)
        for l in latencies { text += "\(Int(l))\n" }
        try text.write(toFile: outPath, atomically: true, encoding: .utf8)
        return 0
    }

    /// `timerfd INSTANTS_FILE OUTFILE [ADDRESS]`: the baselines of figure 6, a kernel timer in a
    /// process of its own: a CLOCK_REALTIME timerfd armed, absolute, for each instant of INSTANTS_FILE
    /// (realtime µs, one a line, ascending) in turn; writes each instant's lateness (µs) when its
    /// expiry is read. With ADDRESS, it then also sends, for each instant i, a PropertiesChanged on
    /// `/bench/timer/i` through that bus: what the monitor stamps is a timer's lateness plus the hop
    /// through the same dbus-daemon alarmd's signals take.
    static func timerfd(_ a: [String]) throws -> Int32 {
        guard a.count == 2 || a.count == 3 else { throw BenchError("usage: --worker timerfd INSTANTS_FILE OUTFILE [ADDRESS]") }
        let instants = procFile(a[0]).split(separator: "\n").compactMap { UInt64($0) }
        let bus = a.count == 3 ? try Bus.connect(address: a[2]) : nil
        let parent = getppid()
        let tfd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard tfd >= 0 else { throw BenchError("timerfd_create: \(String(cString: strerror(errno)))") }
        var late: [UInt64] = []
        late.reserveCapacity(instants.count)
        var next = 0
        while next < instants.count {
            if orphaned(parent) { return 1 }
            var spec = itimerspec()
            spec.it_value.tv_sec = Int(instants[next] / 1_000_000)
            spec.it_value.tv_nsec = Int(instants[next] % 1_000_000) * 1_000
            timerfd_settime(tfd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
            var expirations: UInt64 = 0
            guard read(tfd, &expirations, 8) == 8 else { continue }
            let now = realUSec()
            let first = next
            while next < instants.count && instants[next] <= now {
                late.append(now - instants[next])
                next += 1
            }
            if let bus {
                for i in first..<next {
                    try bus.emitSignal(path: "/bench/timer/\(i)", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                       [.string("org.alarmd.Bench"), .dict(key: "s", value: "v", []), .array(element: "s", [])])
                }
                bus.flush()
            }
        }
        try late.map { "\($0)\n" }.joined().write(toFile: a[1], atomically: true, encoding: .utf8)
        return 0
    }

    /// `fill ADDRESS COUNT DEPTH SEED TAG DEADLINE_REALTIME_USEC OUTFILE`: schedules COUNT far-future
    /// alarms with DEPTH in flight, stopping early at the deadline; writes "done errors limitHits
    /// elapsedUSec firstError".
    static func fill(_ a: [String]) throws -> Int32 {
        guard a.count == 7, let count = Int(a[1]), let depth = Int(a[2]), let seed = UInt64(a[3]),
              let deadline = UInt64(a[5]) else {
            throw BenchError("usage: --worker fill ADDRESS COUNT DEPTH SEED TAG DEADLINE OUTFILE")
        }
        let (address, tag, outPath) = (a[0], a[4], a[6])
        let parent = getppid()
        var rng = SeededRandom(seed: seed)
        let p = try Pipeline(address: address)
        var sent = 0, done = 0, errors = 0
        var firstError = ""
        let start = monoUSec()
        func issue() throws {
            guard sent < count, realUSec() < deadline else { return }
            sent += 1
            try p.call("Schedule", farFutureAlarm("fill \(tag)-\(sent)", &rng)) { o in
                if let e = o.error {
                    errors += 1
                    if firstError.isEmpty { firstError = e.description }
                } else {
                    done += 1
                }
                try? issue()
            }
        }
        for _ in 0..<depth { try issue() }
        while p.inFlight > 0 {
            if orphaned(parent) { return 1 }
            try p.pump(timeoutUSec: 50_000)
        }
        try "\(done) \(errors) \(p.limitHits) \(monoUSec() - start) \(firstError.replacingOccurrences(of: "\n", with: " "))\n"
            .write(toFile: outPath, atomically: true, encoding: .utf8)
        return 0
    }
}

// MARK: the parent's side

struct CallRun {
    var calls: Int
    var errors: Int
    var limitHits: Int
    var seconds: Double
    var latencies: [Double]
    var firstError: String
    /// The client processes' CPU, summed.
    var clientCPUUSec = 0
    var perSecond: Double { seconds > 0 ? Double(calls) / seconds : 0 }
}

/// Starts `clients` worker processes calling `member`, lets them go at once, and merges their figures.
func runCallWorkers(address: String, member: String, clients: Int, seconds: Double, depth: Int, seed: UInt64,
                    dir: String) throws -> CallRun {
    let workers = try CallWorkers(address: address, member: member, clients: clients, seconds: seconds, depth: depth,
                                  seed: seed, dir: dir)
    workers.go()
    return try workers.collect()
}

/// Call workers started and connected, waiting for the go (figure 6 lets them go while alarms fire).
final class CallWorkers {
    private var goPipe: [Int32]
    private var workers: [(child: Child, ready: Int32, out: String)] = []
    private let seconds: Double
    private let dir: String

    init(address: String, member: String, clients: Int, seconds: Double, depth: Int, seed: UInt64, dir: String) throws {
        self.seconds = seconds
        self.dir = dir
        goPipe = try cloexecPipe()
        try start(address: address, member: member, clients: clients, depth: depth, seed: seed)
    }

    deinit {
        if goPipe[1] >= 0 { close(goPipe[1]) }
        for w in workers {
            close(w.ready)
            w.child.kill9()
        }
    }

    private func start(address: String, member: String, clients: Int, depth: Int, seed: UInt64) throws {
    for i in 0..<clients {
        let ready = try cloexecPipe()
        let out = "\(dir)/\(member)-\(clients)-\(depth)-\(i).out"
        let child = try Child(selfPath, ["--worker", "call", address, member, String(seconds), String(depth),
                                         String(seed &+ UInt64(i) &* 7919), out],
                              stdoutPipe: ready[1], stdinPipe: goPipe[0], stderrPath: dir + "/worker.log")
        close(ready[1])
        workers.append((child, ready[0], out))
    }
    close(goPipe[0])
    // Every worker connected.
    for w in workers {
        var fds = [pollfd(fd: w.ready, events: Int16(POLLIN), revents: 0)]
        let deadline = monoUSec() + 60_000_000
        while Glibc.poll(&fds, 1, 100) == 0 {
            try ChildRegistry.check()
            if monoUSec() > deadline || w.child.exited { throw BenchError("a worker did not start:\n" + tail(of: dir + "/worker.log")) }
        }
    }
    }

    /// The go for all at once: the end of their stdin. Each calls for `seconds` from here.
    func go() {
        close(goPipe[1])
        goPipe[1] = -1
    }

    /// Waits for every worker to end and merges their figures.
    func collect() throws -> CallRun {
    var run = CallRun(calls: 0, errors: 0, limitHits: 0, seconds: seconds, latencies: [], firstError: "")
    for w in workers {
        let deadline = monoUSec() + UInt64((seconds + 60) * 1e6)
        while w.child.wait(timeout: 0.05) == nil {
            try ChildRegistry.check()
            if monoUSec() > deadline { throw BenchError("a worker did not finish") }
        }
        let lines = procFile(w.out).split(separator: "\n", omittingEmptySubsequences: false)
        let head = lines.first?.split(separator: " ", maxSplits: 5) ?? []
        guard head.count >= 5, let n = Int(head[0]), let e = Int(head[1]), let l = Int(head[2]), let cpu = Int(head[4]) else {
            try ChildRegistry.check()
            throw BenchError("a worker wrote no result:\n" + tail(of: dir + "/worker.log"))
        }
        run.calls += n
        run.errors += e
        run.limitHits += l
        run.clientCPUUSec += cpu
        if run.firstError.isEmpty && head.count > 5 { run.firstError = String(head[5]) }
        run.latencies += lines.dropFirst().compactMap { Double($0) }
    }
    return run
    }
}

struct FillRun {
    var done: Int
    var errors: Int
    var limitHits: Int
    var seconds: Double
    var firstError: String
}

/// Schedules `count` far-future alarms from `workers` processes with `depth` calls in flight each,
/// stopping at `deadline` (realtime µs).
func runFillWorkers(address: String, count: Int, workers nWorkers: Int, depth: Int, seed: UInt64, tag: String,
                    deadline: UInt64, dir: String) throws -> FillRun {
    let t0 = monoUSec()
    var workers: [(child: Child, out: String)] = []
    defer { for w in workers { w.child.kill9() } }
    let n = max(1, min(nWorkers, count))
    for i in 0..<n {
        let share = count / n + (i < count % n ? 1 : 0)
        let out = "\(dir)/fill-\(tag)-\(i).out"
        let child = try Child(selfPath, ["--worker", "fill", address, String(share), String(depth), String(seed &+ UInt64(i) &* 104_729),
                                         "\(tag).\(i)", String(deadline), out], stderrPath: dir + "/worker.log")
        workers.append((child, out))
    }
    var run = FillRun(done: 0, errors: 0, limitHits: 0, seconds: 0, firstError: "")
    for w in workers {
        while w.child.wait(timeout: 0.05) == nil {
            try ChildRegistry.check()
            if realUSec() > deadline + 120_000_000 { throw BenchError("a fill worker did not finish") }
        }
        let head = procFile(w.out).split(separator: "\n").first?.split(separator: " ", maxSplits: 4) ?? []
        guard head.count >= 4, let d = Int(head[0]), let e = Int(head[1]), let l = Int(head[2]) else {
            try ChildRegistry.check()
            throw BenchError("a fill worker wrote no result:\n" + tail(of: dir + "/worker.log"))
        }
        run.done += d
        run.errors += e
        run.limitHits += l
        if run.firstError.isEmpty && head.count > 4 { run.firstError = String(head[4]) }
    }
    run.seconds = Double(monoUSec() - t0) / 1e6
    return run
}

/// This process's CPU time (all threads), µs.
func processCPUUSec() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return ts.tv_sec * 1_000_000 + ts.tv_nsec / 1_000
}
