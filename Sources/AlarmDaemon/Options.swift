// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import CSystemd

/// Command-line options of `alarmd`.
public struct Options: Sendable {
    public var busAddress: String?
    public var stateDirectory: String?
    public var configFile: String?
    /// Tests only: where to look for callers' `/proc/PID/root/.flatpak-info`.
    public var procRoot = "/proc"
    /// Tests only: read "now" from the system clock plus an offset kept in this file.
    public var testClockFile: String?
    /// The file that names the local time zone.
    public var localtime = "/etc/localtime"
    /// Where alarmd's own sounds are (repeatable); nil = the XDG data directories.
    public var soundDirectories: [String]?
    /// Where alarmd's own icons are (hicolor layout) when not installed where a notification server looks.
    public var iconDirectory: String?
    /// Tests only: a smaller ceiling for one reply than the bus's, to reach it with few alarms.
    public var maxReplyBytes: Int?
    /// Tests only: die (SIGABRT) right after announcing what time caused, before it is written.
    public var crashAfterAnnounce = false

    public static let usage = """
        usage: alarmd [--bus-address ADDRESS] [--state-dir DIR] [--config FILE] [--sounds-dir DIR]
                      [--icons-dir DIR] [--localtime FILE]

          --bus-address ADDRESS  serve on this bus instead of the session bus (tests)
          --state-dir DIR        keep the database in DIR instead of $XDG_STATE_HOME/alarmd
          --config FILE          read FILE instead of $XDG_CONFIG_HOME/alarmd/alarmd.conf
          --sounds-dir DIR       look for alarmd's own sounds in DIR (repeatable)
          --icons-dir DIR        alarmd's own icons are in DIR (hicolor layout), not installed
          --localtime FILE       follow the time zone FILE names (default /etc/localtime)
          --test-clock FILE      tests only: a clock that org.alarmd.TestClock1 can step
          --proc-root DIR        tests only: where callers' /proc/PID entries are
          --max-reply-bytes N    tests only: refuse replies larger than N bytes (default 32 MiB)
          --test-crash-after-announce  tests only: abort after announcing a due alarm, before saving it
          --version              print the version
        """

    public enum Parsed: Sendable {
        case run(Options)
        case exit(String, code: Int32)
    }

    /// The options that take an absolute path, and where each goes.
    private static let pathOptions: [String: @Sendable (inout Options, String) -> Void] = [
        "--state-dir": { $0.stateDirectory = $1 },
        "--sounds-dir": { $0.soundDirectories = ($0.soundDirectories ?? []) + [$1] },
        "--icons-dir": { $0.iconDirectory = $1 },
        "--test-clock": { $0.testClockFile = $1 },
        "--localtime": { $0.localtime = $1 },
        "--proc-root": { $0.procRoot = $1 },
    ]

    public static func parse(_ args: [String]) -> Parsed {
        var o = Options()
        var it = args.makeIterator()
        while let a = it.next() {
            switch a {
            case "--bus-address":
                guard let v = it.next() else { return .exit("--bus-address needs an address\n" + usage, code: 2) }
                o.busAddress = v
            case "--config":
                guard let v = it.next() else { return .exit("--config needs a file\n" + usage, code: 2) }
                o.configFile = v
            case let name where pathOptions[name] != nil:
                guard let v = it.next(), v.hasPrefix("/") else { return .exit("\(name) needs an absolute path\n" + usage, code: 2) }
                pathOptions[name]!(&o, v)
            case "--max-reply-bytes":
                guard let v = it.next(), let n = Int(v), n >= 4096 else { return .exit("--max-reply-bytes needs a number ≥ 4096\n" + usage, code: 2) }
                o.maxReplyBytes = n
            case "--test-crash-after-announce":
                o.crashAfterAnnounce = true
            case "--version":
                return .exit("alarmd \(Daemon.version)", code: 0)
            case "-h", "--help":
                return .exit(usage, code: 0)
            default:
                return .exit("unknown option \(a)\n" + usage, code: 2)
            }
        }
        return .run(o)
    }
}

/// The whole program, so `main.swift` stays a one-liner.
public func alarmdMain(_ arguments: [String]) -> Int32 {
    switch Options.parse(Array(arguments.dropFirst())) {
    case .exit(let text, let code):
        print(text)
        return code
    case .run(let options):
        // A fixed threshold: glibc raises it each time a large block is freed, after which blocks of
        // that size come from the heap and stay there: a few 16 MiB arguments left alarmd some
        // 30 MiB larger until it was next idle (the bus fuzzer saw it). Fixed, every block over
        // 128 KiB is mapped on its own and goes back to the kernel when freed.
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
        do {
            return try Daemon.run(options: options)
        } catch {
            Log.error("cannot start: \(error)")
            return 1
        }
    }
}
