// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc

// Compares AlarmCore's `Zone` with glibc (`localtime_r`, `mktime`, `TZ` set to each file + `tzset`)
// for every TZif file of a zone database, both directions:
//   instant → local fields, offset, isdst and abbreviation: at t−1 h, t−1, t, t+1, t+1 h around every
//     transition from 1970 to 2100 (the table's and the footer rule's), at t−1, t, t+1 around every
//     change of offset or isdst glibc shows (found by glibc alone: weekly steps, then bisection), and
//     at seeded random instants;
//   wall time → its set of instants (none in a gap, two in an overlap): the wall times just before,
//     at and after each transition, and those of the random instants. The truth is every candidate
//     (ours, glibc's `mktime` with tm_isdst −1 — and 0 and 1 where we see a gap or an overlap — and
//     wall − offset for the offsets glibc reports up to 27 h either side) that glibc's `localtime_r`
//     maps back to the wall time. For a wall time in a gap, our first valid instant after it is
//     checked against a forward search with glibc's `localtime_r`.
// Usage: alarmd-zone-oracle [--dir DIR] [--seed N] [--random N] [--jobs N] [--parts N].
// A separate process because `TZ` is process-wide: a test process changing it would change it for
// every test and daemon it starts. The zones are split among child processes (`--part k/n`), `--jobs`
// at a time (by default one part per job). Random instants come from the seed and the zone's index,
// so a seed replays a run whatever the split.
// Prints one summary line; exit status 1 on any difference.

func oracle() -> Never {
    var dir = "/usr/share/zoneinfo"
    var seed = UInt64(UInt32(truncatingIfNeeded: time(nil))) ^ UInt64(getpid()) << 32
    var randomPerZone = 1_000
    var jobs = 2
    var parts = 0
    var part: (Int, Int)? = nil
    var args = CommandLine.arguments.dropFirst()
    while let a = args.popFirst() {
        switch a {
        case "--dir": dir = args.popFirst() ?? dir
        case "--seed": seed = UInt64(args.popFirst() ?? "") ?? seed
        case "--random": randomPerZone = Int(args.popFirst() ?? "") ?? randomPerZone
        case "--jobs": jobs = max(1, Int(args.popFirst() ?? "") ?? jobs)
        case "--parts": parts = max(1, Int(args.popFirst() ?? "") ?? parts)
        case "--part":
            let f = (args.popFirst() ?? "").split(separator: "/").compactMap { Int($0) }
            if f.count == 2 && f[1] > 0 { part = (f[0], f[1]) }
        default: print("unknown argument \(a)"); exit(2)
        }
    }
    if part == nil { print("seed \(seed)") }
    var rng = seed
    func next() -> UInt64 {
        rng &+= 0x9E37_79B9_7F4A_7C15
        var z = rng
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    let lo: Int64 = 0, hi: Int64 = 4_102_444_800   // 1970-01-01 … 2100-01-01 UTC

    // Every TZif file once: not posix/ or right/, links (symbolic or hard) followed and deduplicated.
    var files: [(name: String, path: String)] = []
    var seen = Set<[UInt64]>()
    let walker = FileManager.default.enumerator(atPath: dir)
    while let rel = walker?.nextObject() as? String {
        if rel.hasPrefix("posix/") || rel.hasPrefix("right/") || rel == "posix" || rel == "right" { continue }
        let path = dir + "/" + rel
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
        guard let fd = fopen(path, "rb") else { continue }
        var magic = [UInt8](repeating: 0, count: 4)
        let n = fread(&magic, 1, 4, fd)
        fclose(fd)
        guard n == 4, magic == Array("TZif".utf8) else { continue }
        guard seen.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted else { continue }
        files.append((rel, path))
    }
    files.sort { $0.name < $1.name }

    var instantsCompared = 0, wallsCompared = 0, gapsCompared = 0, differences = 0, zonesCompared = 0, glibcChanges = 0
    var shown = 0
    func report(_ s: String) {
        differences += 1
        if shown < 10 { print("DIFF " + s); shown += 1 }
    }

    func glibcLocal(_ t: Int64) -> tm {
        var tt = time_t(t)
        var out = tm()
        localtime_r(&tt, &out)
        return out
    }
    func wall(_ x: tm) -> Int64 {
        LocalTime(year: Int64(x.tm_year) + 1900, month: Int(x.tm_mon) + 1, day: Int(x.tm_mday), hour: Int(x.tm_hour),
                  minute: Int(x.tm_min), second: Int(x.tm_sec)).wallSeconds
    }
    func glibcMktime(_ w: Int64, isdst: Int32) -> Int64? {
        let l = LocalTime(wallSeconds: w)
        var x = tm()
        x.tm_year = Int32(l.year - 1900)
        x.tm_mon = Int32(l.month - 1)
        x.tm_mday = Int32(l.day)
        x.tm_hour = Int32(l.hour)
        x.tm_min = Int32(l.minute)
        x.tm_sec = Int32(l.second)
        x.tm_isdst = isdst
        let t = mktime(&x)
        return t == -1 ? nil : Int64(t)
    }

    let started = Date()
    guard let (k, n) = part else {
        if parts == 0 { parts = jobs }
        // The parent: the parts, `jobs` at a time; their DIFF lines passed on, their counts summed.
        var sums = [Int](repeating: 0, count: 6)
        var failed = false
        var next = 0
        while next < parts {
            var running: [(Process, Pipe)] = []
            while running.count < jobs && next < parts {
                let p = Process(), pipe = Pipe()
                p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
                p.arguments = ["--dir", dir, "--seed", "\(seed)", "--random", "\(randomPerZone)", "--part", "\(next)/\(parts)"]
                p.standardOutput = pipe
                do { try p.run() } catch { print("cannot start a part: \(error)"); exit(2) }
                running.append((p, pipe))
                next += 1
            }
            for (p, pipe) in running {
                let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                p.waitUntilExit()
                for line in out.split(separator: "\n") {
                    if line.hasPrefix("counts ") {
                        for (i, v) in line.split(separator: " ").dropFirst().enumerated() where i < 6 { sums[i] += Int(v) ?? 0 }
                    } else {
                        print(line)
                    }
                }
                if p.terminationStatus != 0 && p.terminationStatus != 1 { failed = true; print("a part ended with status \(p.terminationStatus)") }
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print("zones \(sums[0]), instants \(sums[1]), wall times \(sums[2]) (gaps \(sums[3])), changes found by glibc \(sums[5]), "
            + "differences \(sums[4]), seed \(seed), \(String(format: "%.1f", seconds)) s")
        exit(sums[4] == 0 && !failed && sums[0] > 0 ? 0 : 1)
    }
    for (index, (name, path)) in files.enumerated() where index % n == k {
        rng = seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        let zone: Zone
        do { zone = try Zone.parse(tzif: [UInt8](data), name: name) } catch {
            report("\(name): not parsed: \(error)")
            continue
        }
        setenv("TZ", ":" + path, 1)
        tzset()
        zonesCompared += 1

        var instants: [Int64] = []
        var walls: [Int64] = []
        // Every instant where ours may change (a superset: new years too), unfiltered, so that a change
        // we put at the wrong second is still probed where glibc has it.
        for c in zone.changes(from: lo - 1, to: hi) {
            instants.append(contentsOf: [c - 3_600, c - 1, c, c + 1, c + 3_600] as [Int64])
            let before: Int64 = zone.wallSeconds(at: c - 1) + 1
            let after: Int64 = zone.wallSeconds(at: c)
            let mid: Int64 = (before + after) / 2
            walls.append(contentsOf: [before, mid, after - 1, after])
        }
        // And every change glibc has, found by glibc alone: a week at a time, then bisected to the second.
        func key(_ t: Int64) -> [Int] { let g = glibcLocal(t); return [g.tm_gmtoff, Int(g.tm_isdst)] }
        var t = lo, k = key(lo)
        while t < hi {
            let u = min(t + 604_800, hi), ku = key(u)
            if ku != k {
                var a = t, b = u   // key(a) == k, key(b) != k
                while b - a > 1 {
                    let m = a + (b - a) / 2
                    if key(m) == k { a = m } else { b = m }
                }
                glibcChanges += 1
                instants.append(contentsOf: [b - 1, b, b + 1] as [Int64])
                walls.append(contentsOf: [wall(glibcLocal(b - 1)) + 1, wall(glibcLocal(b)) - 1] as [Int64])
                // On from the change: another may follow within the week.
                t = b
                k = key(b)
                continue
            }
            t = u
            k = ku
        }
        for _ in 0..<randomPerZone {
            let t = lo + Int64(next() % UInt64(hi - lo))
            instants.append(t)
            walls.append(zone.wallSeconds(at: t))
        }

        instants = Array(Set(instants))
        walls = Array(Set(walls))
        for t in instants {
            instantsCompared += 1
            let g = glibcLocal(t)
            let ours = zone.localTime(at: t), type = zone.type(at: t)
            let theirs = LocalTime(year: Int64(g.tm_year) + 1900, month: Int(g.tm_mon) + 1, day: Int(g.tm_mday), hour: Int(g.tm_hour),
                                   minute: Int(g.tm_min), second: Int(g.tm_sec))
            let abbreviation = g.tm_zone.map { String(cString: $0) } ?? ""
            if ours != theirs || ours.weekday != Int(g.tm_wday) || Int(type.offset) != g.tm_gmtoff || (type.isDST ? 1 : 0) != g.tm_isdst
                || type.abbreviation != abbreviation {
                report("\(name) at \(t): ours \(ours) wd \(ours.weekday) off \(type.offset) dst \(type.isDST) \(type.abbreviation); "
                    + "glibc \(theirs) wd \(g.tm_wday) off \(g.tm_gmtoff) dst \(g.tm_isdst) \(abbreviation)")
            }
        }

        for w in walls {
            wallsCompared += 1
            let ours = zone.instants(wall: w)
            var candidates = Set(ours)
            // mktime costs a dozen conversions: tm_isdst −1 always, 0 and 1 where we see a gap or an overlap.
            for d: Int32 in ours.count == 1 ? [-1] : [-1, 0, 1] { if let t = glibcMktime(w, isdst: d) { candidates.insert(t) } }
            var largest = Int64.min
            for probe in [w - 97_200, w - 43_200, w, w + 43_200, w + 97_200] {
                let offset = Int64(glibcLocal(probe).tm_gmtoff)
                largest = max(largest, offset)
                candidates.insert(w - offset)
            }
            let truth = candidates.filter { wall(glibcLocal($0)) == w }.sorted()
            if truth != ours {
                report("\(name) wall \(LocalTime(wallSeconds: w)): ours \(ours), glibc \(truth)")
                continue
            }
            guard ours.isEmpty else { continue }
            // In a gap: the first instant after it, searched with glibc alone: forward in steps of an
            // hour, then of 10 and 1 minutes, 10 and 1 seconds, from before any instant of that wall time.
            gapsCompared += 1
            var t = w - largest - 3_600
            if wall(glibcLocal(t)) > w { t = w - 97_200 }
            for step: Int64 in [3_600, 600, 60, 10, 1] {
                while wall(glibcLocal(t + step)) <= w { t += step }
            }
            let first = t + 1
            if zone.firstInstant(wall: w) != first {
                report("\(name) gap wall \(LocalTime(wallSeconds: w)): ours \(zone.firstInstant(wall: w)), search \(first)")
            }
        }
    }
    print("counts \(zonesCompared) \(instantsCompared) \(wallsCompared) \(gapsCompared) \(differences) \(glibcChanges)")
    exit(differences == 0 ? 0 : 1)
}
oracle()
