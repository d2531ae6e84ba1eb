// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The AlarmKit state machine over every alarm of every app.
///
/// `plan(_:caller:)`, its one way in, validates a `Command` and computes a `Mutation` without
/// changing anything; `apply` makes it current. The shell persists a mutation between the two, so a
/// failed write changes nothing. The bus, the tests and the fuzzers all plan through it.
public final class AlarmEngine {
    public let clock: any Clock
    /// Where the ids of alarms scheduled without one come from: random UUIDs, or a sequence a test
    /// or a fuzzer can replay.
    public let makeID: () -> AlarmKey
    /// The local zone's rules, as the shell read them from the system's zone database; a
    /// `.timeZoneChange` mutation replaces them.
    public private(set) var timeZone: Zone
    public let policy: AuthorizationPolicy
    public let limits: Limits
    /// Seconds an unanswered alert rings before it ends as `timeout`; 0 = never.
    public let ringTimeout: UInt64
    /// Seconds late an alert may still ring (after suspend or downtime); later ones are missed.
    public let missedGrace: UInt64

    public private(set) var authorizations: [String: AuthorizationState] = [:]
    // Internal rather than private so that `invariantViolations` (and a test that breaks them on
    // purpose) can reach them; nothing else outside this file changes them.
    /// Every alarm, densely: a removal moves the last one into the hole.
    var slots = SlotStore()
    /// Where each alarm is in `slots`.
    var index = SlotIndex()
    /// When each slot's alarm next needs the machine's attention (pre-alert start, warning, alert, timeout).
    var deadlines = SlotHeap()
    /// Pending alerts only, for `NextFireTimeUSec`.
    var pendingAlerts = SlotHeap()
    /// Alarms per app; its keys are also the app ids every alarm of the app shares (interned).
    var perApp: [String: Int] = [:]

    public init(clock: any Clock, timeZone: Zone = .utc, policy: AuthorizationPolicy = .init(),
                limits: Limits = .init(), ringTimeout: UInt64 = 600, missedGrace: UInt64 = 60,
                makeID: @escaping () -> AlarmKey = AlarmKey.random) {
        self.clock = clock
        self.makeID = makeID
        self.timeZone = timeZone
        self.policy = policy
        self.limits = limits
        self.ringTimeout = ringTimeout
        self.missedGrace = missedGrace
    }

    /// The `secondary_button` the user's own alarms and timers get when they name none.
    public static let userSnoozeButton = "Snooze"

    // MARK: queries

    public var count: Int { slots.count }

    /// Every alarm, by id.
    public var alarms: AlarmTable { AlarmTable(slots: slots, index: index) }

    /// The earliest instant at which `planDue` has work.
    public var nextDeadline: USec? { deadlines.min?.priority }

    /// The earliest pending alert of any app; nil when none is pending.
    public var nextFireTime: USec? { pendingAlerts.min?.priority }

    /// The earliest pending alert among the alarms `caller` may see: an app is never told when
    /// another app's alarm rings. The user's own tools see every alarm, and read the index; an app's
    /// is a scan of its alarms.
    public func nextFireTime(visibleTo caller: Caller) -> USec? {
        guard case .app = caller else { return nextFireTime }
        var earliest: USec?
        for a in slots where caller.owns(a) {
            if let t = pendingAlert(of: a), t < earliest ?? .max { earliest = t }
        }
        return earliest
    }

    public func authorization(for caller: Caller) -> AuthorizationState {
        guard case .app(let id) = caller, let decided = authorizations[id] else { return policy.initialState(for: caller) }
        return decided
    }

    /// The alarm `id` if `caller` may see it. Other apps' alarms are `NotFound`, never "forbidden".
    func alarm(_ id: String, visibleTo caller: Caller) throws(AlarmError) -> Alarm {
        let key = try AlarmID.key(id)
        guard let i = index.find(key, in: slots), caller.owns(slots[i]) else {
            throw .notFound("no alarm with id \(key)")
        }
        return slots[i]
    }

    /// Up to `limit` of the alarms `caller` may see whose ids sort after `after`, in id order: a cursor
    /// that stays valid while alarms come and go between pages.
    public func alarms(visibleTo caller: Caller, after: String, limit: Int) -> AlarmSelection {
        guard limit > 0 else { return AlarmSelection(slots: slots, order: []) }
        let visible: (Alarm) -> Bool
        if after.isEmpty {
            visible = { caller.owns($0) }
        } else if let k = AlarmKey(after), k.string == after {
            visible = { $0.key > k && caller.owns($0) }
        } else {
            visible = { $0.id > after && caller.owns($0) }
        }
        var page = SmallestSelection<(key: AlarmKey, slot: Int32)>(capacity: limit) { $0.key < $1.key }
        for (i, a) in slots.enumerated() where visible(a) { page.offer((a.key, Int32(i))) }
        return AlarmSelection(slots: slots, order: page.sorted().map(\.slot))
    }

    /// The alarms `caller` may see, soonest first.
    public func alarms(visibleTo caller: Caller) -> AlarmSelection {
        var order: [Int32] = []
        for (i, a) in slots.enumerated() where caller.owns(a) { order.append(Int32(i)) }
        // Paused ones, which have no fire time, first.
        order.sort { (slots[Int($0)].fireTime ?? 0, slots[Int($0)].key) < (slots[Int($1)].fireTime ?? 0, slots[Int($1)].key) }
        return AlarmSelection(slots: slots, order: order)
    }

    public func alarmCount(of caller: Caller) -> Int { perApp[caller.appId] ?? 0 }

    // MARK: loading

    /// Takes the stored alarms (and decisions). Into an empty engine the store becomes the engine's
    /// own storage as it is (not copied: give alarms of one app the same `appId` string, as the store
    /// does, for them to share it), and both deadline indexes are built at once.
    public func load(alarms list: SlotStore, authorizations auth: [String: AuthorizationState]) {
        authorizations = auth
        guard slots.isEmpty else {
            var m = Mutation()
            m.upserts = Array(list)
            apply(m)
            return
        }
        slots = list
        index.reserve(slots.count, slots: slots)
        for i in slots.indices {
            perApp[slots[i].appId, default: 0] += 1
            guard index.find(slots[i].key, in: slots) == nil else {
                // The same id twice (no store writes that): one at a time, the later one winning.
                slots = SlotStore()
                index = SlotIndex()
                perApp = [:]
                var m = Mutation()
                m.upserts = Array(list)
                apply(m)
                return
            }
            index.insert(slot: i, in: slots)
        }
        deadlines = SlotHeap(priorities: slots.map { deadline(of: $0) })
        pendingAlerts = SlotHeap(priorities: slots.map { pendingAlert(of: $0) })
    }

    public func load(alarms list: [Alarm], authorizations auth: [String: AuthorizationState]) {
        load(alarms: SlotStore(list), authorizations: auth)
    }

    /// The app id every alarm of `app` shares.
    private func intern(_ app: String) -> String {
        if let i = perApp.index(forKey: app) { return perApp[i].key }
        return app
    }

    // MARK: plans

    /// The change `command` asks for on behalf of `caller`; nothing changes until `apply`. A refusal
    /// throws the contract's error. What the machine reports (`.due`, a clock step, a zone change, a
    /// sound error) is never refused.
    public func plan(_ command: Command, caller: Caller) throws(AlarmError) -> Mutation {
        switch command {
        case .schedule(let id, let configuration):
            return try planSchedule(caller, id: id, configuration: configuration)
        case .update(let id, let changes, let clear):
            return try planUpdate(caller, id: id, changes: changes, clear: clear)
        case .cancel(let id):
            var m = Mutation()
            m.record(.remove(try alarm(id, visibleTo: caller), .cancelled))
            return m
        case .stop(let id):
            return try planStop(caller, id: id)
        case .pause(let id):
            return try planPause(caller, id: id)
        case .resume(let id):
            return try planResume(caller, id: id)
        case .countdown(let id):
            return try planCountdown(caller, id: id)
        case .setAuthorization(let app, let state):
            guard caller == .user else { throw .notAuthorized("SetAuthorization is reserved to the user's own tools") }
            let target = try AppID.validate(app)
            // Setting what is already set changes nothing (and announces nothing).
            return authorizations[target] == state ? Mutation() : planSetAuthorization(app: target, state: state)
        case .soundError(let id, let message):
            return planSoundError(id: id, message)
        case .due:
            var m = Mutation()
            var log = StepLog(zone: timeZone)
            recordDue(into: &m, log: &log, now: clock.now())
            return m
        case .clockStep(let delta):
            return planClockStep(delta: delta)
        case .timeZoneChange(let zone):
            return planTimeZoneChange(to: zone)
        }
    }

    private func planSchedule(_ caller: Caller, id requested: String, configuration: [String: Value]) throws(AlarmError) -> Mutation {
        let id = requested.isEmpty ? makeID() : try AlarmID.key(requested)
        let now = clock.now()
        var configuration = configuration
        // The user's own alarms (a panel's, alarmctl's) are snoozed wherever they ring: their
        // notification and lock-screen card offer Snooze, as the panel menu does. An app decides for
        // its own alarms.
        if caller == .user, configuration["secondary_button"] == nil, configuration["secondary_button_behavior"] == nil {
            configuration["secondary_button"] = .string(Self.userSnoozeButton)
        }
        let config = try AlarmConfiguration.parse(configuration, now: now)
        switch authorization(for: caller) {
        case .authorized: break
        case .denied: throw .notAuthorized("alarms are denied for app '\(caller.appId)'")
        case .notDetermined: throw .notAuthorized("app '\(caller.appId)' has not been authorized to schedule alarms; call RequestAuthorization")
        }
        if index.find(id, in: slots) != nil { throw .alreadyExists("an alarm with id \(id) already exists") }
        if let max = limits.limit(for: caller), alarmCount(of: caller) >= max {
            throw .limitReached("app '\(caller.appId)' already has its maximum of \(max) alarms")
        }
        var alarm = Alarm(key: id, appId: intern(caller.appId), config: config, run: .scheduled(fireTime: 0))
        arm(&alarm, now: now, zone: timeZone)
        var m = Mutation()
        m.record(step(alarm, now: now))
        return m
    }

    private func planUpdate(_ caller: Caller, id: String, changes: [String: Value], clear: [String]) throws(AlarmError) -> Mutation {
        var alarm = try self.alarm(id, visibleTo: caller)
        let now = clock.now()
        for key in clear {
            if !AlarmConfiguration.isKnownKey(key) { throw .invalidArgument(key: key, reason: "unknown configuration key in clear") }
            if changes[key] != nil { throw .invalidArgument(key: key, reason: "is both changed and cleared") }
        }
        var raw = alarm.config.raw
        for key in clear { raw.removeValue(forKey: key) }
        // A new duration supersedes the old end date; otherwise end_date would silently win.
        if changes["duration"] != nil && changes["end_date"] == nil { raw.removeValue(forKey: "end_date") }
        raw.merge(changes) { _, new in new }
        let config = try AlarmConfiguration.parse(raw, now: now, fresh: Set(changes.keys), previous: alarm.config)
        if config.kind != alarm.kind {
            let key = changes.keys.sorted().first { AlarmConfiguration.scheduleKeys.contains($0) } ?? "schedule"
            throw .invalidArgument(key: key, reason: "cannot turn \(alarm.kind == .timer ? "a timer into an alarm" : "an alarm into a timer"); cancel and schedule anew")
        }
        let timingKeys = AlarmConfiguration.scheduleKeys.union(["pre_alert"])
        let retimed = !timingKeys.isDisjoint(with: changes.keys) || !timingKeys.isDisjoint(with: clear)
        // Switching on what is already on, or off what is off, leaves its run as it is (a snooze, say).
        let switchedOn = config.enabled && !alarm.config.enabled
        alarm.config = config
        if retimed || switchedOn || !config.enabled {
            arm(&alarm, now: now, zone: timeZone)
            if switchedOn, case .scheduled(let fire) = alarm.run, fire <= now {
                // Only a fixed date not given anew can lie in the past here: it has no next occurrence.
                throw .invalidArgument(key: "enabled", reason: "cannot switch on an alarm whose fixed_date has passed; give a new fixed_date with it")
            }
        } else if alarm.phase == .warning,
                  config.warningThreshold == 0
                    || alarm.remaining(now: now) > UInt64(config.warningThreshold) * usecPerSecond {
            alarm.run.setPhase(.normal)
        }
        var m = Mutation()
        m.record(step(alarm, now: now))
        return m
    }

    private func planStop(_ caller: Caller, id: String) throws(AlarmError) -> Mutation {
        let alarm = try self.alarm(id, visibleTo: caller)
        try require(alarm, in: .alerting, for: "Stop")
        var m = Mutation()
        var log = StepLog(zone: timeZone)
        m.record(finishAlert(alarm, now: clock.now(), reason: .stopped, log: &log))
        return m
    }

    private func planPause(_ caller: Caller, id: String) throws(AlarmError) -> Mutation {
        var alarm = try self.alarm(id, visibleTo: caller)
        guard case .countdown(var c, _) = alarm.run else { throw wrongState(alarm, .countdown, for: "Pause") }
        c.elapsed = c.total.minusSaturating(alarm.remaining(now: clock.now()))
        alarm.run = .paused(c)
        var m = Mutation()
        m.record(.keep(alarm))
        return m
    }

    private func planResume(_ caller: Caller, id: String) throws(AlarmError) -> Mutation {
        var alarm = try self.alarm(id, visibleTo: caller)
        guard case .paused(var c) = alarm.run else { throw wrongState(alarm, .paused, for: "Resume") }
        let now = clock.now()
        c.start = now
        c.measuresDuration = true
        alarm.run = .countdown(c, fireTime: now.plusSaturating(c.total.minusSaturating(c.elapsed)))
        var m = Mutation()
        m.record(step(alarm, now: now))
        return m
    }

    /// Snooze / repeat: a new countdown of `post_alert` seconds.
    private func planCountdown(_ caller: Caller, id: String) throws(AlarmError) -> Mutation {
        var alarm = try self.alarm(id, visibleTo: caller)
        try require(alarm, in: .alerting, for: "Countdown")
        let now = clock.now()
        startCountdown(&alarm, now: now, total: UInt64(alarm.config.postAlert) * usecPerSecond)
        var m = Mutation()
        m.snoozed.insert(alarm.id)
        m.record(step(alarm, now: now))
        return m
    }

    /// Records (or clears, with nil) why an alerting alarm cannot be heard.
    private func planSoundError(id: String, _ message: String?) -> Mutation {
        var m = Mutation()
        guard let key = AlarmKey(id), let i = index.find(key, in: slots) else { return m }
        var a = slots[i]
        guard a.soundError != message else { return m }
        a.soundError = message
        m.upserts.append(a)
        return m
    }

    private func planSetAuthorization(app: String, state: AuthorizationState) -> Mutation {
        var m = Mutation()
        m.authorizations.append((app, state))
        if state == .denied {
            for a in slots where a.appId == app { m.record(.remove(a, .revoked)) }
        }
        return m
    }

    /// Steps every alarm whose deadline has come, except those `m` already holds.
    private func recordDue(into m: inout Mutation, log: inout StepLog, now: USec) {
        let planned = Set(m.upserts.map(\.key) + m.removals.map(\.alarm.key))
        for a in deadlines.slots(atMost: now).map({ slots[$0] }).sorted(by: { $0.key < $1.key }) where !planned.contains(a.key) {
            let outcome = step(a, now: now, log: &log)
            // Only the ring timeout ends an alert on its own.
            if a.state == .alerting, outcome.alarm.state != .alerting || outcome.isRemoval { m.timedOut.append(a) }
            m.record(outcome)
        }
        m.missed = log.missed
    }

    /// The wall clock was stepped by `delta` µs (NTP, by hand, or the daemon was down while the
    /// clock moved differently from the time that passed): countdowns that measure a duration move
    /// along and keep their remaining time; instants stay. Then whatever became due is planned.
    private func planClockStep(delta: Int64) -> Mutation {
        var m = Mutation()
        let now = clock.now()
        var log = StepLog(zone: timeZone)
        for var a in slots where delta != 0 {
            guard case .countdown(var c, let fire) = a.run, c.measuresDuration else { continue }
            c.start = c.start.shifted(by: delta)
            a.run = .countdown(c, fireTime: fire.shifted(by: delta))
            m.record(step(a, now: now, log: &log))
        }
        recordDue(into: &m, log: &log, now: now)
        return m
    }

    /// The local time zone changed: alarms set for a wall-clock time follow it; instants do not.
    /// The zone itself changes with the rest, in `apply`.
    private func planTimeZoneChange(to zone: Zone) -> Mutation {
        var m = Mutation()
        m.timeZone = zone
        let now = clock.now()
        var log = StepLog(zone: zone)
        for a in slots {
            let leadsToAnInstant: Bool
            switch a.run {
            case .scheduled: leadsToAnInstant = true
            case .countdown(let c, _): leadsToAnInstant = !c.measuresDuration
            case .paused, .alerting, .off: leadsToAnInstant = false
            }
            guard a.config.isRelative, leadsToAnInstant else { continue }
            var moved = a
            arm(&moved, now: now, zone: zone)
            guard moved.fireTime != a.fireTime else { continue }
            m.record(step(moved, now: now, log: &log))
        }
        m.missed = log.missed
        return m
    }

    // MARK: apply

    public func apply(_ m: Mutation) {
        if let zone = m.timeZone { timeZone = zone }
        for (app, state) in m.authorizations { authorizations[app] = state }
        for r in m.removals { remove(r.alarm.key) }
        for var a in m.upserts {
            a.appId = intern(a.appId)
            let slot: Int
            if let i = index.find(a.key, in: slots) {
                slot = i
                slots[slot] = a
            } else {
                slot = slots.count
                slots.append(a)
                index.insert(slot: slot, in: slots)
                perApp[a.appId, default: 0] += 1
            }
            deadlines.set(slot, deadline(of: a))
            pendingAlerts.set(slot, pendingAlert(of: a))
        }
    }

    private func remove(_ key: AlarmKey) {
        guard let i = index.remove(key, in: slots) else { return }
        let app = slots[i].appId
        deadlines.remove(i)
        pendingAlerts.remove(i)
        let last = slots.count - 1
        if i != last {
            slots.swapAt(i, last)
            index.move(slots[i].key, from: last, to: i)
            deadlines.move(from: last, to: i)
            pendingAlerts.move(from: last, to: i)
        }
        slots.removeLast()
        deadlines.truncate(slots: slots.count)
        pendingAlerts.truncate(slots: slots.count)
        perApp[app, default: 1] -= 1
        if perApp[app] == 0 { perApp.removeValue(forKey: app) }
    }

    /// Undoes a decision that could not be saved: the app is as if never asked.
    public func forgetAuthorization(_ app: String) {
        authorizations.removeValue(forKey: app)
    }

    // MARK: the state machine

    private func wrongState(_ a: Alarm, _ state: AlarmState, for method: String) -> AlarmError {
        .invalidState("\(method) needs an alarm in state '\(state.rawValue)', but \(a.id) is '\(a.state.rawValue)'")
    }

    private func require(_ a: Alarm, in state: AlarmState, for method: String) throws(AlarmError) {
        guard a.state == state else { throw wrongState(a, state, for: method) }
    }

    /// Sets the alarm's first (or re-armed) run from its configuration, wall-clock times in `zone`.
    func arm(_ a: inout Alarm, now: USec, zone: Zone) {
        guard a.config.enabled else {
            a.soundError = nil
            a.run = .off
            return
        }
        switch a.config.schedule {
        case .timer(let seconds, let end):
            let total = end.map { $0.minusSaturating(now) } ?? seconds * usecPerSecond
            // A timer given an end date leads up to that instant; one given a duration measures it.
            startCountdown(&a, now: now, total: total, measuresDuration: end == nil)
        case .fixed(let date):
            a.soundError = nil
            a.run = .scheduled(fireTime: date)
        case .relative(let hour, let minute, let days):
            a.soundError = nil
            a.run = .scheduled(fireTime: ScheduleMath.nextOccurrence(hour: hour, minute: minute, weekdays: Set(days), after: now, in: zone))
        }
    }

    func startCountdown(_ a: inout Alarm, now: USec, total: USec, measuresDuration: Bool = true) {
        a.soundError = nil
        a.run = .countdown(Countdown(start: now, total: total, measuresDuration: measuresDuration), fireTime: now.plusSaturating(total))
    }

    /// When the machine must next act on `a`, nil if never on its own (paused).
    func deadline(of a: Alarm) -> USec? {
        switch a.run {
        case .scheduled(let fire):
            return a.config.preAlert > 0 ? fire.minusSaturating(UInt64(a.config.preAlert) * usecPerSecond) : fire
        case .countdown(let c, let fire):
            let threshold = UInt64(a.config.warningThreshold) * usecPerSecond
            if threshold > 0 && c.phase == .normal { return fire.minusSaturating(threshold) }
            return fire
        case .paused, .off:
            return nil
        case .alerting(_, let since, _):
            return ringTimeout > 0 ? since.plusSaturating(ringTimeout * usecPerSecond) : nil
        }
    }

    /// The alert `a` is waiting for, for `NextFireTimeUSec`; nil when it waits for none.
    func pendingAlert(of a: Alarm) -> USec? {
        switch a.run {
        case .scheduled(let fire), .countdown(_, let fire): return fire
        case .paused, .alerting, .off: return nil
        }
    }

    /// The zone stepping re-arms repeating alarms in (the new one, during a zone change), and what it
    /// noticed besides the outcome itself.
    struct StepLog {
        let zone: Zone
        var missed: [Alarm] = []
    }

    func step(_ alarm: Alarm, now: USec) -> StepOutcome {
        var log = StepLog(zone: timeZone)
        return step(alarm, now: now, log: &log)
    }

    /// Applies every transition due at `now`, in order.
    func step(_ alarm: Alarm, now: USec, log: inout StepLog) -> StepOutcome {
        var a = alarm
        while let due = deadline(of: a), due <= now {
            switch a.run {
            case .scheduled(let fire):
                if fire <= now { return alert(a, at: fire, now: now, log: &log) }
                // Entering the pre-alert window: a countdown that began preAlert before the fire time,
                // leading up to it.
                let total = UInt64(a.config.preAlert) * usecPerSecond
                a.run = .countdown(Countdown(start: fire.minusSaturating(total), total: total, measuresDuration: false), fireTime: fire)
            case .countdown(var c, let fire):
                if fire <= now { return alert(a, at: fire, now: now, log: &log) }
                c.phase = .warning
                a.run = .countdown(c, fireTime: fire)
            case .alerting:
                return finishAlert(a, now: now, reason: .timeout, log: &log)
            case .paused, .off:
                return .keep(a)
            }
        }
        return .keep(a)
    }

    /// The alert due at `fire`, found at `now`.
    private func alert(_ alarm: Alarm, at fire: USec, now: USec, log: inout StepLog) -> StepOutcome {
        var a = alarm
        // Found due long after its time (suspend, downtime, a clock step): missed, not rung late —
        // and never a backlog: a repeating alarm goes straight to its next occurrence.
        if now.minusSaturating(fire) > missedGrace * usecPerSecond && !a.config.triggerIfMissed {
            log.missed.append(a)
            return finishAlert(a, now: now, reason: .missed, log: &log)
        }
        if !a.config.ring { return finishAlert(a, now: now, reason: .completed, log: &log) }
        a.run = .alerting(fireTime: fire, since: now, countdown: a.run.countdown)
        a.soundError = nil
        return .keep(a)
    }

    /// The end of an alert: one-shots leave with `reason`; repeating alarms go to their next occurrence.
    private func finishAlert(_ alarm: Alarm, now: USec, reason: RemovalReason, log: inout StepLog) -> StepOutcome {
        guard alarm.config.schedule.isRepeating else { return .remove(alarm, reason) }
        var a = alarm
        arm(&a, now: max(now, a.fireTime ?? now), zone: log.zone)
        return step(a, now: now, log: &log)
    }
}

/// The engine's alarms as a read-only table: by id (any spelling `AlarmID.normalize` accepts) or by key.
/// Alarms of the engine in a chosen order, read in place: the engine's storage (shared, not copied)
/// and the slots to read, 4 bytes an alarm. A list of 100,000 alarms as a copy is tens of MiB.
public struct AlarmSelection: RandomAccessCollection {
    fileprivate let slots: SlotStore
    fileprivate let order: [Int32]

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }
    public subscript(position: Int) -> Alarm { slots[Int(order[position])] }
}

public struct AlarmTable {
    fileprivate let slots: SlotStore
    fileprivate let index: SlotIndex

    public subscript(id: String) -> Alarm? {
        AlarmKey(id).flatMap { self[$0] }
    }

    public subscript(key: AlarmKey) -> Alarm? {
        index.find(key, in: slots).map { slots[$0] }
    }

    /// Every alarm, in no particular order.
    public var values: SlotStore { slots }
    var count: Int { slots.count }
    var isEmpty: Bool { slots.isEmpty }
}
