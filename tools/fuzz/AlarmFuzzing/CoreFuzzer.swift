// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation

/// Why a fuzz input failed: the step, what broke, and the steps that led there.
public struct CoreFuzzFailure: Error, CustomStringConvertible {
    public let step: Int
    public let problems: [String]
    public let recent: [String]

    public var description: String {
        "step \(step): " + problems.joined(separator: "; ") + "\nlast steps:\n" + recent.map { "  " + $0 }.joined(separator: "\n")
    }
}

/// What a run reached, so that a test can tell the decoder still gets past validation into every
/// state and every method (it could rot into refusing everything and still find nothing).
public struct CoreFuzzStats {
    public var accepted: [String: Int] = [:]
    public var refused: [String: Int] = [:]
    public var states: Set<AlarmState> = []
    public var removals: [RemovalReason: Int] = [:]
    public var reloads = 0
    public var steps = 0

    public init() {}
}

/// Drives one engine through the commands an input decodes to, as the daemon would (plan, then
/// apply what was planned; time passes between calls), and after each step checks what must always
/// hold: the engine's invariants, that a refused command changed nothing, that an app's command
/// touched only that app's alarms and that another app's alarm is `NotFound` to it, that nothing is
/// left due after the due alarms were handled, and (now and then) that the stored form of every
/// alarm loads into a new engine that behaves the same.
public struct CoreFuzzer {
    /// 2026-03-02 09:00:00 UTC, a Monday.
    public static let start: USec = 1_772_442_000 * usecPerSecond
    public static let maxSteps = 300
    static let zones = ["UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham",
                        "Pacific/Kiritimati", "America/St_Johns"]
    /// Their rules, from the system's zone database once (UTC for one that is missing).
    static let zoneRules: [Zone] = zones.map { name in
        FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name).flatMap { try? Zone.parse(tzif: [UInt8]($0), name: name) } ?? .utc
    }

    private var input: FuzzBytes
    private let clock = ManualClock(start)
    private var engine: AlarmEngine
    private var hostile: HostileInput
    /// Every id the engine ever held, so that commands name alarms that exist, existed, or never did.
    private var known: [String] = []
    private var log: [String] = []
    private var stats = CoreFuzzStats()

    /// Runs `bytes` and returns the first failure, nil when every check held.
    public static func run(_ bytes: [UInt8]) -> CoreFuzzFailure? {
        var stats = CoreFuzzStats()
        return run(bytes, stats: &stats)
    }

    /// The same, adding what the run reached to `stats`.
    public static func run(_ bytes: [UInt8], stats: inout CoreFuzzStats) -> CoreFuzzFailure? {
        var fuzzer = CoreFuzzer(bytes)
        fuzzer.stats = stats
        defer { stats = fuzzer.stats }
        return fuzzer.runAll()
    }

    private init(_ bytes: [UInt8]) {
        input = FuzzBytes(bytes)
        hostile = HostileInput(scale: .core, nowSeconds: Int64(Self.start / usecPerSecond))
        engine = AlarmEngine(clock: clock)
        engine = makeEngine(settingsFrom: &input)
    }

    /// The first bytes choose the engine's settings, so that limits, policies and timeouts vary too.
    private func makeEngine(settingsFrom c: inout FuzzBytes) -> AlarmEngine {
        let policy = AuthorizationPolicy(unknownApps: c.pick([.ask, .allow, .deny]), shellAuthorized: c.chance(230))
        let limits = Limits(maxAlarmsPerApp: c.pick([1, 3, 8, 1024]), maxAlarmsShell: c.pick([0, 2, 16]))
        let counter = IDCounter()
        let zone = c.pick(Self.zoneRules)
        let ringTimeout: UInt64 = c.pick([0, 1, 60, 600])
        let missedGrace: UInt64 = c.pick([0, 60, 3_600])
        return AlarmEngine(clock: clock, timeZone: zone, policy: policy, limits: limits, ringTimeout: ringTimeout,
                           missedGrace: missedGrace, makeID: counter.next)
    }

    private mutating func runAll() -> CoreFuzzFailure? {
        var step = 0
        while !input.atEnd && step < Self.maxSteps {
            step += 1
            stats.steps += 1
            let problems = runStep()
            if !problems.isEmpty { return CoreFuzzFailure(step: step, problems: problems, recent: Array(log.suffix(30))) }
        }
        return nil
    }

    private mutating func runStep() -> [String] {
        var c = input
        defer { input = c }
        hostile.nowSeconds = Int64(clock.now() / usecPerSecond)
        let caller = c.pick(["", "", "org.fuzz.A", "org.fuzz.A", "org.fuzz.B", "snap.fuzz"])
        let command: Command
        switch c.below(20) {
        case 0...3:
            command = .schedule(id: c.chance(200) ? "" : hostile.alarmID(&c, known: known), configuration: dictionary(hostile.configuration(&c)))
        case 4, 5:
            command = .update(id: hostile.alarmID(&c, known: known), changes: dictionary(hostile.changes(&c, count: c.below(4))),
                              clear: hostile.clear(&c))
        case 6: command = .cancel(id: hostile.alarmID(&c, known: known))
        case 7: command = .stop(id: hostile.alarmID(&c, known: known))
        case 8: command = .pause(id: hostile.alarmID(&c, known: known))
        case 9: command = .resume(id: hostile.alarmID(&c, known: known))
        case 10: command = .countdown(id: hostile.alarmID(&c, known: known))
        case 11:
            // Apps that own alarms now, so that revoking one removes something.
            let owners = Set(engine.alarms.values.map(\.appId)).filter { !$0.isEmpty }.sorted()
            command = .setAuthorization(app: c.chance(128) ? c.pick(owners.isEmpty ? HostileInput.apps : owners) : hostile.appID(&c),
                                        state: c.pick([.authorized, .authorized, .denied, .notDetermined]))
        case 12:
            command = .soundError(id: hostile.alarmID(&c, known: known), message: c.chance(128) ? nil : c.pick(["no sound server", ""]))
        case 13, 14:
            // Time passes up to the next deadline (where the daemon's timer would wake), a little after it, or far beyond.
            let now = clock.now()
            let from = c.chance(170) ? max(now, engine.nextDeadline ?? now) : now
            clock.set(from.plusSaturating(c.pick([0, 1, 999_999, 30 * usecPerSecond, 61 * usecPerSecond, 3_600 * usecPerSecond,
                                                  3 * 86_400 * usecPerSecond])))
            return perform(.due, caller: "", note: "time passes by \(Int64(clock.now() - now) / 1_000) ms")
        case 15:
            let delta = c.pick([-86_400, -3_600, -61, -1, 1, 59, 61, 3_600, 86_400 * 2] as [Int64]) * Int64(usecPerSecond)
            clock.set(clock.now().shifted(by: delta))
            return perform(.clockStep(delta: delta), caller: "", note: "")
        case 16:
            return perform(.timeZoneChange(c.pick(Self.zoneRules)), caller: "", note: "")
        case 17:
            return reload()
        default:
            // An alarm that exists now, of the caller (most calls of a real client name its own),
            // mostly with a method its state allows.
            let mine = Array(engine.alarms(visibleTo: Caller(appId: caller)))
            guard !mine.isEmpty else { command = .cancel(id: hostile.alarmID(&c, known: known)); break }
            let alarm = c.pick(mine)
            let id = c.chance(200) ? alarm.id : hostile.alarmID(&c, known: [alarm.id])
            let fitting: [Command] = switch alarm.state {
            case .alerting: [.stop(id: id), .countdown(id: id)]
            case .countdown: [.pause(id: id)]
            case .paused: [.resume(id: id)]
            case .scheduled: [.update(id: id, changes: dictionary(hostile.changes(&c, count: 1 + c.below(2))), clear: hostile.clear(&c))]
            }
            command = c.chance(190) ? c.pick(fitting)
                : c.pick([.stop(id: id), .countdown(id: id), .pause(id: id), .resume(id: id), .cancel(id: id),
                          .update(id: id, changes: dictionary(hostile.changes(&c, count: 1 + c.below(2))), clear: [])])
        }
        return perform(command, caller: caller, note: "")
    }

    /// `a{sv}` entries as the core takes them: the daemon refuses a key given twice before planning.
    private func dictionary(_ entries: [(String, Value)]) -> [String: Value] {
        Dictionary(entries, uniquingKeysWith: { first, _ in first })
    }

    /// `caller` is the contract's app id: empty for the user's own tools.
    private mutating func perform(_ command: Command, caller: String, note: String) -> [String] {
        let before = engine.alarms.values
        let authorizationsBefore = engine.authorizations
        let zoneBefore = engine.timeZone
        let id = target(of: command)
        let owner = id.flatMap { engine.alarms[$0]?.appId }
        let result: Result<Mutation, AlarmError>
        do throws(AlarmError) {
            result = .success(try engine.plan(command, caller: Caller(appId: caller)))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let m): log.append("\(describe(command)) as '\(caller)' \(note)→ \(describe(m))")
        case .failure(let e): log.append("\(describe(command)) as '\(caller)' \(note)→ \(e.name): \(e.message.prefix(100))")
        }
        var problems: [String] = []
        // Planning changes nothing, accepted or refused: only `apply` does.
        if engine.alarms.values != before || engine.authorizations != authorizationsBefore || engine.timeZone != zoneBefore {
            problems.append("planning \(command.method ?? "a command") changed the engine before it was applied")
        }
        switch result {
        case .failure(let error):
            stats.refused[command.method ?? "\(command)".prefix { $0 != "(" }.description, default: 0] += 1
            if engine.alarms.values != before || engine.authorizations != authorizationsBefore {
                problems.append("a refused \(command.method ?? "command") (\(error.name)) changed the engine")
            }
            // Another app's alarm is hidden: NotFound, whatever else is wrong with the call.
            if let owner, !caller.isEmpty, owner != caller, command.method != nil, command.method != "Schedule",
               command.method != "SetAuthorization", error.name != Contract.ErrorName.notFound {
                problems.append("\(caller) acting on \(owner)'s alarm got \(error.name), not NotFound")
            }
        case .success(let m):
            stats.accepted[command.method ?? "\(command)".prefix { $0 != "(" }.description, default: 0] += 1
            stats.states.formUnion(m.upserts.map(\.state))
            for r in m.removals { stats.removals[r.reason, default: 0] += 1 }
            if let owner, !caller.isEmpty, owner != caller, command.method != nil, command.method != "SetAuthorization" {
                problems.append("\(caller) acted on \(owner)'s alarm with \(command.method!)")
            }
            let keys = m.upserts.map(\.key) + m.removals.map(\.alarm.key)
            if Set(keys).count != keys.count { problems.append("the mutation names an alarm twice: \(keys)") }
            if !caller.isEmpty, command.method != nil,
               let foreign = (m.upserts + m.removals.map(\.alarm)).first(where: { $0.appId != caller }) {
                problems.append("\(caller)'s \(command.method!) touched \(foreign.appId)'s alarm \(foreign.id)")
            }
            engine.apply(m)
            known += m.upserts.map(\.id).filter { !known.contains($0) }
            if case .due = command, let next = engine.nextDeadline, next <= clock.now() {
                problems.append("after the due alarms were handled, one is still due at \(next) (now \(clock.now()))")
            }
            for r in m.removals where engine.alarms[r.alarm.key] != nil { problems.append("\(r.alarm.id) was removed but is still there") }
        }
        problems += engine.invariantViolations()
        return problems
    }

    /// A restart: every alarm through its stored form into a new engine, which must hold the same
    /// alarms, deadlines and counts, and carries on from here.
    private mutating func reload() -> [String] {
        let old = engine
        let fresh = AlarmEngine(clock: clock, timeZone: old.timeZone, policy: old.policy, limits: old.limits,
                                ringTimeout: old.ringTimeout, missedGrace: old.missedGrace, makeID: old.makeID)
        let stored = old.alarms.values.map(\.record)
        let loaded = stored.compactMap(Alarm.init(record:))
        fresh.load(alarms: loaded, authorizations: old.authorizations)
        log.append("reload \(stored.count) alarms")
        stats.reloads += 1
        var problems: [String] = []
        if loaded.count != stored.count { problems.append("\(stored.count - loaded.count) alarms were lost through the store") }
        let a = old.alarms.values.sorted { $0.key < $1.key }, b = fresh.alarms.values.sorted { $0.key < $1.key }
        if a != b { problems.append("the reloaded alarms differ") }
        if old.nextDeadline != fresh.nextDeadline || old.nextFireTime != fresh.nextFireTime {
            problems.append("the reloaded engine is due at \(String(describing: fresh.nextDeadline)), not \(String(describing: old.nextDeadline))")
        }
        for app in Set(a.map(\.owner)) where old.alarmCount(of: app) != fresh.alarmCount(of: app) {
            problems.append("\(app) has \(fresh.alarmCount(of: app)) alarms after a reload, \(old.alarmCount(of: app)) before")
        }
        engine = fresh
        return problems + fresh.invariantViolations()
    }

    private func target(of command: Command) -> String? {
        switch command {
        case .update(let id, _, _), .cancel(let id), .stop(let id), .pause(let id), .resume(let id), .countdown(let id):
            return id
        case .schedule(let id, _):
            return id.isEmpty ? nil : id
        default:
            return nil
        }
    }

    private func describe(_ command: Command) -> String {
        func short(_ s: String) -> String { s.utf8.count > 40 ? "\(s.prefix(40).debugDescription)…(\(s.utf8.count) bytes)" : s.debugDescription }
        func keys(_ d: [String: Value]) -> String { d.keys.sorted().map(short).joined(separator: ",") }
        switch command {
        case .schedule(let id, let config): return "Schedule(\(short(id)), [\(keys(config))])"
        case .update(let id, let changes, let clear): return "Update(\(short(id)), [\(keys(changes))], clear \(clear.map(short)))"
        case .setAuthorization(let app, let state): return "SetAuthorization(\(short(app)), \(state.rawValue))"
        case .soundError(let id, let message): return "soundError(\(short(id)), \(message ?? "nil"))"
        case .due: return "due"
        case .clockStep(let delta): return "clockStep(\(delta / 1_000_000) s)"
        case .timeZoneChange(let zone): return "timeZoneChange(\(zone.name))"
        case .cancel(let id), .stop(let id), .pause(let id), .resume(let id), .countdown(let id):
            return "\(command.method!)(\(short(id)))"
        }
    }

    private func describe(_ m: Mutation) -> String {
        "ok: " + m.upserts.map { "\($0.id.prefix(8)) \($0.state.rawValue)" }.joined(separator: ", ")
            + (m.removals.isEmpty ? "" : " removed " + m.removals.map { "\($0.alarm.id.prefix(8)) \($0.reason.rawValue)" }.joined(separator: ", "))
    }
}

/// Ids for alarms scheduled without one: a sequence, so that a run replays exactly.
final class IDCounter {
    private var n: UInt64 = 0

    func next() -> AlarmKey {
        n += 1
        return AlarmKey(hi: 0x0000_0000_0000_4000 | n << 16, lo: 0x8000_0000_0000_0000 | n)
    }
}
