// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation

/// The command line of alarmd-fuzz-bus.
struct Options {
    static let usage = """
        usage: alarmd-fuzz-bus [--address ADDRESS | --spawn] [--calls N] [--seed N] [options]

        Sends every method of org.alarmd.AlarmManager1, the alarm objects' properties and the standard
        interfaces random and hostile arguments, then checks that alarmd is still on the bus with the
        same PID, that a victim app's alarms did not change, that its store passes PRAGMA
        integrity_check and holds what alarmd shows, and how its resident memory grew. Exit status 0
        when every check held. docs/fuzzing.md describes the run.

          --address ADDRESS   fuzz the alarmd on this bus (it must be running)
          --spawn             start a private dbus-daemon and the alarmd next to this program (default)
          --alarmd PATH       with --spawn: this alarmd instead
          --calls N           calls to send (default 100000)
          --seed N            replay a run (each run prints its seed)
          --in-flight N       calls waiting for an answer at once (default 32)
          --huge-bytes N      the largest string sent (default 100 MiB; the bus carries up to 128 MiB)
          --rss-growth-kib N  fail when resident memory grows more than N KiB from the second quarter
                              of the run to its last (default: report only)
          --restart-check     with --spawn: restart alarmd at the end and compare every alarm
          --keep              with --spawn: keep the state directory and alarmd's log
        """

    var address: String?
    var alarmd: String?
    var calls = 100_000
    var seed = UInt64.random(in: 0...UInt64.max)
    var inFlight = 32
    var hugeBytes = 100 << 20
    var rssGrowthLimitKiB: Int?
    var restartCheck = false
    var keep = false

    init(_ args: [String]) throws(UsageError) {
        var i = 0
        func value() throws(UsageError) -> String {
            i += 1
            guard i < args.count else { throw UsageError("\(args[i - 1]) needs a value") }
            return args[i]
        }
        func number(_ s: String) throws(UsageError) -> Int {
            guard let n = Int(s), n >= 0 else { throw UsageError("'\(s)' is not a number") }
            return n
        }
        while i < args.count {
            switch args[i] {
            case "--address": address = try value()
            case "--spawn": address = nil
            case "--alarmd": alarmd = try value()
            case "--calls": calls = try number(try value())
            case "--seed":
                let s = try value()
                guard let n = UInt64(s) else { throw UsageError("'\(s)' is not a seed") }
                seed = n
            case "--in-flight": inFlight = max(1, try number(try value()))
            case "--huge-bytes": hugeBytes = max(257, try number(try value()))
            case "--rss-growth-kib": rssGrowthLimitKiB = try number(try value())
            case "--restart-check": restartCheck = true
            case "--keep": keep = true
            case "--help", "-h": throw UsageError("")
            default: throw UsageError("unknown option \(args[i])")
            }
            i += 1
        }
    }
}

struct UsageError: Error {
    let message: String
    init(_ m: String) { message = m }
}
