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
/// is locked (the test peer, whose lock the test sets: `GetActive`, `ActiveChanged`).
@Suite(.serialized) struct LockScreenAlertTests {
    /// A Harness whose alarmd starts the stand-in, and the file the stand-in writes.
    struct Setup {
        let h: Harness
        let starts: String
        let program: String

        init(exitStatus: Int32 = 0, program given: String? = nil) throws {
            let dir = TempDir("alarmd-lock-alert")
            let starts = dir.path + "/starts"
            let program = given ?? dir.path + "/alarmd-lockscreen-alert"
            if given == nil {
                try writeExecutable("#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(starts)'\nexit \(exitStatus)\n", to: program)
            }
            h = try Harness(environment: ["ALARMD_LOCKSCREEN_ALERT": program])
            self.starts = starts
            self.program = program
            directory = dir
        }

        private let directory: TempDir

        /// What the stand-in was started with, one line per start.
        var lines: [String] { readText(starts).split(separator: "\n").map(String.init) }

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
}
