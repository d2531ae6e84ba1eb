// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import TestSupport

// alarmd-bench: `make bench` (tools/bench/run). Every figure beside a baseline measured in the same run
// (the machines are shared and noisy, absolute figures mean little), its ratio, and its target.
// See BenchConfig.usage; worker processes are this program again (`--worker`).

struct Machine: Codable {
    var nproc: Int
    var cpu: String
    var kernel: String
    var memory_mib: Int
    var load_average: String

    static func current() -> Machine {
        let cpu = procFile("/proc/cpuinfo").split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "?"
        var u = utsname()
        uname(&u)
        let kernel = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let mem = (statusField(procFile("/proc/meminfo"), "MemTotal") ?? 0) / 1024
        return Machine(nproc: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpu: cpu, kernel: kernel, memory_mib: mem,
                       load_average: procFile("/proc/loadavg").split(separator: " ").prefix(3).joined(separator: " "))
    }
}

struct Report: Codable {
    var date: String
    var label: String
    var machine: Machine
    var seed: UInt64
    var tiny: Bool
    var alarmd: String
    var arguments: [String]
    var figure1: Figure1?
    var figure2: Figure2?
    var figure3: Figure3?
    var figure4: Figure4?
    var figure5: Figure5?
    var figure6: Figure6?
    var errors: [String] = []
    var duration_s: Double = 0
    var complete = false
}

func write(_ report: Report, to path: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    // NaN and infinities (a figure that could not be measured) become strings rather than failing.
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    do {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try encoder.encode(report).write(to: URL(fileURLWithPath: path))
    } catch {
        say("cannot write \(path): \(error)")
    }
}

func benchMain(_ args: [String]) -> Int32 {
    if args.first == "--worker", args.count >= 2 {
        do {
            switch args[1] {
            case "call": return try Worker.call(Array(args.dropFirst(2)))
            case "fill": return try Worker.fill(Array(args.dropFirst(2)))
            case "timerfd": return try Worker.timerfd(Array(args.dropFirst(2)))
            default: throw BenchError("unknown worker \(args[1])")
            }
        } catch {
            FileHandle.standardError.write(Data("alarmd-bench worker: \(error)\n".utf8))
            return 1
        }
    }
    if args.first == "--memory", args.count == 2, let n = Int(args[1]) { return coreMemoryChild(n) }

    let cfg: BenchConfig
    do { cfg = try BenchConfig.parse(args) } catch {
        say("\(error)")
        return 2
    }
    guard FileManager.default.isExecutableFile(atPath: cfg.alarmd) else {
        say("no alarmd at \(cfg.alarmd): build it (swift build -c release --product alarmd) or pass --alarmd PATH")
        return 2
    }
    ChildRegistry.installHandlers([SIGINT, SIGTERM, SIGHUP], then: .unwind)
    let started = monoUSec()
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    var report = Report(date: formatter.string(from: Date()), label: cfg.label, machine: .current(), seed: cfg.seed, tiny: cfg.tiny,
                        alarmd: cfg.alarmd, arguments: args)
    say("alarmd-bench \(cfg.tiny ? "--tiny (checks that the benchmark runs; its figures mean nothing) " : "")seed \(cfg.seed) (--seed N repeats a run)")
    say("machine: \(report.machine.nproc) CPUs (\(report.machine.cpu)), Linux \(report.machine.kernel), load \(report.machine.load_average)")
    say("alarmd: \(cfg.alarmd); results: \(cfg.out)")

    var failed = false
    // Everything the run creates lives under one directory, removed at the end (and on Ctrl-C).
    do {
        let work = TempDir("alarmd-bench")
        if cfg.keep { say("work directory (kept): \(work.path)") }
        defer {
            if cfg.keep {
                // TempDir removes its directory; a kept one is moved out of its way first.
                let kept = work.path + "-kept"
                try? FileManager.default.moveItem(atPath: work.path, toPath: kept)
                say("kept: \(kept)")
            }
        }
        func step(_ n: Int, _ body: () throws -> Void) {
            guard cfg.figures.contains(n), ChildRegistry.interrupted == 0 else { return }
            do { try body() } catch {
                failed = true
                report.errors.append("figure \(n): \(error)")
                say("figure \(n) failed: \(error)")
            }
            report.duration_s = Double(monoUSec() - started) / 1e6
            write(report, to: cfg.out)
        }
        step(1) { report.figure1 = try figure1(cfg, work: work.path) }
        step(2) { report.figure2 = try figure2(cfg, work: work.path) }
        if cfg.figures.contains(3) || cfg.figures.contains(4) {
            step(cfg.figures.contains(4) ? 4 : 3) {
                let (f3, f4) = try figures34(cfg, work: work.path, want3: cfg.figures.contains(3), want4: cfg.figures.contains(4))
                report.figure3 = f3
                report.figure4 = f4
            }
        }
        step(5) { report.figure5 = try figure5(cfg, work: work.path) }
        step(6) { report.figure6 = try figure6(cfg, work: work.path) }
    }
    report.duration_s = Double(monoUSec() - started) / 1e6
    report.complete = !failed && ChildRegistry.interrupted == 0
    write(report, to: cfg.out)
    say("")
    say(String(format: "done in %.0f s%@; results in %@", report.duration_s, failed ? " with errors" : "", cfg.out))
    if ChildRegistry.interrupted != 0 { return 128 + ChildRegistry.interrupted }
    return failed ? 1 : 0
}

exit(benchMain(Array(CommandLine.arguments.dropFirst())))
