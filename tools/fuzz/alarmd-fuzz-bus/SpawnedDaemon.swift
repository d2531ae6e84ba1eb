// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import TestSupport

/// alarmd on a private bus: the dbus-daemon and alarmd are children this run keeps and reaps.
final class SpawnedDaemon {
    let bus: TestBus
    let state = TempDir("alarmd-fuzz")
    let path: String
    private(set) var process: ChildProcess?
    var logPath: String { state.path + "/alarmd.log" }

    init(alarmd: String?) throws {
        path = alarmd ?? Products.alarmd
        bus = try TestBus()
        // Low per-app limits keep the number of alarms bounded, so memory growth means a leak,
        // and make the limits part of the run; the flood limit stays at its default.
        try "[limits]\nmax_alarms_per_app = 64\nmax_alarms_shell = 256\n".write(toFile: state.path + "/alarmd.conf", atomically: true, encoding: .utf8)
        try start()
    }

    func start() throws {
        let env = hermeticEnvironment(home: state.path)
        let p = try ChildProcess(path, ["--bus-address", bus.address, "--state-dir", state.path + "/state", "--config", state.path + "/alarmd.conf"],
                                 environment: env, stderrPath: logPath)
        process = p
        Interrupt.install([bus.pid, p.pid])
        let probe = try Client(address: bus.address)
        let deadline = Date().addingTimeInterval(30)
        while !probe.nameHasOwner(managerName) {
            if p.wait(timeout: 0.01) != nil { throw FuzzFailure("alarmd exited at start:\n\(readText(logPath))") }
            if Date() > deadline { throw FuzzFailure("alarmd did not take its name") }
        }
    }

    func stop() {
        process?.stop()
        process = nil
    }
}
