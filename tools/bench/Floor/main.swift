// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import CSQLite
import FoundationEssentials
import Glibc
import SDBus

// alarmd-floor: the least a service like alarmd can be, built the way alarmd is (static Swift
// runtime, FoundationEssentials, sd-bus and sd-event, SQLite): it takes a bus name, opens a WAL
// database with one table, answers Ping, and sleeps in sd-event. `make bench` measures alarmd's idle
// memory and binary size against it in the same run: what alarmd adds above this floor is its own.
//
//   alarmd-floor --bus-address ADDRESS --state-dir DIR

func say(_ text: String, fd: Int32) {
    let line = text + "\n"
    _ = line.withCString { write(fd, $0, strlen($0)) }
}

let args = CommandLine.arguments
func value(after flag: String) -> String? {
    guard let i = args.firstIndex(of: flag), i + 1 < args.count else { return nil }
    return args[i + 1]
}
guard let address = value(after: "--bus-address"), let dir = value(after: "--state-dir") else {
    say("usage: alarmd-floor --bus-address ADDRESS --state-dir DIR", fd: 2)
    exit(2)
}

final class Floor: BusObject {
    static let interface = Interface<Floor>("org.alarmd.Floor1", methods: [
        .init("Ping", out: [("now_usec", "t")]) { _, _ throws(BusError) in .reply([.uint64(UInt64(Date().timeIntervalSince1970 * 1e6))]) },
    ])
}

do {
    var db: OpaquePointer?
    guard sqlite3_open(dir + "/floor.sqlite", &db) == SQLITE_OK,
          sqlite3_exec(db, "PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS t (id BLOB PRIMARY KEY, v BLOB)", nil, nil, nil) == SQLITE_OK
    else {
        say("alarmd-floor: cannot open \(dir)/floor.sqlite", fd: 2)
        exit(1)
    }
    let loop = try EventLoop()
    try loop.exitOnSignals()
    let bus = try Bus.connect(address: address)
    let floor = Floor()
    try bus.export(floor, path: "/org/alarmd/Floor1", Floor.interface)
    try bus.requestName("org.alarmd.Floor1")
    try bus.attach(loop)
    say("ready", fd: 1)
    exit(loop.run())
} catch {
    say("alarmd-floor: \(error)", fd: 2)
    exit(1)
}
