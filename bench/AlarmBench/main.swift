import AlarmCore
import Foundation
import Glibc
import TestSupport

// Scheduling and cancelling cost as the number of alarms grows. Figures are ratios against the
// smallest size measured in the same run: absolute times on shared machines mean little.

func nowSeconds() -> Double { Date().timeIntervalSince1970 }

let clock = ManualClock(1_772_442_000 * usecPerSecond)
let probes = 5_000

func config(_ i: Int) -> [String: Value] {
    ["title": .string("bench \(i)"), "duration": .uint32(UInt32(60 + (i * 7919) % 86_000))]
}

func measure(size: Int) -> (schedule: Double, cancel: Double, due: Double) {
    let engine = AlarmEngine(clock: clock, timeZone: TimeZone(identifier: "UTC")!)
    for i in 0..<size {
        engine.apply(try! engine.planSchedule(app: "", id: "", configuration: config(i)))
    }
    var ids: [String] = []
    ids.reserveCapacity(probes)
    let t0 = nowSeconds()
    for i in 0..<probes {
        let m = try! engine.planSchedule(app: "", id: "", configuration: config(size + i))
        engine.apply(m)
        ids.append(m.upserts[0].id)
    }
    let t1 = nowSeconds()
    for id in ids { engine.apply(try! engine.planCancel(app: "", id: id)) }
    let t2 = nowSeconds()
    // Finding what is due must not scan every alarm: nothing is due at the start.
    for _ in 0..<probes { _ = engine.planDue() }
    let t3 = nowSeconds()
    precondition(engine.count == size)
    let us = 1e6 / Double(probes)
    return ((t1 - t0) * us, (t2 - t1) * us, (t3 - t2) * us)
}

func residentBytes() -> Int {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
    return (Int(statm.split(separator: " ")[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

if let i = CommandLine.arguments.firstIndex(of: "--memory"), let n = Int(CommandLine.arguments[i + 1]) {
    let before = residentBytes()
    let engine = AlarmEngine(clock: clock, timeZone: TimeZone(identifier: "UTC")!)
    for i in 0..<n { engine.apply(try! engine.planSchedule(app: "", id: "", configuration: config(i))) }
    print(Double(residentBytes() - before) / Double(n))
    withExtendedLifetime(engine) {}
    exit(0)
}

_ = measure(size: 1_000) // warm-up
let sizes = [1_000, 10_000, 100_000]
var base: (schedule: Double, cancel: Double, due: Double)?
print("alarms    schedule µs/op (×base)   cancel µs/op (×base)   planDue µs (×base)")
for n in sizes {
    let r = measure(size: n)
    let b = base ?? r
    base = b
    print(String(format: "%7d    %8.2f (×%.2f)          %8.2f (×%.2f)        %8.3f (×%.2f)",
                 n, r.schedule, r.schedule / b.schedule, r.cancel, r.cancel / b.cancel, r.due, r.due / b.due))
}
print("O(log n) from 1,000 to 100,000 alarms predicts at most ×\(String(format: "%.2f", log2(100_000.0) / log2(1_000.0))) (plus cache effects); O(n) would be ×100.")

// Memory: resident bytes per alarm held by the engine (model, configuration, both deadline indexes),
// each size measured in a fresh process so freed memory of other runs cannot hide growth; against
// the same figure at 10,000 alarms. Flat means memory grows linearly with the alarm count.
print("")
print("alarms    resident bytes/alarm (×base)")
var memoryBase: Double?
for n in [10_000, 100_000] {
    let out = TempDir("alarmd-bench-mem")
    let fd = open(out.path + "/out", O_WRONLY | O_CREAT, 0o644)
    let child = try ChildProcess(CommandLine.arguments[0], ["--memory", String(n)], stdoutPipe: fd)
    child.wait(timeout: 120)
    close(fd)
    let b = Double((try? String(contentsOfFile: out.path + "/out", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .nan
    memoryBase = memoryBase ?? b
    print(String(format: "%7d    %8.0f (×%.2f)", n, b, b / memoryBase!))
}

// The same daemon the user runs: the release alarmd beside this benchmark.
let alarmdPath = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/alarmd"
if FileManager.default.isExecutableFile(atPath: alarmdPath) {
    try busBench(alarmd: alarmdPath)
} else {
    print("(no alarmd beside the benchmark: build it with `swift build -c release` for the bus figures)")
}
