// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// `make run` (scripts/run-alarmd) without a session bus: the private bus it starts lives exactly as
/// long as alarmd, however alarmd is stopped.
@Suite(.serialized) struct RunScriptTests {
    /// A process as /proc shows it: its parent, its state letter (Z for a zombie) and its name.
    struct ProcInfo {
        let pid: pid_t, ppid: pid_t, state: Character, name: String
    }

    static func process(_ pid: pid_t) -> ProcInfo? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        guard rest.count > 2, let state = rest[0].first, let ppid = pid_t(rest[1]) else { return nil }
        return ProcInfo(pid: pid, ppid: ppid, state: state, name: String(stat[stat.index(after: open)..<close]))
    }

    static func children(of parent: pid_t) -> [ProcInfo] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) } ?? []
        return pids.compactMap(process).filter { $0.ppid == parent }
    }

    /// Running, not merely a zombie waiting for a parent to reap it.
    static func alive(_ pid: pid_t) -> Bool {
        guard let p = process(pid) else { return false }
        return p.state != "Z"
    }

    /// The script, started as a terminal would start it, with alarmd up on the private bus.
    struct Run {
        let script: ChildProcess
        let log: String
        let busDir: String
        let busPid: pid_t
        let alarmdPid: pid_t
    }

    func start(_ scratch: TempDir, environment: [String: String] = [:]) throws -> Run {
        var env = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        env["XDG_RUNTIME_DIR"] = "/nonexistent"
        env["ALARMD_BIN"] = Products.alarmd
        env["PULSE_SERVER"] = "unix:/nonexistent/pulse"
        env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/system_bus_socket"
        let log = scratch.path + "/run.log"
        let script = try ChildProcess(Products.sourceRoot + "/scripts/run-alarmd", ["--state-dir", scratch.path + "/state"],
                                      environment: env, stderrPath: log, ownProcessGroup: true)
        do {
            return try waitUntilUp(script, log: log)
        } catch {
            // The script's bus and daemon share its process group: none of them outlives the test.
            script.signalGroup(SIGKILL)
            throw error
        }
    }

    /// Waits until the script has printed its private bus and alarmd owns its name there.
    func waitUntilUp(_ script: ChildProcess, log: String) throws -> Run {
        var address = ""
        let printed = eventually(timeout: 20) {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.contains("export DBUS_SESSION_BUS_ADDRESS='") }) else { return false }
            address = String(line.split(separator: "'")[1])
            return true
        }
        try #require(printed, "run-alarmd printed no private bus address:\n\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let probe = try Client(address: address)
        try #require(eventually(timeout: 20) { probe.nameHasOwner(managerName) }, "alarmd did not take its name on the private bus")
        let children = Self.children(of: script.pid)
        let bus = try #require(children.first { $0.name == "dbus-daemon" }, "no dbus-daemon among \(children)")
        let alarmd = try #require(children.first { $0.name == "alarmd" }, "no alarmd among \(children)")
        // unix:path=/tmp/alarmd-bus.XXXXXX/bus,guid=…
        let socket = try #require(address.split(separator: ",").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        let busDir = (socket as NSString).deletingLastPathComponent
        #expect(busDir.hasPrefix("/tmp/alarmd-bus."), "unexpected bus address \(address)")
        return Run(script: script, log: log, busDir: busDir,
                   busPid: bus.pid, alarmdPid: alarmd.pid)
    }

    /// Whatever a failing run left behind goes, so that one failure does not pile up processes.
    func sweep(_ run: Run) {
        run.script.signalGroup(SIGKILL)
        if Self.alive(run.busPid) { kill(run.busPid, SIGKILL) }
        try? FileManager.default.removeItem(atPath: run.busDir)
    }

    func expectCleanedUp(_ run: Run, after what: String) {
        #expect(run.script.wait(timeout: 20) != nil, "run-alarmd did not end after \(what)")
        #expect(!Self.alive(run.alarmdPid), "alarmd still runs after \(what)")
        #expect(!Self.alive(run.busPid), "the private dbus-daemon still runs after \(what)")
        #expect(!FileManager.default.fileExists(atPath: run.busDir), "\(run.busDir) is left after \(what)")
    }

    /// `kill PID-OF-ALARMD`: alarmd ends cleanly, and so does the script, taking its bus along.
    @Test func sigtermToAlarmdTakesThePrivateBusAlong() throws {
        let scratch = TempDir("alarmd-run")
        let run = try start(scratch)
        defer { sweep(run) }
        // Run from the checkout, alarmd takes the checkout's own sounds and icons (installed, it finds
        // them where it is installed), and the script says which alarmctl to try.
        let cmdline = (FileManager.default.contents(atPath: "/proc/\(run.alarmdPid)/cmdline") ?? Data())
            .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(cmdline.contains("--sounds-dir") && cmdline.contains(Products.sourceRoot + "/sounds"), "\(cmdline)")
        #expect(cmdline.contains("--icons-dir") && cmdline.contains(Products.sourceRoot + "/data/icons"), "\(cmdline)")
        #expect(readText(run.log).contains("alarmctl timer 10s --title Tea"), "\(readText(run.log))")
        kill(run.alarmdPid, SIGTERM)
        expectCleanedUp(run, after: "SIGTERM to alarmd")
        #expect(run.script.exitStatus == 0, "make run fails after a clean stop: wait status \(run.script.exitStatus ?? -1)")
    }

    /// `make run` in a Vietnamese terminal: alarmd takes the shell's LANG and the catalogs `make`
    /// compiled into the checkout (`make locale`, which `make run` builds first), so what it shows a
    /// person is Vietnamese — here the standard Stop of a timer's presentation, read over the bus.
    @Test func itSpeaksTheShellsLanguageWithTheCheckoutsCatalogs() throws {
        let made = try runCommand("/usr/bin/make", ["-s", "-C", Products.sourceRoot, "locale"])
        try #require(made.status == 0, "make locale: \(made.err)")
        let scratch = TempDir("alarmd-run")
        var env = ["LANG": "vi_VN.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""]
        env["ALARMD_LOCALEDIR"] = ""   // the script's own default, the checkout's
        let run = try start(scratch, environment: env)
        defer { sweep(run) }
        let address = readText(run.log).split(separator: "\n").first { $0.contains("export DBUS_SESSION_BUS_ADDRESS='") }
            .map { String($0.split(separator: "'")[1]) } ?? ""
        let c = try Client(address: address)
        let timer = try c.schedule([("title", .string("Trà")), ("duration", .uint32(600))])
        let presentation = Dictionary(try c.property(timer, alarmInterface, "Presentation").unwrapped.vardictEntries ?? [],
                                      uniquingKeysWith: { a, _ in a })
        #expect(presentation["stop_button"]?.unwrapped == .string("Dừng") && presentation["pause_button"]?.unwrapped == .string("Tạm dừng"),
                "\(presentation)")
        kill(run.alarmdPid, SIGTERM)
        expectCleanedUp(run, after: "SIGTERM to alarmd")
    }

    /// Ctrl-C in the terminal: SIGINT to the whole foreground process group.
    @Test func ctrlCTakesThePrivateBusAlong() throws {
        let scratch = TempDir("alarmd-run")
        let run = try start(scratch)
        defer { sweep(run) }
        run.script.signalGroup(SIGINT)
        expectCleanedUp(run, after: "Ctrl-C")
        // Dying of SIGINT (not a plain error status) tells make and the shell it was interrupted.
        let status = run.script.exitStatus ?? 0
        #expect(status & 0x7f == SIGINT, "run-alarmd did not end by SIGINT: wait status \(status)")
    }
}
