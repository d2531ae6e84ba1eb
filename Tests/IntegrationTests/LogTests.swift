// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import TestSupport
import Testing

/// alarmd's log as people read it: plain lines (priority in words) on a terminal or in a file, the
/// journal's `<N>` priority prefixes only when its stderr is the journal stream systemd names.
@Suite(.serialized) struct LogTests {
    /// alarmd's start-up log, with `JOURNAL_STREAM` naming the log file itself (`match`), another
    /// stream (a variable inherited from a parent whose stderr was the journal), or unset.
    func startLog(journalStream: (String) -> String?) throws -> String {
        let bus = try TestBus()
        let state = TempDir("alarmd-log")
        let log = state.path + "/state/alarmd.log"
        try FileManager.default.createDirectory(atPath: state.path + "/state", withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: log, contents: nil))
        var st = stat()
        try #require(stat(log, &st) == 0)
        var env: [String: String] = [:]
        env["JOURNAL_STREAM"] = journalStream("\(st.st_dev):\(st.st_ino)")
        let daemon = try DaemonProcess(bus: bus, stateDir: state.path + "/state", environment: env)
        // Up to the line that says it is ready, and one at warning priority: no system bus here.
        #expect(daemon.logs("ready: ") && daemon.logs("no system bus"))
        daemon.process.stop()
        return readText(log)
    }

    @Test func plainLinesOnATerminalOrAFile() throws {
        for stream in [{ (_: String) -> String? in nil }, { (_: String) -> String? in "8:1234" }] {
            let log = try startLog(journalStream: stream)
            let lines = log.split(separator: "\n")
            #expect(!lines.isEmpty, "alarmd said nothing at start-up")
            #expect(lines.allSatisfy { $0.hasPrefix("alarmd: ") }, "\(log)")
            #expect(!log.contains("<6>") && !log.contains("<4>") && !log.contains("<3>"), "\(log)")
            #expect(lines.contains { $0.hasPrefix("alarmd: warning: no system bus") }, "the priority in words: \(log)")
        }
    }

    @Test func journalPrioritiesWhenStderrIsTheJournal() throws {
        let log = try startLog { $0 }
        let lines = log.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("<6>alarmd: ") || $0.hasPrefix("<4>alarmd: ") || $0.hasPrefix("<3>alarmd: ") }, "\(log)")
        #expect(lines.contains { $0.hasPrefix("<6>alarmd: ready: ") } && lines.contains { $0.hasPrefix("<4>alarmd: no system bus") }, "\(log)")
    }
}
