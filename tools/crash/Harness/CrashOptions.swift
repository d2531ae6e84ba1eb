// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation

/// What a run does; every random choice comes from `seed`.
struct CrashOptions {
    var rounds = 200
    var seed = UInt64.random(in: 0...UInt64.max)
    var clients = 4
    var depth = 3
    var alarmd = ""
    var keep = false
    /// Tests only: in this round, while alarmd is down, delete an alarm whose last call was
    /// acknowledged from the store, so that the run must report it lost.
    var dropAcknowledgedInRound: Int?

    static let usage = """
        usage: alarmd-crash [--rounds N] [--seed N] [--clients K] [--depth D] [--alarmd PATH] [--keep]

        Runs alarmd on a private dbus-daemon with a store that lives across rounds. Each round, K client
        connections (each its own app) keep D calls in flight (Schedule, Update, Cancel, Stop, Pause,
        Resume, Countdown) until alarmd is killed with SIGKILL at a seeded instant (or, one round in ten,
        crashes itself between announcing a ring and writing it: --test-crash-after-announce); alarmd is
        started again (sometimes killed again during start-up first) and its store, read over the bus, is
        checked against what the clients were answered, with the rings a subscriber saw. Exit status 0
        when nothing was found, 1 when something was (each listed with the seed that replays the run).
          --rounds N     kills to survive (default 200)
          --seed N       replay a run (default: random, printed)
          --clients K    client connections (default 4)
          --depth D      calls each client keeps in flight (default 3)
          --alarmd PATH  the alarmd to test (default: the one next to this program)
          --keep         keep the work directory (store, alarmd's log, the log of every call)
          --test-drop-acknowledged ROUND
                         tests only: delete an acknowledged alarm from the store in ROUND (must be found)
        """

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ args: [String]) throws(Failure) -> CrashOptions {
        var o = CrashOptions()
        var it = args.makeIterator()
        func number(_ name: String, min: Int = 1) throws(Failure) -> Int {
            guard let v = it.next(), let n = Int(v), n >= min else { throw Failure(description: "\(name) needs a number ≥ \(min)\n\(usage)") }
            return n
        }
        while let a = it.next() {
            switch a {
            case "--rounds": o.rounds = try number(a)
            case "--seed":
                guard let v = it.next(), let s = UInt64(v) else { throw Failure(description: "--seed needs a number\n\(usage)") }
                o.seed = s
            case "--clients": o.clients = try number(a)
            case "--depth": o.depth = try number(a)
            case "--alarmd":
                guard let v = it.next() else { throw Failure(description: "--alarmd needs a path\n\(usage)") }
                o.alarmd = v
            case "--keep": o.keep = true
            case "--test-drop-acknowledged": o.dropAcknowledgedInRound = try number(a)
            default: throw Failure(description: "unknown option \(a)\n\(usage)")
            }
        }
        if o.alarmd.isEmpty {
            let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            o.alarmd = (exe as NSString).deletingLastPathComponent + "/alarmd"
        }
        return o
    }
}
