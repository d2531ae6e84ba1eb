// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import Testing
import TestSupport

/// `make crash-test` in small: the harness (tools/crash/Harness) kills the built alarmd with SIGKILL at
/// seeded instants while four clients call it, and checks the restarted store against every answer
/// and every ring. Here a dozen kills must find nothing; and a store that loses an acknowledged
/// alarm behind alarmd's back must be caught by the same run, so a pass means something.
@Suite(.serialized) struct CrashConsistencyTests {
    /// Runs alarmd-crash with `args`; its exit status and what it printed.
    func crashRun(_ args: [String]) throws -> (status: Int32, out: String) {
        let dir = TempDir("alarmd-crash-test")
        let log = dir.path + "/out"
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Its own process group: on a hang its bus and alarmd go with it.
        let run = try ChildProcess(Products.tool("alarmd-crash"), args + ["--alarmd", Products.alarmd],
                                   stdoutPipe: fd, stderrPath: log, ownProcessGroup: true)
        close(fd)
        let status = run.wait(timeout: 300)
        if status == nil { run.signalGroup(SIGKILL) }
        return (status.map { ($0 >> 8) & 0xff } ?? -1, readText(log))
    }

    /// The number the summary gives for `what` (its first number).
    func figure(_ out: String, _ what: String) -> Int? {
        out.split(separator: "\n").first { $0.hasPrefix("  " + what + " ") }?
            .dropFirst(2 + what.count).split(separator: " ").first.flatMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
    }

    static var seed: String { ProcessInfo.processInfo.environment["ALARMD_TEST_SEED"] ?? "20251201" }

    @Test func killedAtRandomInstantsAlarmdLosesNoAnswerAndRingsNothingTwice() throws {
        print("CrashConsistencyTests: seed \(Self.seed) (ALARMD_TEST_SEED=n replays another)")
        let (status, out) = try crashRun(["--rounds", "12", "--seed", Self.seed])
        #expect(status == 0, "\(out)")
        #expect(figure(out, "violations") == 0, "\(out)")
        #expect(figure(out, "rounds") == 12)
        // The run exercised what it claims to check.
        #expect((figure(out, "acknowledged") ?? 0) > 1_000, "\(out)")
        #expect((figure(out, "in flight at a kill") ?? 0) > 10, "\(out)")
        #expect((figure(out, "rings announced") ?? 0) > 5, "\(out)")
        #expect((figure(out, "stops / snoozes acknowledged") ?? 0) > 0, "\(out)")
        #expect((figure(out, "checks passed") ?? 0) > (figure(out, "acknowledged") ?? 0), "\(out)")
        #expect(figure(out, "integrity checks") == 14, "one per start: the first, one per round, one after SIGTERM")
        #expect(out.contains("after SIGTERM and a clean start: ok"), "\(out)")
    }

    @Test func aStoreThatLosesAnAcknowledgedAlarmIsCaught() throws {
        let (status, out) = try crashRun(["--rounds", "3", "--seed", Self.seed, "--test-drop-acknowledged", "2"])
        // A run that finds something keeps its work directory for reading: this one is expected.
        if let kept = out.split(separator: "\n").first(where: { $0.hasPrefix("kept: ") })?.dropFirst(6).split(separator: " ").first {
            try? FileManager.default.removeItem(atPath: String(kept))
        }
        #expect(out.contains("test: deleted the acknowledged alarm"), "\(out)")
        #expect(status == 1, "\(out)")
        #expect(out.contains("round 2: lost acknowledged operation:"), "\(out)")
        #expect(figure(out, "violations") == 1, "\(out)")
        #expect(out.contains("replay: alarmd-crash --seed \(Self.seed) --rounds 2"), "\(out)")
    }
}
