// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import CSystemd
import Foundation
import Glibc
import TestSupport

// Clocks, randomness, children that never outlive the benchmark, /proc readers, statistics.

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

// MARK: children

// Every process the benchmark starts (private buses, daemons, workers, strace) is listed in
// TestSupport's ChildRegistry while it may run, so that SIGINT, SIGTERM or SIGHUP kill them all before
// the benchmark goes (main installs the handlers, `.unwind`); the main loop then sees `interrupted`
// and unwinds, removing its temporary directories.
extension ChildRegistry {
    /// Throws once a signal has arrived, so that the run unwinds.
    static func check() throws {
        if interrupted != 0 { throw BenchError("interrupted by signal \(interrupted)") }
    }
}

/// A child process, registered for cleanup while it may run.
final class Child {
    let process: ChildProcess
    var pid: pid_t { process.pid }

    init(_ path: String, _ args: [String], environment: [String: String]? = nil, stdoutPipe: Int32? = nil,
         stdinPipe: Int32? = nil, stderrPath: String? = nil) throws {
        process = try ChildProcess(path, args, environment: environment, stdoutPipe: stdoutPipe, stdinPipe: stdinPipe,
                                   stderrPath: stderrPath)
        ChildRegistry.add(process.pid)
    }

    /// Whether it has ended (a zombie not yet reaped counts), without reaping or waiting.
    var exited: Bool {
        let stat = procFile("/proc/\(pid)/stat")
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].dropFirst().first == "Z"
    }

    @discardableResult
    func wait(timeout: Double) -> Int32? {
        let s = process.wait(timeout: timeout)
        if s != nil { ChildRegistry.remove(pid) }
        return s
    }

    func signal(_ sig: Int32) { process.signal(sig) }

    func stop() {
        process.stop()
        ChildRegistry.remove(pid)
    }

    func kill9() {
        process.signal(SIGKILL)
        process.wait(timeout: 10)
        ChildRegistry.remove(pid)
    }

    deinit { ChildRegistry.remove(pid) }
}

/// A private dbus-daemon, registered for cleanup.
final class BenchBus {
    let bus: TestBus
    var address: String { bus.address }
    init() throws {
        bus = try TestBus()
        ChildRegistry.add(bus.pid)
    }
    deinit { ChildRegistry.remove(bus.pid) }
}

/// A pipe whose ends no child inherits (posix_spawn's dup2 onto 0/1 clears the flag on the copy).
func cloexecPipe() throws -> [Int32] {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fds
}

/// This very program, for worker processes.
let selfPath: String = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]

/// Sleeps `seconds`, waking to notice an interrupt.
func pause(_ seconds: Double) throws {
    let end = monoUSec() + UInt64(max(0, seconds) * 1e6)
    while true {
        try ChildRegistry.check()
        let now = monoUSec()
        if now >= end { return }
        usleep(UInt32(min(end - now, 50_000)))
    }
}

// MARK: /proc

/// TestSupport.readText: Foundation leaks 4 KiB per empty file read with String(contentsOfFile:).
func procFile(_ path: String) -> String { readText(path) }

func statusField(_ text: String, _ name: String) -> Int? {
    for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
        return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
}

/// Resident memory in KiB.
func rssKiB(_ pid: pid_t) -> Int { statusField(procFile("/proc/\(pid)/status"), "VmRSS") ?? 0 }

/// Resident memory in KiB, and how much of it is anonymous (heap, stacks) rather than mapped files
/// (the Swift runtime, Foundation and ICU libraries, shared with every Swift process).
func rssBreakdown(_ pid: pid_t) -> (total: Int, anon: Int, file: Int) {
    let s = procFile("/proc/\(pid)/status")
    return (statusField(s, "VmRSS") ?? 0, statusField(s, "RssAnon") ?? 0, statusField(s, "RssFile") ?? 0)
}

/// The most memory the process has had resident (KiB) since it started or since `resetPeakRSS`.
func peakRSSKiB(_ pid: pid_t) -> Int { statusField(procFile("/proc/\(pid)/status"), "VmHWM") ?? 0 }

/// Starts a new peak-RSS window: the kernel sets VmHWM back to the current RSS (proc(5), clear_refs 5).
func resetPeakRSS(_ pid: pid_t) {
    let fd = open("/proc/\(pid)/clear_refs", O_WRONLY)
    guard fd >= 0 else { return }
    _ = write(fd, "5", 1)
    close(fd)
}

/// What the scheduler saw of a process, summed over its threads.
struct SchedCounters {
    var voluntary = 0, involuntary = 0, runs = 0, cpuNs = 0, threads = 0

    static func read(_ pid: pid_t) -> SchedCounters {
        var c = SchedCounters()
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for t in tasks {
            let status = procFile("/proc/\(pid)/task/\(t)/status")
            c.voluntary += statusField(status, "voluntary_ctxt_switches") ?? 0
            c.involuntary += statusField(status, "nonvoluntary_ctxt_switches") ?? 0
            // schedstat: time on CPU (ns), time waiting to run (ns), number of times run.
            let fields = procFile("/proc/\(pid)/task/\(t)/schedstat").split(separator: " ")
            if fields.count >= 3 {
                c.cpuNs += Int(fields[0]) ?? 0
                c.runs += Int(fields[2].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            }
            c.threads += 1
        }
        return c
    }

    static func - (a: SchedCounters, b: SchedCounters) -> SchedCounters {
        SchedCounters(voluntary: a.voluntary - b.voluntary, involuntary: a.involuntary - b.involuntary,
                      runs: a.runs - b.runs, cpuNs: a.cpuNs - b.cpuNs, threads: a.threads)
    }
}

func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}

// MARK: statistics

/// Nearest-rank percentile of sorted samples; 0 for none.
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

struct Latency: Codable {
    var n: Int
    var p50_us: Double
    var p99_us: Double
    var max_us: Double

    init(_ samples: [Double]) {
        let s = samples.sorted()
        n = s.count
        p50_us = percentile(s, 50)
        p99_us = percentile(s, 99)
        max_us = s.last ?? 0
    }
}

// MARK: formatting

func us(_ v: Double) -> String {
    if v.isNaN { return "—" }
    if abs(v) >= 10_000_000 { return String(format: "%.1f s", v / 1e6) }
    if abs(v) >= 1_000_000 { return String(format: "%.2f s", v / 1e6) }
    if abs(v) >= 10_000 { return String(format: "%.1f ms", v / 1e3) }
    if abs(v) >= 1_000 { return String(format: "%.2f ms", v / 1e3) }
    return String(format: "%.0f µs", v)
}

func ratio(_ v: Double, _ base: Double) -> String {
    guard base > 0, v.isFinite, base.isFinite else { return "—" }
    let r = v / base
    return r >= 100 ? String(format: "×%.0f", r) : r >= 10 ? String(format: "×%.1f", r) : String(format: "×%.2f", r)
}

func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }

func bytes(_ n: Int) -> String {
    n >= 1 << 20 ? String(format: "%.1f MiB", Double(n) / 1048576) : n >= 1 << 10 ? String(format: "%.0f KiB", Double(n) / 1024) : "\(n) B"
}

func grouped(_ n: Int) -> String {
    let s = String(n)
    var out = ""
    for (i, c) in s.reversed().enumerated() {
        if i > 0 && i % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return String(out.reversed())
}

/// Prints rows as a table with aligned columns (first column left, the rest right).
func printTable(_ header: [String], _ rows: [[String]]) {
    let all = [header] + rows
    var widths = [Int](repeating: 0, count: header.count)
    for r in all { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
    func line(_ r: [String]) -> String {
        r.enumerated().map { i, c in
            let pad = String(repeating: " ", count: max(0, widths[i] - c.count))
            return i == 0 ? c + pad : pad + c
        }.joined(separator: "  ")
    }
    say(line(header))
    say(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "))
    for r in rows { say(line(r)) }
}

/// A target and whether this run met it.
struct Target: Codable {
    var what: String
    var value: Double
    var limit: Double
    var unit: String
    var pass: Bool
    var note: String?

    /// `atMost`: the value must not exceed the limit (else: must reach it).
    init(_ what: String, value: Double, limit: Double, unit: String, atMost: Bool = true, note: String? = nil) {
        self.what = what
        self.value = value
        self.limit = limit
        self.unit = unit
        self.note = note
        pass = value.isFinite && (atMost ? value <= limit : value >= limit)
    }

    var verdict: String { pass ? "PASS" : "MISS" }
}

func printTargets(_ targets: [Target], tiny: Bool) {
    say("targets\(tiny ? " (tiny run: sizes and windows too small to judge)" : ""):")
    for t in targets {
        say("  \(t.verdict)  \(t.what)\(t.note.map { ": " + $0 } ?? "")")
    }
}
