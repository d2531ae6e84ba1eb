// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import Testing
import TestSupport

/// `make bench` cannot rot: the benchmark runs here in its tiny mode (50 alarms, 2 workers, windows
/// of 0.5–1 s) against the debug build and must finish and write every figure. Nothing about its
/// timings is checked: they mean nothing at that size, and the machine is shared.
@Suite struct BenchSmokeTests {
    @Test func tinyRunWritesEveryFigure() throws {
        let dir = TempDir("alarmd-bench-smoke")
        let out = dir.path + "/results.json", log = dir.path + "/bench.log"
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Its own process group: on a hang every bus, daemon and worker it started goes with it.
        let bench = try ChildProcess(Products.tool("alarmd-bench"), ["--tiny", "--out", out, "--alarmd", Products.alarmd],
                                     stdoutPipe: fd, stderrPath: log, ownProcessGroup: true)
        close(fd)
        let status = bench.wait(timeout: 600)
        if status == nil { bench.signalGroup(SIGKILL) }
        let printed = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try #require(status == 0, "alarmd-bench --tiny failed (status \(String(describing: status))):\n\(printed)")

        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object:\n\(printed)")
        #expect(json["complete"] as? Bool == true)
        #expect((json["errors"] as? [Any])?.isEmpty == true)
        #expect(json["seed"] is NSNumber)
        #expect((json["machine"] as? [String: Any])?["nproc"] is NSNumber)

        let f1 = try #require(json["figure1"] as? [String: Any])
        let rows1 = try #require(f1["rows"] as? [[String: Any]])
        #expect(rows1.count == 3)
        for r in rows1 {
            // schedule_ram: the twin alarmd with its store on tmpfs (this machine has /dev/shm).
            for call in ["ping", "schedule", "schedule_ram"] {
                let c = try #require(r[call] as? [String: Any], "figure1.\(call)")
                #expect((c["calls"] as? Int ?? 0) > 0, "\(call) made no calls")
                #expect(c["latency"] is [String: Any])
                #expect((c["alarmd_cpu_us_per_call"] as? Double ?? 0) > 0, "\(call): alarmd's CPU measured")
            }
            #expect(r["ratio"] != nil && r["target"] is [String: Any])
        }

        let f2 = try #require(json["figure2"] as? [String: Any])
        for key in ["alarmd", "timerfd", "ping_rtt"] { #expect(f2[key] is [String: Any], "figure2.\(key)") }
        #expect(f2["bus_hop_us"] != nil && (f2["targets"] as? [Any])?.count == 3)

        let f3 = try #require(json["figure3"] as? [String: Any])
        for key in ["pending", "empty"] {
            let idle = try #require(f3[key] as? [String: Any], "figure3.\(key)")
            #expect(idle["wakeups"] is Int && idle["threads"] is Int)
        }
        #expect(f3["alarms_pending"] as? Int == 25)

        let f4 = try #require(json["figure4"] as? [String: Any])
        let rows4 = try #require(f4["rows"] as? [[String: Any]])
        #expect(rows4.map { $0["size"] as? Int } == [10, 25, 50])
        for r in rows4 {
            // Every alarm read back, by GetAlarms and by its pages.
            #expect(r["get_alarms_count"] as? Int == r["size"] as? Int)
            #expect(r["pages_count"] as? Int == r["size"] as? Int)
            for key in ["schedule", "cancel", "store", "restart_s", "rss_kib", "stop_s"] { #expect(r[key] != nil, "figure4.\(key)") }
            // Memory at every phase: a peak is never below what was resident when its window closed.
            for key in ["rss_after_fill_kib", "peak_fill_kib", "peak_get_alarms_kib", "peak_pages_kib", "peak_default_pages_kib", "peak_restart_kib", "rss_idle_kib"] {
                #expect((r[key] as? Int ?? 0) > 0, "figure4.\(key)")
            }
            #expect((r["peak_fill_kib"] as? Int ?? 0) >= (r["rss_after_fill_kib"] as? Int ?? .max))
            #expect((r["peak_restart_kib"] as? Int ?? 0) >= (r["rss_after_restart_kib"] as? Int ?? .max))
            // SIGTERM: a clean exit that closed the store.
            #expect(r["stop_exit_code"] as? Int == 0 && r["wal_after_stop"] as? Int == 0)
        }
        #expect(f4["empty_rss_kib"] is Int && (f4["targets"] as? [Any])?.count == 6)
        // The floor beside it, measured in the same run, and the sizes of what was built.
        #expect((f4["floor_rss_kib"] as? Int ?? 0) > 0, "alarmd-floor ran beside alarmd")
        let sizes = try #require(f4["binary_bytes"] as? [String: Any])
        #expect(Set(sizes.keys) == ["alarmd", "alarmctl", "alarmd-floor"] && sizes.values.allSatisfy { ($0 as? Int ?? 0) > 0 })

        let f5 = try #require(json["figure5"] as? [String: Any])
        #expect((f5["rows"] as? [Any])?.count == 2 && (f5["memory"] as? [Any])?.count == 2)

        let f6 = try #require(json["figure6"] as? [String: Any])
        for phase in ["idle", "loaded"] {
            let p = try #require(f6[phase] as? [String: Any], "figure6.\(phase)")
            for key in ["alarmd", "timerfd", "timerfd_via_bus"] { #expect(p[key] is [String: Any], "figure6.\(phase).\(key)") }
        }

        // Every figure printed beside its baseline.
        for heading in ["Figure 1", "Figure 2", "Figure 3", "Figure 4", "Figure 5", "Figure 6", "Ping (baseline)", "timerfd in subscriber (baseline)",
                        "empty store (baseline)", "alarmd-floor", "binaries: alarmd", "timerfd in a helper process (baseline)", "targets"] {
            #expect(printed.contains(heading), "output lacks \(heading)")
        }
    }
}
