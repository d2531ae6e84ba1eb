// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// The ringing alarm above the Plasma lock screen: alarmd itself starts `alarmd-lockscreen-alert
/// --alarm ID` (here a stand-in named by `ALARMD_LOCKSCREEN_ALERT`, which appends its arguments to a
/// file) once per alerting episode while `org.freedesktop.ScreenSaver` at `/ScreenSaver` says the screen
/// is locked (the test peer, whose lock the test sets: `GetActive`, `ActiveChanged`). An alarmd
/// without `WAYLAND_DISPLAY` (started before the session) gives the program the session's variables
/// from the systemd user manager's `Environment` (the test peer's stand-in for `systemd --user`).
@Suite(.serialized) struct LockScreenAlertTests {
    /// A Harness whose alarmd starts the stand-in, and the file the stand-in writes.
    struct Setup {
        let h: Harness
        let starts: String
        let program: String

        /// `environment`: more of alarmd's environment (which has no `WAYLAND_DISPLAY` unless given here).
        init(exitStatus: Int32 = 0, program given: String? = nil, environment: [String: String] = [:]) throws {
            let dir = TempDir("alarmd-lock-alert")
            let starts = dir.path + "/starts"
            let program = given ?? dir.path + "/alarmd-lockscreen-alert"
            if given == nil {
                // Its environment first (env-ID, the last start's for that alarm), then the line a test waits for.
                try writeExecutable("#!/bin/sh\nenv > '\(dir.path)/env-'\"$2\"\nprintf '%s\\n' \"$*\" >> '\(starts)'\nexit \(exitStatus)\n",
                                    to: program)
            }
            h = try Harness(environment: ["ALARMD_LOCKSCREEN_ALERT": program].merging(environment) { _, new in new })
            self.starts = starts
            self.program = program
            directory = dir
        }

        private let directory: TempDir

        /// What the stand-in was started with, one line per start.
        var lines: [String] { readText(starts).split(separator: "\n").map(String.init) }

        /// The environment of the stand-in's last start for `alarm`, by name.
        func environment(of alarm: String) -> [String: String] {
            var out: [String: String] = [:]
            for line in readText(directory.path + "/env-" + alarm).split(separator: "\n") {
                guard let eq = line.firstIndex(of: "=") else { continue }
                out[String(line[..<eq])] = String(line[line.index(after: eq)...])
            }
            return out
        }

        /// A systemd user manager on the bus (the test peer's), whose `Environment` starts as `environment`.
        func systemdManager(_ environment: [String: String]) throws -> PeerProcess {
            try PeerProcess(address: h.bus.address, role: ["--systemd-manager"], name: "org.freedesktop.systemd1",
                            log: h.state.path + "/systemd-\(UUID().uuidString).log", environment: environment)
        }

        /// As startplasma exports the session: `SetEnvironment` on the manager.
        func setEnvironment(_ manager: PeerProcess, _ assignments: [String]) throws {
            try manager.client.bus.call(manager.name, "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "SetEnvironment",
                                        [.strings(assignments)])
        }

        func environmentReads(_ manager: PeerProcess) throws -> UInt32 {
            let r = try manager.client.bus.call(manager.name, "/org/freedesktop/systemd1", "org.alarmd.TestSystemdManager", "EnvironmentReads")
            if case .uint32(let n)? = r.first { return n }
            return 0
        }

        /// alarmd's own environment, as the kernel has it.
        var daemonEnvironment: [String: String] {
            var out: [String: String] = [:]
            for entry in readText("/proc/\(h.daemon.process.pid)/environ").split(separator: "\0") {
                guard let eq = entry.firstIndex(of: "=") else { continue }
                out[String(entry[..<eq])] = String(entry[entry.index(after: eq)...])
            }
            return out
        }

        /// Waits until the stand-in has run `count` times; returns its lines.
        func waitForStarts(_ count: Int) -> [String] {
            _ = eventually(timeout: 10, pumping: h.client) { lines.count >= count }
            return lines
        }

        /// The test screen saver at KDE's path; `locked`: GetActive says true from the start. Returns once
        /// alarmd has asked it and has its answer (the reply reached alarmd before the barrier's Ping).
        func screenSaver(locked: Bool) throws -> PeerProcess {
            let saver = try PeerProcess(address: h.bus.address, role: ["--screensaver", "/ScreenSaver"] + (locked ? ["--locked"] : []),
                                        name: "org.freedesktop.ScreenSaver", log: h.state.path + "/screensaver-\(UUID().uuidString).log")
            #expect(try eventually(pumping: h.client) { try asked(saver) >= 1 }, "alarmd asks GetActive when the screen saver appears")
            try h.client.barrier()
            return saver
        }

        func setActive(_ saver: PeerProcess, _ active: Bool) throws {
            try saver.client.bus.call(saver.name, "/org/alarmd/TestScreenSaver", "org.alarmd.TestScreenSaver", "SetActive", [.bool(active)])
            // The signal went out before the reply, and reaches alarmd before this Ping.
            try h.client.barrier()
        }

        func asked(_ saver: PeerProcess) throws -> UInt32 {
            let r = try saver.client.bus.call(saver.name, "/org/alarmd/TestScreenSaver", "org.alarmd.TestScreenSaver", "GetActiveCalls")
            if case .uint32(let n)? = r.first { return n }
            return 0
        }

        /// A timer of one second that rings; its id once it is alerting.
        func ring(_ title: String, _ more: [(String, Value)] = []) throws -> String {
            let path = try h.client.schedule([("title", .string(title)), ("duration", .uint32(1))] + more)
            #expect(h.client.waitForState(path, "alerting", timeout: 10), "\(title) rings")
            return AlarmID.id(fromPath: path)!
        }

        /// Children of alarmd that ended and were not reaped.
        func zombies() -> [String] {
            let pid = h.daemon.process.pid
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.filter { Int32($0) != nil }.compactMap { entry in
                let stat = readText("/proc/\(entry)/stat")
                // pid (comm) state ppid …: the fields after the command's closing parenthesis.
                guard let close = stat.lastIndex(of: ")") else { return nil }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 1 && fields[0] == "Z" && Int32(fields[1]) == pid ? entry : nil
            }
        }
    }

    @Test func lockedRingingStartsOneAlertPerEpisode() throws {
        let s = try Setup()
        let saver = try s.screenSaver(locked: true)
        let tea = try s.ring("Tea", [("post_alert", .uint32(1))])
        #expect(s.waitForStarts(1) == ["--alarm \(tea)"])
        #expect(s.h.daemon.logs("lock-screen alert for alarm \(tea) started (pid "))
        // Still the same episode: changed while ringing, then a second alarm rings, which starts its own.
        try s.h.client.call("Update", [.string(tea), .vardict([("title", .string("Tea!"))]), .strings([])])
        let egg = try s.ring("Egg")
        #expect(s.waitForStarts(2) == ["--alarm \(tea)", "--alarm \(egg)"], "one start per alarm, none for the change")
        // A new episode of the same alarm (snoozed, ringing again) starts it again.
        try s.h.client.call("Countdown", [.string(tea)])
        #expect(s.h.client.waitForState(AlarmID.path(of: tea), "alerting", nth: 2, timeout: 10))
        #expect(s.waitForStarts(3) == ["--alarm \(tea)", "--alarm \(egg)", "--alarm \(tea)"])
        #expect(try s.asked(saver) == 1, "the lock is followed by its signal, never polled")
        #expect(eventually { s.zombies().isEmpty }, "every ended alert is reaped")
    }

    @Test func unlockedStartsNoneAndLockingStartsOnce() throws {
        let s = try Setup()
        var saver: PeerProcess? = try s.screenSaver(locked: false)
        let tea = try s.ring("Tea", [("post_alert", .uint32(1))])
        try s.h.client.barrier()
        #expect(s.h.daemon.logs("alarm \(tea) (app '') is alerting"), "positive control: it rings")
        #expect(s.lines.isEmpty, "no alert while the screen is unlocked")
        // The screen locks while it rings: one start.
        try s.setActive(saver!, true)
        #expect(s.waitForStarts(1) == ["--alarm \(tea)"])
        // Unlocked and locked again in the same episode: no second window; a second alarm still starts one.
        try s.setActive(saver!, false)
        try s.setActive(saver!, true)
        let egg = try s.ring("Egg")
        #expect(s.waitForStarts(2) == ["--alarm \(tea)", "--alarm \(egg)"])
        // The screen saver restarts (its owner changes) and says locked: the same episodes, no new start.
        let name = saver!.name
        saver = nil
        #expect(eventually { !s.h.client.nameHasOwner(name) })
        saver = try s.screenSaver(locked: true)
        try s.h.client.call("Stop", [.string(egg)])
        try s.h.client.call("Countdown", [.string(tea)])
        #expect(s.h.client.waitForState(AlarmID.path(of: tea), "alerting", nth: 2, timeout: 10))
        #expect(s.waitForStarts(3) == ["--alarm \(tea)", "--alarm \(egg)", "--alarm \(tea)"], "only the new episode starts one")
        withExtendedLifetime(saver) {}
    }

    @Test func noScreenSaverStartsNothingQuietly() throws {
        let s = try Setup()
        let tea = try s.ring("Tea")
        try s.h.client.barrier()
        #expect(s.h.daemon.logs("alarm \(tea) (app '') is alerting"), "positive control: it rings")
        #expect(s.lines.isEmpty)
        #expect(!s.h.daemon.logs("lock-screen alert", timeout: 0.5))
        #expect(!s.h.daemon.log.contains("GetActive"), "an absent screen saver is not worth a log line")
    }

    @Test func missingProgramIsSaidOnce() throws {
        let s = try Setup(program: "/nonexistent/alarmd-lockscreen-alert")
        let saver = try s.screenSaver(locked: true)
        let tea = try s.ring("Tea")
        #expect(s.h.daemon.logs("there is no lock-screen alert at /nonexistent/alarmd-lockscreen-alert"))
        _ = try s.ring("Egg")
        try s.h.client.barrier()
        #expect(s.h.daemon.log.components(separatedBy: "there is no lock-screen alert").count == 2, "one line for the daemon's life")
        #expect(s.h.daemon.log.contains("alarm \(tea) rings"))
        withExtendedLifetime(saver) {}
    }

    @Test func failingProgramIsLogged() throws {
        let s = try Setup(exitStatus: 3)
        let saver = try s.screenSaver(locked: true)
        let tea = try s.ring("Tea")
        #expect(s.waitForStarts(1) == ["--alarm \(tea)"])
        #expect(s.h.daemon.logs("lock-screen alert for alarm \(tea) failed: exit status 3 (the compositor does not offer it kde_lockscreen_overlay_v1)"))
        #expect(eventually { s.zombies().isEmpty })
        withExtendedLifetime(saver) {}
    }

    @Test func restartedDaemonStartsItForTheRingingAlarm() throws {
        let s = try Setup()
        let saver = try s.screenSaver(locked: true)
        let tea = try s.ring("Tea")
        #expect(s.waitForStarts(1) == ["--alarm \(tea)"])
        // alarmd restarts while the alarm rings (the alert ends when alarmd leaves the bus): the new one
        // resumes the ringing alarm and, the screen still locked, starts the alert again.
        try s.h.restart(kill9: false)
        #expect(try s.h.client.property(AlarmID.path(of: tea), alarmInterface, "State") == .string("alerting"))
        #expect(s.waitForStarts(2) == ["--alarm \(tea)", "--alarm \(tea)"])
        #expect(s.h.daemon.logs("lock-screen alert for alarm \(tea) started (pid "))
        #expect(s.h.daemon.process.wait(timeout: 0) == nil, "alarmd runs on")
        withExtendedLifetime(saver) {}
    }

    /// The session's variables of the lock-screen alert (SessionEnvironment).
    static let session = ["WAYLAND_DISPLAY", "DISPLAY", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "XDG_RUNTIME_DIR", "QT_QPA_PLATFORM"]

    @Test func startedBeforeTheSessionItTakesTheDisplayFromTheSystemdManager() throws {
        // alarmd as activation before Plasma starts it: no display, no desktop; a runtime directory of its own.
        let s = try Setup(environment: ["XDG_RUNTIME_DIR": "/run/user/alarmd-own"])
        for name in Self.session where name != "XDG_RUNTIME_DIR" {
            #expect(s.daemonEnvironment[name] == nil, "alarmd runs without \(name)")
        }
        // The user manager as it starts, before Plasma: its own environment, no session yet.
        let manager = try s.systemdManager(["HOME": "/home/ada", "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": "/run/user/4242"])
        let saver = try s.screenSaver(locked: true)

        // Locked before the session exported anything: the program starts with alarmd's environment, and the log says why, once.
        let tea = try s.ring("Tea", [("post_alert", .uint32(1))])
        #expect(s.waitForStarts(1) == ["--alarm \(tea)"])
        #expect(s.environment(of: tea)["WAYLAND_DISPLAY"] == nil)
        #expect(s.h.daemon.logs("alarmd's environment has no WAYLAND_DISPLAY, and the systemd user manager's has none either: "
                                + "the lock-screen alert starts with alarmd's environment (said once)"))
        #expect(s.h.daemon.logs("lock-screen alert for alarm \(tea) started (pid "))

        // startplasma exports the session to the manager (as UpdateLaunchEnvJob, or dbus-update-activation-environment --systemd).
        try s.setEnvironment(manager, ["WAYLAND_DISPLAY=wayland-7", "DISPLAY=:7", "XDG_CURRENT_DESKTOP=KDE", "XDG_SESSION_TYPE=wayland",
                                       "QT_QPA_PLATFORM=wayland", "KDE_FULL_SESSION=true"])
        let egg = try s.ring("Egg")
        #expect(s.waitForStarts(2) == ["--alarm \(tea)", "--alarm \(egg)"])
        let env = s.environment(of: egg)
        #expect(Self.session.map { env[$0] } == ["wayland-7", ":7", "KDE", "wayland", "/run/user/alarmd-own", "wayland"],
                "the session's variables, alarmd's own XDG_RUNTIME_DIR kept")
        #expect(env["KDE_FULL_SESSION"] == nil && env["HOME"] != "/home/ada", "nothing else of the manager's")
        #expect(env["ALARMD_LOCKSCREEN_ALERT"] == s.program, "the rest is alarmd's environment")
        #expect(s.h.daemon.logs("lock-screen alert for alarm \(egg) started (pid ", timeout: 5))
        #expect(s.h.daemon.log.contains("with DISPLAY=:7 QT_QPA_PLATFORM=wayland WAYLAND_DISPLAY=wayland-7 XDG_CURRENT_DESKTOP=KDE "
                                        + "XDG_SESSION_TYPE=wayland from the systemd user manager's environment"))
        #expect(s.daemonEnvironment["WAYLAND_DISPLAY"] == nil, "alarmd's own environment is left as it is")

        // Plasma logs out (it unsets what it exported) and another session begins: read again at each start.
        try manager.client.bus.call(manager.name, "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "UnsetAndSetEnvironment",
                                    [.strings(["WAYLAND_DISPLAY", "DISPLAY"]), .strings(["WAYLAND_DISPLAY=wayland-8"])])
        try s.h.client.call("Countdown", [.string(tea)])
        #expect(s.h.client.waitForState(AlarmID.path(of: tea), "alerting", nth: 2, timeout: 10))
        #expect(s.waitForStarts(3) == ["--alarm \(tea)", "--alarm \(egg)", "--alarm \(tea)"])
        #expect(s.environment(of: tea)["WAYLAND_DISPLAY"] == "wayland-8" && s.environment(of: tea)["DISPLAY"] == nil)
        #expect(try s.environmentReads(manager) == 3, "one read of the manager's environment per start")
        #expect(s.h.daemon.log.components(separatedBy: "has no WAYLAND_DISPLAY").count == 2, "said once")
        #expect(eventually { s.zombies().isEmpty })
        withExtendedLifetime(saver) {}
    }

    @Test func itsOwnDisplayIsUsedAndTheManagerNotAsked() throws {
        let s = try Setup(environment: ["WAYLAND_DISPLAY": "wayland-own"])
        let manager = try s.systemdManager(["WAYLAND_DISPLAY": "wayland-7", "XDG_CURRENT_DESKTOP": "KDE"])
        let saver = try s.screenSaver(locked: true)
        let tea = try s.ring("Tea")
        #expect(s.waitForStarts(1) == ["--alarm \(tea)"])
        #expect(s.environment(of: tea)["WAYLAND_DISPLAY"] == "wayland-own")
        #expect(s.environment(of: tea)["XDG_CURRENT_DESKTOP"] == nil, "nothing taken from the manager")
        #expect(s.h.daemon.logs("lock-screen alert for alarm \(tea) started (pid "))
        #expect(try s.environmentReads(manager) == 0)
        withExtendedLifetime(saver) {}
    }

    @Test func withoutAManagerItStartsWithAlarmdsEnvironmentAndSaysSoOnce() throws {
        let s = try Setup()
        let saver = try s.screenSaver(locked: true)
        let tea = try s.ring("Tea")
        #expect(s.waitForStarts(1) == ["--alarm \(tea)"])
        let egg = try s.ring("Egg")
        #expect(s.waitForStarts(2) == ["--alarm \(tea)", "--alarm \(egg)"])
        #expect(s.environment(of: tea)["WAYLAND_DISPLAY"] == nil && s.environment(of: egg)["WAYLAND_DISPLAY"] == nil)
        #expect(s.environment(of: egg)["ALARMD_LOCKSCREEN_ALERT"] == s.program, "alarmd's environment")
        #expect(s.h.daemon.logs("lock-screen alert for alarm \(egg) started (pid "))
        #expect(s.h.daemon.logs("alarmd's environment has no WAYLAND_DISPLAY, and no systemd user manager answered (org.freedesktop.DBus.Error."))
        #expect(s.h.daemon.log.components(separatedBy: "has no WAYLAND_DISPLAY").count == 2, "said once")
        withExtendedLifetime(saver) {}
    }
}
