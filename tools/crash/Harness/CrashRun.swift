// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CrashModel
import Foundation
import Glibc
import SDBus
import TestSupport

/// The run: rounds of calls, a kill at a seeded instant, a restart, and the store judged against
/// what the clients were told.
final class CrashRun {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let options: CrashOptions
    let model = CrashModel()
    private let work: TempDir
    private let bus: TestBus
    /// Calls to alarmd while it is down wait for the next run (the watcher's `Watch` among them).
    private let held: HeldActivation
    private let daemon: DaemonUnderTest
    private let watcher: Watcher
    private let clients: [ClientConnection]
    private let pump: Pump
    private let calls: CallLog
    /// Whether alarmd was killed in this round, and the moment it was known dead.
    private var killed = false
    private var killedAt: USec = 0
    /// This round's alarmd runs with `--test-crash-after-announce`: it dies by itself at the worst
    /// instant, between announcing a ring and writing it, instead of being killed.
    private var crashesItself = false
    private var nextNumber: Int64 = 1

    /// Figures beside the model's.
    private var kills = 0, startupKills = 0, aimedKills = 0, selfCrashes = 0, integrityChecks = 0, integrityOK = 0
    private var restartSeconds: [Double] = []
    /// The first round a violation was found in, for the replay hint.
    private var firstBadRound: Int?

    static func main(_ args: [String]) -> Int32 {
        if args.contains("-h") || args.contains("--help") {
            say(CrashOptions.usage)
            return 0
        }
        let options: CrashOptions
        do { options = try CrashOptions.parse(args) } catch {
            say("\(error)")
            return 2
        }
        guard FileManager.default.isExecutableFile(atPath: options.alarmd) else {
            say("no alarmd at \(options.alarmd): build it (swift build --product alarmd) or pass --alarmd PATH")
            return 2
        }
        ChildRegistry.installHandlers([SIGINT, SIGTERM, SIGHUP, SIGPIPE], then: .exit)
        do {
            return try CrashRun(options).run()
        } catch {
            say("alarmd-crash: \(error)")
            return 2
        }
    }

    init(_ options: CrashOptions) throws {
        self.options = options
        work = TempDir("alarmd-crash")
        held = try HeldActivation()
        bus = try TestBus(serviceDirectory: held.path)
        ChildRegistry.add(bus.pid)
        daemon = try DaemonUnderTest(path: options.alarmd, busAddress: bus.address, stateDir: work.path + "/state")
        watcher = try Watcher(address: bus.address, model: model)
        let address = bus.address
        clients = try (0..<options.clients).map { try ClientConnection(index: $0, address: address) }
        pump = Pump(buses: [watcher.bus] + clients.map(\.bus))
        calls = CallLog(path: work.path + "/calls.log")
    }

    deinit { ChildRegistry.remove(bus.pid) }

    func run() -> Int32 {
        let started = monoUSec()
        say("alarmd-crash: \(options.rounds) rounds, seed \(options.seed) (--seed \(options.seed) replays the run), \(options.clients) clients with \(options.depth) calls in flight each")
        say("alarmd: \(options.alarmd); work directory: \(work.path)")
        do {
            _ = try startAndVerify(crashingItself: false)
            for r in 1...options.rounds {
                model.round = r
                try round(r)
                if firstBadRound == nil && !model.violations.isEmpty { firstBadRound = r }
            }
            try cleanRestart()
            daemon.stop()
        } catch {
            model.report(.daemonFailure, "the run could not go on: \(error)")
            if firstBadRound == nil { firstBadRound = model.round }
            daemon.kill9()
        }
        calls.flush()
        summarize(seconds: Double(monoUSec() - started) / 1e6)
        let keep = options.keep || !model.violations.isEmpty
        if keep {
            // TempDir removes its directory: a kept one is moved out of its way.
            let kept = work.path + "-kept"
            try? FileManager.default.moveItem(atPath: work.path, toPath: kept)
            say("kept: \(kept) (state/alarmd.sqlite, state/alarmd.log, calls.log)")
        }
        return model.violations.isEmpty ? 0 : 1
    }

    /// Mixes the run's seed with a round (and a client) into a seed of their own.
    static func seed(_ base: UInt64, _ parts: UInt64...) -> UInt64 {
        var r = SeededRandom(seed: base)
        for p in parts { r = SeededRandom(seed: r.next() ^ (p &* 0x9E37_79B9_7F4A_7C15)) }
        return r.next()
    }

    // MARK: a round

    private func round(_ r: Int) throws {
        let roundSeed = CrashRun.seed(options.seed, UInt64(r))
        var rng = SeededRandom(seed: roundSeed)
        var workloads = clients.map { Workload(owner: $0.index, seed: CrashRun.seed(roundSeed, UInt64($0.index) + 1)) }
        let before = model.tally, ringsBefore = model.ledger.rings, violationsBefore = model.violations.count
        // A run that crashes itself is killed only if no timer comes due for 3 s.
        let (delay, aimed) = crashesItself ? (3_000_000, false) : killDelay(&rng)
        let killAt = monoUSec() + delay
        killed = false
        var crashed = false

        // Calls until the kill.
        while true {
            for c in clients {
                while c.inFlight < options.depth, let op = workloads[c.index].next(model, number: nextNumber, now: realUSec()) {
                    nextNumber += 1
                    try send(op, via: c)
                }
            }
            let now = monoUSec()
            if now >= killAt { break }
            // poll() counts milliseconds: the last two are spun through, answers dispatched and calls
            // sent all the while, so that an aimed kill lands where it was aimed and finds calls in flight.
            try pump.once(waitUSec: killAt - now < 2_000 ? 0 : min(killAt - now - 2_000, 5_000))
            if watcher.owner.isEmpty {
                let status = daemon.waitForExit()
                if crashesItself && status.map({ $0 & 0x7f == SIGABRT }) == true {
                    selfCrashes += 1
                    crashed = true
                } else {
                    model.report(.daemonFailure, "alarmd left the bus without being killed (\(status.map { "wait status \($0)" } ?? "still running"))")
                }
                break
            }
        }
        kill()
        guard try pump.until(seconds: 60, { watcher.owner.isEmpty && clients.allSatisfy { $0.inFlight == 0 } }) else {
            throw Failure(description: "calls in flight at the kill got no error from the bus within 60 s")
        }
        if options.dropAcknowledgedInRound == r { dropAcknowledgedAlarm() }

        // Sometimes killed again while it starts, recomputing and writing what came due meanwhile.
        var startupKill: UInt64?
        if Int.random(in: 0..<100, using: &rng) < 15 {
            let d = UInt64.random(in: 0...80_000, using: &rng)
            try killDuringStartup(after: d)
            startupKill = d
        }
        let back = try startAndVerify(crashingItself: Int.random(in: 0..<100, using: &rng) < 10)
        calls.flush()

        let t = model.tally
        var line = "round \(r)/\(options.rounds) (seed \(roundSeed)): \(t.sent - before.sent) calls, "
        line += "\(t.inFlightAtKill - before.inFlightAtKill) in flight at the kill "
        line += "(\(t.appliedAtKill - before.appliedAtKill) applied, \(t.notAppliedAtKill - before.notAppliedAtKill) not), "
        line += "\(model.ledger.rings - ringsBefore) rings; "
        line += crashed ? "crashed itself between announcing a ring and writing it" : "killed after \(delay / 1000) ms\(aimed ? " (aimed at a due timer)" : "")"
        if let d = startupKill { line += ", again \(d / 1000) ms into its start" }
        line += String(format: "; back in %.2f s; ", back)
        let found = model.violations.count - violationsBefore
        line += found == 0 ? "ok" : "\(found) VIOLATION(S)"
        say(line)
        for v in model.violations.dropFirst(violationsBefore) { say("  \(v)") }
    }

    /// When to kill: uniformly within the round, or (half the time, when one is pending) within 3 ms
    /// after a short timer's fire time, when alarmd has announced the ring and is writing it.
    private func killDelay(_ rng: inout SeededRandom) -> (UInt64, Bool) {
        let now = realUSec()
        if Bool.random(using: &rng) {
            let due = clients.flatMap { model.alarms(of: $0.index) }.compactMap { a -> USec? in
                guard a.cls == .short, case .counting(let fire, _)? = a.expected?.timing,
                      fire.upperBound > now + 30_000, fire.upperBound < now + 1_500_000 else { return nil }
                return fire.upperBound
            }
            if !due.isEmpty {
                aimedKills += 1
                return (due[Int.random(in: 0..<due.count, using: &rng)] - now + UInt64.random(in: 100...3_000, using: &rng), true)
            }
        }
        return (UInt64.random(in: 20_000...800_000, using: &rng), false)
    }

    private func send(_ op: Call, via c: ClientConnection) throws {
        let sent = realUSec()
        model.sent(op, at: sent)
        try c.send(op) { [unowned self] m in answered(op, m, sent: sent) }
    }

    /// Errors that come from the bus when alarmd is gone, not from alarmd.
    private static let busErrors: Set<String> = [
        "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.Disconnected",
        "org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.Timeout",
    ]

    private func answered(_ op: Call, _ m: Message, sent: USec) {
        let at = realUSec()
        let outcome: String
        if let e = m.error, CrashRun.busErrors.contains(e.name) {
            if !killed && !crashesItself {
                model.report(.daemonFailure, "#\(op.number) \(op.member) got no answer from alarmd, which was not killed: \(e)")
            }
            model.unanswered(op, killedAt: killed ? killedAt : at)
            outcome = "no answer (\(e.name))"
        } else {
            model.answered(op, at: at, error: m.error?.name)
            outcome = m.error.map { "refused \($0.name)" } ?? "ok"
        }
        calls.add("r\(model.round) #\(op.number) client\(op.owner) \(op.summary) \(op.id) sent \(sent) \(outcome) at \(at)")
    }

    private func kill() {
        if daemon.pid != nil { kills += 1 }
        daemon.kill9()
        // Known dead only now: a call applied before this is inside every window.
        killedAt = realUSec()
        killed = true
    }

    /// Starts alarmd and waits for the bus to announce it as the name's owner; then the clients
    /// register again (a new run knows no connection). Returns the seconds that took.
    @discardableResult
    private func start(_ extraArgs: [String] = []) throws -> Double {
        let t0 = monoUSec()
        let runs = watcher.runs
        // Before the run: it serves this first, so the watcher hears what it finds at start-up.
        try watcher.watchNextRun()
        try daemon.spawn(extraArgs)
        var status: Int32?
        let up = try pump.until(seconds: 60) {
            if watcher.runs > runs && !watcher.owner.isEmpty { return true }
            status = daemon.exited()
            return status != nil
        }
        let seconds = Double(monoUSec() - t0) / 1e6
        guard up, status == nil else {
            let tail = readText(daemon.logPath).split(separator: "\n").suffix(10).joined(separator: "\n")
            throw Failure(description: status.map { "alarmd exited at start (wait status \($0)):\n\(tail)" }
                          ?? "alarmd did not take its name within 60 s:\n\(tail)")
        }
        for c in clients { try c.register() }
        restartSeconds.append(seconds)
        return seconds
    }

    /// Starts alarmd (the next round's run; `crashingItself`: with `--test-crash-after-announce`)
    /// and checks its store. A run that crashes itself at a ring due while it is being checked has
    /// done what it was started for: it is started again, plainly. Returns the seconds starting took.
    private func startAndVerify(crashingItself: Bool) throws -> Double {
        crashesItself = crashingItself
        var seconds = 0.0
        while true {
            do {
                seconds += try start(crashesItself ? ["--test-crash-after-announce"] : [])
                try verify()
                return seconds
            } catch let e as BusError where crashesItself {
                // Only reads and registrations failed: the model has not been told anything yet.
                guard daemon.waitForExit().map({ $0 & 0x7f == SIGABRT }) == true else { throw e }
                selfCrashes += 1
                crashesItself = false
            }
        }
    }

    /// At the end, the way a session ends it: SIGTERM, which it must exit 0 on, and a start that
    /// finds the same store.
    private func cleanRestart() throws {
        let before = model.violations.count
        let status = daemon.stop()
        if status != 0 { model.report(.daemonFailure, "alarmd ended with wait status \(status.map(String.init) ?? "none") on SIGTERM") }
        guard try pump.until(seconds: 30, { watcher.owner.isEmpty }) else { throw Failure(description: "the bus still names the stopped alarmd") }
        _ = try startAndVerify(crashingItself: false)
        say("after SIGTERM and a clean start: \(model.violations.count == before ? "ok" : "VIOLATION(S)")")
        for v in model.violations.dropFirst(before) { say("  \(v)") }
    }

    private func killDuringStartup(after delay: UInt64) throws {
        try daemon.spawn()
        _ = try pump.until(seconds: Double(delay) / 1e6) { false }
        daemon.kill9()
        kills += 1
        startupKills += 1
        // The bus may have seen it take its name: wait until it has forgotten it.
        let gone = try pump.until(seconds: 30) {
            let r = try? watcher.bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                                          [.string(managerName)])
            return r?.first == .bool(false) && watcher.owner.isEmpty
        }
        if !gone { throw Failure(description: "the bus did not forget the killed alarmd within 30 s") }
        try pump.once(waitUSec: 0)
    }

    /// Reads every client's alarms from the restarted alarmd and judges them; then the rings its
    /// run announced meanwhile, the store's integrity and alarmd's log.
    private func verify() throws {
        var store: [Int: [String: [String: Value]]] = [:]
        var read: ClosedRange<USec> = 0...0
        func readAll() throws {
            let start = realUSec()
            for c in clients { store[c.index] = try c.alarms() }
            read = start...realUSec()
        }
        try readAll()
        // A short timer past its fire time yet counting down may be a moment from ringing: wait for
        // its ring (an event), then read again. One that never rings is reported by the model.
        let overdue = Set(clients.flatMap { c in
            (store[c.index] ?? [:]).filter { id, o in
                model.alarms(of: c.index).contains { $0.id == id && $0.cls == .short }
                    && Observed.string(o["State"]) == "countdown" && Observed.uint(o["FireTimeUSec"]) < read.lowerBound
            }.keys
        })
        if !overdue.isEmpty {
            _ = try pump.until(seconds: 5) { overdue.isSubset(of: watcher.heldRings) }
            try readAll()
        }
        for c in clients {
            model.verify(owner: c.index, observed: store[c.index] ?? [:], read: read, lateSlack: usecPerSecond)
        }
        watcher.caughtUp(with: store.values.reduce(into: [:]) { all, mine in all.merge(mine) { a, _ in a } })
        let integrity = StoreFile.integrity(daemon.storePath)
        integrityChecks += 1
        if integrity == "ok" { integrityOK += 1 }
        if integrity != "ok" { model.report(.corruptStore, "PRAGMA integrity_check: \(integrity)") }
        for line in daemon.newErrors() { model.report(.daemonFailure, "alarmd logged: \(line)") }
    }

    /// Tests only: the store loses an acknowledged alarm behind alarmd's back.
    private func dropAcknowledgedAlarm() {
        for c in clients {
            if let a = model.alarms(of: c.index).first(where: { $0.free && $0.expected != nil }),
               StoreFile.delete(a.id, from: daemon.storePath) {
                say("test: deleted the acknowledged alarm \(a.id) from the store while alarmd was down")
                return
            }
        }
        say("test: found no acknowledged alarm to delete")
    }

    // MARK: the summary

    private func summarize(seconds: Double) {
        let t = model.tally
        let restarts = restartSeconds.sorted()
        let median = restarts.isEmpty ? 0 : restarts[restarts.count / 2]
        say("")
        say("alarmd-crash summary (seed \(options.seed))")
        func row(_ what: String, _ value: String) { say("  " + what.padding(toLength: 36, withPad: " ", startingAt: 0) + value) }
        row("rounds", "\(model.round) of \(options.rounds)")
        row("kills (SIGKILL)", "\(kills): \(aimedKills) aimed at a due timer, \(startupKills) during start-up")
        row("crashes after announcing a ring", "\(selfCrashes) (alarmd run with --test-crash-after-announce)")
        row("calls sent", "\(t.sent)")
        row("acknowledged", "\(t.acknowledged + t.refusedAsExpected): \(t.acknowledged) succeeded, \(t.refusedAsExpected) refused as the contract says")
        row("in flight at a kill", "\(t.inFlightAtKill): \(t.appliedAtKill) wholly applied, \(t.notAppliedAtKill) not at all")
        row("rings announced", "\(model.ledger.rings) (\(model.ledger.reannounced) re-announced after a kill; \(t.ringingAtRestart) found ringing by a read after a restart)")
        row("stops / snoozes acknowledged", "\(t.stops) / \(t.snoozes)")
        row("alarm states found as expected", "\(t.alarmsVerified)")
        row("integrity checks", "\(integrityChecks)")
        row("restart (spawn to name owned)", String(format: "median %.2f s, max %.2f s", median, restarts.last ?? 0))
        row("wall time", String(format: "%.0f s", seconds))
        let passed = t.acknowledged + t.refusedAsExpected + t.alarmsVerified + t.ringsFine + integrityOK
        row("checks passed", "\(passed): \(t.acknowledged + t.refusedAsExpected) answers, \(t.alarmsVerified) alarm states, \(t.ringsFine) rings, \(integrityOK) integrity checks")
        row("violations", "\(model.violations.count)")
        if !model.violations.isEmpty {
            for kind in Violation.Kind.allCases {
                let n = model.violations.filter { $0.kind == kind }.count
                if n > 0 { say("    \(kind.rawValue): \(n)") }
            }
            for v in model.violations.prefix(40) { say("  \(v)") }
            if model.violations.count > 40 { say("  … \(model.violations.count - 40) more") }
            say("replay: alarmd-crash --seed \(options.seed) --rounds \(firstBadRound ?? options.rounds)")
        }
    }
}
