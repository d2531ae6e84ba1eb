// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import TestSupport

// Figure 5 (extra): the core engine in-process, no bus, no disk. Scheduling and cancelling cost as
// the number of alarms grows, against the smallest size; resident bytes per alarm held by the
// engine, each size in a fresh process, against the smaller one.

struct Figure5: Codable {
    struct Row: Codable {
        var alarms: Int
        var schedule_us: Double
        var cancel_us: Double
        var due_check_us: Double
    }
    struct Memory: Codable {
        var alarms: Int
        var bytes_per_alarm: Double
    }
    var probes: Int
    var rows: [Row]
    var memory: [Memory]
    /// Bytes of one `Alarm` value held inline (the engine's `[String: Alarm]` keeps one per bucket).
    var alarm_stride_bytes: Int
}

private let coreClock = ManualClock(1_772_442_000 * usecPerSecond)

private func coreConfig(_ i: Int) -> [String: Value] {
    ["title": .string("bench \(i)"), "duration": .uint32(UInt32(60 + (i * 7919) % 86_000))]
}

private func measureCore(size: Int, probes: Int) -> Figure5.Row {
    let engine = AlarmEngine(clock: coreClock, timeZone: .utc)
    for i in 0..<size {
        engine.apply(try! engine.plan(.schedule(id: "", configuration: coreConfig(i)), caller: .user))
    }
    var ids: [String] = []
    ids.reserveCapacity(probes)
    let t0 = monoUSec()
    for i in 0..<probes {
        let m = try! engine.plan(.schedule(id: "", configuration: coreConfig(size + i)), caller: .user)
        engine.apply(m)
        ids.append(m.upserts[0].id)
    }
    let t1 = monoUSec()
    for id in ids { engine.apply(try! engine.plan(.cancel(id: id), caller: .user)) }
    let t2 = monoUSec()
    // Finding what is due must not scan every alarm: nothing is due at the start.
    for _ in 0..<probes { _ = try! engine.plan(.due, caller: .user) }
    let t3 = monoUSec()
    precondition(engine.count == size)
    let p = Double(probes)
    return .init(alarms: size, schedule_us: Double(t1 - t0) / p, cancel_us: Double(t2 - t1) / p, due_check_us: Double(t3 - t2) / p)
}

/// `--memory N`: resident bytes per alarm for an engine holding N alarms (run in a fresh process).
func coreMemoryChild(_ n: Int) -> Int32 {
    func resident() -> Int {
        let statm = procFile("/proc/self/statm").split(separator: " ")
        return (statm.count > 1 ? Int(statm[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
    let before = resident()
    let engine = AlarmEngine(clock: coreClock, timeZone: .utc)
    for i in 0..<n { engine.apply(try! engine.plan(.schedule(id: "", configuration: coreConfig(i)), caller: .user)) }
    say(String(Double(resident() - before) / Double(n)))
    withExtendedLifetime(engine) {}
    return 0
}

func figure5(_ cfg: BenchConfig, work: String) throws -> Figure5 {
    say("")
    say("── Figure 5 (extra): the core engine in-process, no bus, no disk (ratios against the smallest size) ──")
    let probes = cfg.tiny ? 200 : 5_000
    let sizes = cfg.tiny ? [100, 1_000] : [1_000, 10_000, 100_000]
    _ = measureCore(size: sizes[0], probes: probes) // warm-up
    var rows: [Figure5.Row] = []
    for n in sizes {
        try ChildRegistry.check()
        rows.append(measureCore(size: n, probes: probes))
    }
    var memory: [Figure5.Memory] = []
    for n in cfg.tiny ? [1_000, 2_000] : [10_000, 100_000] {
        let path = "\(work)/memory-\(n)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let child = try Child(selfPath, ["--memory", String(n)], stdoutPipe: fd)
        close(fd)
        while child.wait(timeout: 0.05) == nil { try ChildRegistry.check() }
        memory.append(.init(alarms: n, bytes_per_alarm: Double(procFile(path).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan))
    }
    let b = rows[0]
    printTable(["alarms", "schedule", "× base", "cancel", "× base", "due check", "× base"], rows.map { r in
        [grouped(r.alarms), String(format: "%.2f µs", r.schedule_us), ratio(r.schedule_us, b.schedule_us),
         String(format: "%.2f µs", r.cancel_us), ratio(r.cancel_us, b.cancel_us),
         String(format: "%.3f µs", r.due_check_us), ratio(r.due_check_us, b.due_check_us)]
    })
    say(String(format: "O(log n) from %@ to %@ alarms predicts at most ×%.2f (plus cache effects); O(n) would be ×%.0f.",
               grouped(sizes[0]), grouped(sizes.last!), log2(Double(sizes.last!)) / log2(Double(sizes[0])),
               Double(sizes.last!) / Double(sizes[0])))
    printTable(["alarms", "resident bytes/alarm", "× base"], memory.map { m in
        [grouped(m.alarms), String(format: "%.0f", m.bytes_per_alarm), ratio(m.bytes_per_alarm, memory[0].bytes_per_alarm)]
    })
    let stride = MemoryLayout<Alarm>.stride
    say("an Alarm value is \(stride) bytes inline (MemoryLayout<Alarm>.stride), before its strings and dictionaries")
    return Figure5(probes: probes, rows: rows, memory: memory, alarm_stride_bytes: stride)
}
