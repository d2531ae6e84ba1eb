// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// `org.alarmd.AlarmManager1` at `/org/alarmd/AlarmManager1`, whole: its table at the end of this file
/// (as logind's `BusObjectImplementation`) declares every method, property and signal once; the call
/// policy its flags ask for (`invoke`, for every row); the handlers; and the signals it emits for
/// every applied change.
///
/// A method that changes something follows timedated's shape: validate, authorize, decode into a
/// `Command`, and hand it to the committer, which plans it with the engine (the same `plan` the fuzzers
/// drive), applies it, persists it with the other calls of the same loop pass, answers the call once it
/// is durable, and only then announces it (`applied`, below).
final class Manager1: BusObject, ChangeSubscriber {
    typealias CallContext = Caller
    typealias CallError = AlarmError

    private let engine: EngineView
    private unowned let committer: Committer
    private let identity: Identity
    private let prompter: AuthorizationPrompter
    private let soundCopies: SoundCopies
    private let bus: Bus
    private let facts: Facts
    /// Calls that change something, per connection: apps are limited, the user's own tools only if
    /// configured.
    private var appLimiter: RateLimiter<String>?
    private var shellLimiter: RateLimiter<String>?
    /// Who hears the signals, each of what it may see.
    private let watchers = Watchers()

    /// The manager's constant properties.
    struct Facts {
        var version: String
        var wakeSupported: Bool
        var storePath: String
        /// `StoreRecovery`: empty unless the store began with a recovery.
        var storeRecovery: [(String, String)]
    }

    static let defaultPage = 1000
    static let maxPage = 10_000

    init(engine: EngineView, committer: Committer, identity: Identity, prompter: AuthorizationPrompter, soundCopies: SoundCopies,
         bus: Bus, limits: (apps: DaemonConfig.CallLimit, shell: DaemonConfig.CallLimit), facts: Facts) {
        self.engine = engine
        self.committer = committer
        self.identity = identity
        self.prompter = prompter
        self.soundCopies = soundCopies
        self.bus = bus
        self.facts = facts
        func limiter(_ l: DaemonConfig.CallLimit) -> RateLimiter<String>? {
            l.isUnlimited ? nil : RateLimiter(capacity: Double(l.burst), perSecond: Double(l.perSecond))
        }
        appLimiter = limiter(limits.apps)
        shellLimiter = limiter(limits.shell)
    }

    private var maxReplyBytes: Int { bus.maxReplyBytes }

    // MARK: call policy

    /// The call policy, for every row: who the caller is (`Identity`), whether it may call
    /// (`privileged`: the user's own tools only) and how often (`mutating`: each costs a durable
    /// write, so a connection that floods gets LimitReached); the contract's errors become D-Bus
    /// errors, each refusal logged once.
    func invoke(_ method: Interface<Manager1>.Method, _ call: MethodCall) throws(BusError) -> MethodResult {
        var caller: Caller?
        do throws(AlarmError) {
            let who = try identity.caller(of: call.message)
            caller = who
            if method.flags.contains(.mutating) {
                // A call that says who the caller is (RegisterApp) is limited as an app.
                try admit(call, who, asApp: who != .user || method.flags.contains(.identifies))
            }
            if method.flags.contains(.privileged), who != .user { throw .notAuthorized("\(call.member) is reserved to the user's own tools") }
            return try method.handler(self, call, who)
        } catch {
            Log.info(Manager1.outcome(call, caller, "refused", error))
            throw BusError(error.name, error.message)
        }
    }

    /// The one log line of a call that did not succeed, whether refused at once or answered later.
    private static func outcome(_ call: MethodCall, _ caller: Caller?, _ verb: String, _ error: AlarmError) -> String {
        "\(call.member) from \(call.sender) (app '\(caller?.appId ?? "?")') \(verb): \(error.name): \(error.message)"
    }

    /// Answers a call kept for later with `error`, logged as `invoke` logs a refusal.
    private static func replyLater(_ call: MethodCall, _ caller: Caller, _ verb: String, _ error: AlarmError) {
        Log.info(outcome(call, caller, verb, error))
        call.message.answer(BusError(error.name, error.message))
    }

    /// An app's calls share one budget, however many connections it opens (each instance of a
    /// Flatpak app, each client of its proxy, is a connection of its own); anyone else's budget is
    /// its connection's.
    private func admit(_ call: MethodCall, _ who: Caller, asApp: Bool) throws(AlarmError) {
        let key = who == .user ? call.sender : "app " + who.appId
        let admitted = asApp ? appLimiter?.admit(key, now: SystemClock.monotonic)
                             : shellLimiter?.admit(key, now: SystemClock.monotonic)
        if admitted == false { throw .limitReached("too many calls from \(who == .user ? "this connection" : "app '\(who.appId)'"); slow down") }
    }

    /// The connection went away: its budget and its watch go with it.
    func forget(sender: String) {
        appLimiter?.forget(sender)
        shellLimiter?.forget(sender)
        // An app's budget outlives its connections; once full again it is forgotten too.
        appLimiter?.prune(now: SystemClock.monotonic)
        if watchers.remove(sender) { Log.info("connection \(sender) closed; it no longer watches") }
    }

    // MARK: methods

    private func registerApp(_ call: MethodCall) throws(AlarmError) -> MethodResult {
        try identity.register(call.message, app: call.string(0))
        return .reply([])
    }

    private func watch(_ call: MethodCall, _ caller: Caller) -> MethodResult {
        watchers.add(call.sender, nextFire: engine.nextFireTime(visibleTo: caller) ?? 0)
        Log.info("connection \(call.sender) (\(caller)) watches; \(watchers.count) watching")
        return .reply([])
    }

    private func unwatch(_ call: MethodCall) -> MethodResult {
        if watchers.remove(call.sender) { Log.info("connection \(call.sender) stopped watching; \(watchers.count) watching") }
        return .reply([])
    }

    private func requestAuthorization(_ call: MethodCall, _ caller: Caller) throws(AlarmError) -> MethodResult {
        let description = call.string(0).trimmingWhitespace()
        if description.isEmpty {
            throw .invalidArgument(key: "usage_description", reason: "must say why the app wants to ring alarms")
        }
        if description.count > AlarmConfiguration.maxCompletionLength {
            throw .invalidArgument(key: "usage_description", reason: "must be at most \(AlarmConfiguration.maxCompletionLength) characters")
        }
        let state = engine.authorization(for: caller)
        // The user's own tools are decided by the configuration; an app is asked about.
        guard state == .notDetermined, case .app(let app) = caller else { return .reply([.string(state.rawValue)]) }
        try prompter.request(app: app, description: description) { state in call.message.answer([.string(state.rawValue)]) }
        return .later
    }

    private func schedule(_ call: MethodCall, _ caller: Caller) throws(AlarmError) -> MethodResult {
        var config = try configuration(call.args[1], key: "configuration")
        var id = call.string(0), clear: [String] = []
        try soundCopies.checkSound(&config, id: id, caller: caller)
        try checkSandboxed(config, call)
        let copy = try soundCopies.take(&config, clear: &clear, id: &id, isNew: true, caller: caller)
        let command = Command.schedule(id: id, configuration: config)
        let path = { (m: Mutation) -> [Value] in
            [.objectPath(AlarmID.path(of: m.upserts.first?.id ?? m.removals.first?.alarm.id ?? ""))]
        }
        do {
            return try commit(command, call, caller, copy: copy, reply: path)
        } catch {
            // AlarmKit: scheduling before the user decided asks the user, and the call waits for the
            // answer. The engine checks the configuration before the authorization: what waits is
            // valid, and is planned again, against the alarms as they are then, once allowed.
            guard case .notAuthorized = error, case .app(let app) = caller, engine.authorization(for: caller) == .notDetermined else {
                throw error
            }
            // A sound file waits open, not read: it is read again once the app is allowed.
            let waiting = copy?.waiting
            try prompter.request(app: app, description: nil) { [unowned self] state in
                do throws(AlarmError) {
                    guard state == .authorized else {
                        throw .notAuthorized(state == .denied ? "the user did not allow app '\(app)' to ring alarms"
                                                              : "the user did not answer whether app '\(app)' may ring alarms; call RequestAuthorization")
                    }
                    _ = try commit(command, call, caller, copy: waiting, reply: path)
                } catch {
                    Manager1.replyLater(call, caller, "refused", error)
                }
            }
            Log.info("Schedule from \(call.sender) (app '\(app)') waits for the user's answer")
            return .later
        }
    }

    private func update(_ call: MethodCall, _ caller: Caller) throws(AlarmError) -> MethodResult {
        var changes = try configuration(call.args[1], key: "changes")
        guard case .array(_, let cleared) = call.args[2] else { return .reply([]) }
        var id = call.string(0), clear = cleared.compactMap(\.stringValue)
        try soundCopies.checkSound(&changes, id: id, caller: caller)
        try checkSandboxed(changes, call)
        let copy = try soundCopies.take(&changes, clear: &clear, id: &id, isNew: false, caller: caller)
        return try commit(.update(id: id, changes: changes, clear: clear), call, caller, copy: copy)
    }

    private func setAuthorization(_ call: MethodCall, _ caller: Caller) throws(AlarmError) -> MethodResult {
        let target = try AppID.validate(call.string(0))
        guard let state = AuthorizationState(rawValue: call.string(1)) else {
            throw .invalidArgument(key: "state", reason: "must be one of authorized, denied, notDetermined")
        }
        // An open prompt for the app is moot once the decision is durable.
        return try commit(.setAuthorization(app: target, state: state), call, caller) { [prompter] _ in
            prompter.settled(target)
            return []
        }
    }

    private func listAuthorizations() -> MethodResult {
        let entries = engine.authorizations.sorted { $0.key < $1.key }
            .map { Value.DictEntry(.string($0.key), .string($0.value.rawValue)) }
        return .reply([.dict(key: "s", value: "s", entries)])
    }

    /// Hands `command` to the committer; the call is answered once the change is durable (or could not
    /// be made so), with what `reply` makes of the change. A refused plan throws and changes nothing.
    /// `copy`, a sound file the change names, is written once the plan is accepted.
    private func commit(_ command: Command, _ call: MethodCall, _ caller: Caller, copy: SoundCopies.Intake? = nil,
                        reply: @escaping (Mutation) -> [Value] = { _ in [] }) throws(AlarmError) -> MethodResult {
        try committer.submit(command, by: caller, "\(call.member) from \(call.sender)", stage: copy.map { ($0, soundCopies) }) { m, error in
            if let error {
                Manager1.replyLater(call, caller, "failed", error)
            } else {
                call.message.answer(reply(m))
            }
        }
        return .later
    }

    private func getAlarmsPage(_ call: MethodCall, _ caller: Caller) throws(AlarmError) -> MethodResult {
        let asked = Int(call.args[1].integerValue ?? 0)
        let limit = asked == 0 ? Manager1.defaultPage : min(asked, Manager1.maxPage)
        let after = call.string(0).isEmpty ? "" : try AlarmID.normalize(call.string(0), key: "after_id")
        return answerWhenDurable(call, caller) { message in self.replyPage(message, caller, after: after, limit: limit) }
    }

    /// Lists are answered from what is written: a change of this loop pass is not listed before it
    /// is durable, nor ever if its write fails and it is undone.
    private func answerWhenDurable(_ call: MethodCall, _ caller: Caller, _ answer: @escaping (Message) throws(AlarmError) -> Void) -> MethodResult {
        committer.whenDurable {
            do throws(AlarmError) {
                try answer(call.message)
            } catch {
                Manager1.replyLater(call, caller, "refused", error)
            }
        }
        return .later
    }

    // A list is built into the reply one alarm at a time, each property map dropped once appended:
    // as values, 10,000 alarms held some 70 MiB at once; in the message they are 4 MiB.

    private func replyList(_ message: Message, _ caller: Caller) throws(AlarmError) {
        let now = engine.clock.now()
        let visible = engine.alarms(visibleTo: caller)
        // Sized before anything is sent: a list that cannot be sent is refused whole.
        var size = Value.array(element: "a{sv}", []).marshalledEnd(from: 0)
        for alarm in visible {
            size = Value.vardict(Alarm1.properties(of: alarm, now: now)).marshalledEnd(from: size)
            if size > maxReplyBytes {
                throw .tooLarge("\(visible.count) alarms (more than \(maxReplyBytes) bytes) do not fit in one D-Bus message (at most \(maxReplyBytes) bytes); page through them with GetAlarmsPage(after_id, max_count)")
            }
        }
        message.answer { (r) throws(BusError) in
            try r.openContainer("a", "a{sv}")
            for alarm in visible { try r.append(.vardict(Alarm1.properties(of: alarm, now: now))) }
            try r.closeContainer()
        }
    }

    private func replyPage(_ message: Message, _ caller: Caller, after: String, limit: Int) {
        let now = engine.clock.now()
        // One more than the page holds tells whether another page follows, in the same scan.
        let candidates = engine.alarms(visibleTo: caller, after: after, limit: limit + 1)
        message.answer { (r) throws(BusError) in
            var size = 64, last = after, count = 0
            try r.openContainer("a", "a{sv}")
            for alarm in candidates.prefix(limit) {
                let item = Value.vardict(Alarm1.properties(of: alarm, now: now))
                size = item.marshalledEnd(from: size)
                // Always at least one, so a page always makes progress.
                if size > maxReplyBytes, count > 0 { break }
                try r.append(item)
                last = alarm.id
                count += 1
            }
            try r.closeContainer()
            try r.append(.string(candidates.count > count ? last : ""))
        }
    }

    /// sd-bus builds `GetManagedObjects` itself, all alarms in one message: refuse it, naming the
    /// way to page, when that message would outgrow the limit (dbus-daemon would disconnect alarmd).
    func filterManagedObjects(_ m: Message) -> BusError? {
        guard m.interface == Contract.objectManagerInterface, m.member == "GetManagedObjects",
              let caller = identity.identity(of: m).caller else { return nil }
        let now = engine.clock.now()
        var size = 0, count = 0
        for alarm in engine.alarms(visibleTo: caller) {
            // Each object also lists the standard interfaces sd-bus adds, with empty property maps.
            size = Value.vardict(Alarm1.properties(of: alarm, now: now)).marshalledEnd(from: size + 64 + alarm.path.utf8.count + 160)
            count += 1
        }
        guard size > maxReplyBytes else { return nil }
        let e = AlarmError.tooLarge("\(count) alarms (about \(size) bytes) do not fit in one D-Bus message (at most \(maxReplyBytes) bytes); page through them with org.alarmd.AlarmManager1.GetAlarmsPage(after_id, max_count)")
        Log.info("GetManagedObjects from \(m.sender ?? "?") refused: \(e.message)")
        return BusError(e.name, e.message)
    }

    /// What a sandboxed app may not have alarmd, which runs outside its sandbox, do for it.
    private func checkSandboxed(_ config: [String: Value], _ call: MethodCall) throws(AlarmError) {
        guard case .app(_, true) = identity.identity(of: call.message) else { return }
        try SandboxPolicy.check(config)
    }

    /// An a{sv} argument as a dictionary; a key given twice is refused rather than silently merged.
    private func configuration(_ v: Value, key: String) throws(AlarmError) -> [String: Value] {
        var out: [String: Value] = [:]
        for (k, value) in v.vardictEntries ?? [] {
            if out.updateValue(value, forKey: k) != nil { throw .invalidArgument(key: k, reason: "given twice") }
        }
        return out
    }

    // MARK: signals

    /// Tells each watcher what changed of what it may see, in this order: AlarmRemoved before
    /// InterfacesRemoved, each changed alarm's PropertiesChanged (one signal per change, every changed
    /// property), InterfacesAdded, AuthorizationChanged, and NextFireTimeUSec when it moved. Every
    /// signal is addressed to one watcher: nothing is broadcast (see `Watchers`).
    func applied(_ change: AppliedChange) {
        let m = change.mutation
        let path = Contract.managerPath
        let audience = watchers.audience { identity.caller(ofSender: $0) }
        func tell(_ about: Caller?, _ send: (String) throws(BusError) -> Void) {
            for w in audience where about.map({ w.caller == .user || w.caller == $0 }) ?? true {
                emit { () throws(BusError) in try send(w.sender) }
            }
        }
        for r in m.removals {
            Log.info("alarm \(r.alarm.id) (app '\(r.alarm.appId)') removed: \(r.reason.rawValue)")
            tell(Caller(appId: r.alarm.appId)) { (to) throws(BusError) in
                try bus.emit(Manager1.alarmRemoved, of: Manager1.interface, path: path,
                             [.string(r.alarm.id), .string(r.alarm.appId), .string(r.reason.rawValue)], to: to)
                try bus.emitInterfacesRemoved(manager: path, path: r.alarm.path, Alarm1.objectInterfaces, to: to)
            }
        }
        let now = engine.clock.now()
        for a in m.upserts {
            // A later change of the same pass may have removed it; its own signals said so.
            guard let current = engine.alarms[a.id] else { continue }
            if let old = change.before[a.id] {
                if old.state != a.state { Log.info("alarm \(a.id): \(old.state.rawValue) → \(a.state.rawValue)") }
                let changed = Alarm1.changes(from: old, to: a)
                if changed.isEmpty { continue }
                tell(Caller(appId: a.appId)) { (to) throws(BusError) in
                    try bus.emitPropertiesChanged(path: a.path, interface: Contract.alarmInterface, changed, to: to)
                }
            } else {
                Log.info("alarm \(a.id) (app '\(a.appId)', \(a.kind.rawValue)) added: \(a.state.rawValue), fires \(Log.time(a.fireTime ?? 0))")
                if audience.isEmpty { continue }
                let interfaces = Alarm1.objectInterfaces.map { ($0, $0 == Contract.alarmInterface ? Alarm1.properties(of: current, now: now) : []) }
                tell(Caller(appId: a.appId)) { (to) throws(BusError) in
                    try bus.emitInterfacesAdded(manager: path, path: a.path, interfaces, to: to)
                }
            }
        }
        for (app, state) in m.authorizations {
            Log.info("authorization of '\(app)': \(state.rawValue)")
            tell(.app(app)) { (to) throws(BusError) in
                try bus.emit(Manager1.authorizationChanged, of: Manager1.interface, path: path, [.string(app), .string(state.rawValue)], to: to)
            }
        }
        // An app's next fire time is a scan of its alarms: worked out only for apps this change touched.
        let touched = Set(m.upserts.map(\.appId) + m.removals.map(\.alarm.appId))
        var earliest: [Caller: USec] = [:]
        for w in audience {
            if case .app(let id) = w.caller, !touched.contains(id) { continue }
            let value = earliest[w.caller] ?? (engine.nextFireTime(visibleTo: w.caller) ?? 0)
            earliest[w.caller] = value
            if watchers.nextFireMoved(w.sender, to: value) {
                emit { () throws(BusError) in
                    try bus.emitPropertiesChanged(path: path, interface: Manager1.interface.name, [("NextFireTimeUSec", .uint64(value))], to: w.sender)
                }
            }
        }
    }

    private func emit(_ body: () throws(BusError) -> Void) {
        do { try body() } catch { Log.warning("signal not sent: \(error)") }
    }

    // MARK: the interface

    static let alarmRemoved = Interface<Manager1>.Signal("AlarmRemoved", [("id", "s"), ("app_id", "s"), ("reason", "s")])
    static let authorizationChanged = Interface<Manager1>.Signal("AuthorizationChanged", [("app_id", "s"), ("state", "s")])

    /// The whole of `org.alarmd.AlarmManager1` (docs/API.md; `dbus/org.alarmd.AlarmManager1.xml` is
    /// its introspection, kept identical by a test).
    static let interface = Interface<Manager1>(Contract.managerInterface, methods: [
        .init("RegisterApp", in: [("app_id", "s")], flags: [.mutating, .identifies]) { m, call, _ throws(AlarmError) in
            try m.registerApp(call)
        },
        .init("GetAuthorizationState", out: [("state", "s")]) { m, _, caller throws(AlarmError) in
            .reply([.string(m.engine.authorization(for: caller).rawValue)])
        },
        .init("RequestAuthorization", in: [("usage_description", "s")], out: [("state", "s")], flags: .mutating) { m, call, caller throws(AlarmError) in
            try m.requestAuthorization(call, caller)
        },
        .init("SetAuthorization", in: [("app_id", "s"), ("state", "s")], flags: [.mutating, .privileged]) { m, call, caller throws(AlarmError) in
            try m.setAuthorization(call, caller)
        },
        .init("ListAuthorizations", out: [("authorizations", "a{ss}")], flags: .privileged) { m, _, _ throws(AlarmError) in
            m.listAuthorizations()
        },
        .init("Schedule", in: [("id", "s"), ("configuration", "a{sv}")], out: [("alarm", "o")], flags: .mutating) { m, call, caller throws(AlarmError) in
            try m.schedule(call, caller)
        },
        .init("Update", in: [("id", "s"), ("changes", "a{sv}"), ("clear", "as")], flags: .mutating) { m, call, caller throws(AlarmError) in
            try m.update(call, caller)
        },
        .init("Cancel", in: [("id", "s")], flags: .mutating) { m, call, caller throws(AlarmError) in
            try m.commit(.cancel(id: call.string(0)), call, caller)
        },
        .init("Stop", in: [("id", "s")], flags: .mutating) { m, call, caller throws(AlarmError) in
            try m.commit(.stop(id: call.string(0)), call, caller)
        },
        .init("Pause", in: [("id", "s")], flags: .mutating) { m, call, caller throws(AlarmError) in
            try m.commit(.pause(id: call.string(0)), call, caller)
        },
        .init("Resume", in: [("id", "s")], flags: .mutating) { m, call, caller throws(AlarmError) in
            try m.commit(.resume(id: call.string(0)), call, caller)
        },
        .init("Countdown", in: [("id", "s")], flags: .mutating) { m, call, caller throws(AlarmError) in
            try m.commit(.countdown(id: call.string(0)), call, caller)
        },
        .init("GetAlarms", out: [("alarms", "aa{sv}")]) { m, call, caller throws(AlarmError) in
            m.answerWhenDurable(call, caller) { (message) throws(AlarmError) in try m.replyList(message, caller) }
        },
        .init("Watch") { m, call, caller throws(AlarmError) in
            m.watch(call, caller)
        },
        .init("Unwatch") { m, call, _ throws(AlarmError) in
            m.unwatch(call)
        },
        .init("GetAlarmsPage", in: [("after_id", "s"), ("max_count", "u")], out: [("alarms", "aa{sv}"), ("next_after_id", "s")]) { m, call, caller throws(AlarmError) in
            try m.getAlarmsPage(call, caller)
        },
    ], properties: [
        .init("Version", "s", .const) { m, _ in .string(m.facts.version) },
        // The contract's "none pending" is 0; an app's own alarms only.
        .init("NextFireTimeUSec", "t", .emitsChange) { m, _, message in
            .uint64(m.identity.viewer(of: message).flatMap { m.engine.nextFireTime(visibleTo: $0) } ?? 0)
        },
        .init("WakeSupported", "b", .const) { m, _ in .bool(m.facts.wakeSupported) },
        // Where the user's files are is the user's business: empty for apps.
        .init("StorePath", "s", .const) { m, _, message in .string(m.identity.viewer(of: message) == .user ? m.facts.storePath : "") },
        .init(Contract.StoreRecovery.property, "a{ss}", .const) { m, _, message in
            .dict(key: "s", value: "s", m.identity.viewer(of: message) != .user ? [] : m.facts.storeRecovery.map { Value.DictEntry(.string($0.0), .string($0.1)) })
        },
    ], signals: [alarmRemoved, authorizationChanged])
}
