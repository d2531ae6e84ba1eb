// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import Testing
import TestSupport

/// Issue #20's proof: AlarmCore's zones against glibc's `localtime_r`/`mktime`, both directions, for
/// every TZif file under /usr/share/zoneinfo, around every transition from 1970 to 2100 and at seeded
/// random instants (alarmd-zone-oracle, in its own processes because `TZ` is process-wide).
@Suite struct ZoneOracleTests {
    @Test func everyZoneAgreesWithGlibc() throws {
        let dir = TempDir("alarmd-zone-oracle")
        let log = dir.path + "/oracle.log"
        let seed = ProcessInfo.processInfo.environment["ALARMD_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let oracle = try ChildProcess(Products.tool("alarmd-zone-oracle"), ["--seed", "\(seed)"],
                                      stdoutPipe: fd, stderrPath: log, ownProcessGroup: true)
        close(fd)
        let status = oracle.wait(timeout: 300)
        if status == nil { oracle.signalGroup(SIGKILL) }
        let printed = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        print("ZoneOracleTests (ALARMD_TEST_SEED=\(seed) replays it): " + (printed.split(separator: "\n").last.map(String.init) ?? ""))
        #expect(status == 0, "differences from glibc:\n\(printed)")
        let summary = try #require(printed.split(separator: "\n").last { $0.hasPrefix("zones ") }, "\(printed)")
        let zones = Int(summary.split(separator: " ")[1].dropLast()) ?? 0
        #expect(zones > 300, "every zone of the database compared: \(summary)")
        #expect(summary.contains("differences 0,"))
    }
}
