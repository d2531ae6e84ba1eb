import Foundation
import AlarmCore
import SDBus

/// `org.alarmd.AlarmManager1`. Each method follows timedated's shape: validate, authorize, plan,
/// then the committer applies, persists (with the other calls of the same loop pass) and announces,
/// and only then is the call answered.
final class ManagerObject: BusObject {
    private let engine: AlarmEngine
    private let committer: Committer
    private let identity: Identity
    private let prompter: AuthorizationPrompter
    let maxReplyBytes: Int
    private let facts: Facts
    /// Calls that change something, per connection: apps are limited, the user's own tools only if
    /// configured.
    private var appLimiter: RateLimiter<String>?
    private var shellLimiter: RateLimiter<String>?
    static let mutating: Set<String> = ["RegisterApp", "RequestAuthorization", "SetAuthorization", "Schedule", "Update",
                                        "Cancel", "Stop", "Pause", "Resume", "Countdown"]

    /// The manager's constant properties.
    struct Facts {
        var wakeSupported: () -> Bool
        var storePath: String
        /// `StoreRecovery`: empty unless the store began with a recovery.
        var storeRecovery: [(String, String)]
    }

    static let defaultPage = 1000
    static let maxPage = 10_000

    init(engine: AlarmEngine, committer: Committer, identity: Identity, prompter: AuthorizationPrompter,
         maxReplyBytes: Int, limits: (apps: DaemonConfig.CallLimit, shell: DaemonConfig.CallLimit), facts: Facts) {
        self.engine = engine
        self.committer = committer
        self.identity = identity
        self.prompter = prompter
        self.maxReplyBytes = maxReplyBytes
        self.facts = facts
        func limiter(_ l: DaemonConfig.CallLimit) -> RateLimiter<String>? {
            l.isUnlimited ? nil : RateLimiter(capacity: Double(l.burst), perSecond: Double(l.perSecond))
        }
        appLimiter = limiter(limits.apps)
        shellLimiter = limiter(limits.shell)
    }

    /// sd-bus builds `GetManagedObjects` itself, all alarms in one message: refuse it, naming the
    /// way to page, when that message would outgrow the limit (dbus-daemon would disconnect alarmd).
    func filterManagedObjects(_ m: Message) -> BusError? {
        guard m.interface == "org.freedesktop.DBus.ObjectManager", m.member == "GetManagedObjects",
              let app = try? identity.appId(of: m) else { return nil }
        let now = engine.clock.now()
        var size = 0, count = 0
        for alarm in engine.alarms(visibleTo: app) {
            // Each object also lists the standard interfaces sd-bus adds, with empty property maps.
            size = Value.vardict(alarm.properties(now: now)).marshalledEnd(from: size + 64 + alarm.path.utf8.count + 160)
            count += 1
        }
        guard size > maxReplyBytes else { return nil }
        let e = AlarmError.tooLarge("\(count) alarms (about \(size) bytes) do not fit in one D-Bus message (at most \(maxReplyBytes) bytes); page through them with org.alarmd.AlarmManager1.GetAlarmsPage(after_id, max_count)")
        Log.info("GetManagedObjects from \(m.sender ?? "?") refused: \(e.message)")
        return BusError(e.name, e.message)
    }


    /// The connection went away: its budget goes with it.
    func forget(sender: String) {
        appLimiter?.forget(sender)
        shellLimiter?.forget(sender)
    }

    func handle(_ call: MethodCall) throws(BusError) -> MethodResult {
        var app = "?"
        do throws(AlarmError) {
            if call.member == "RegisterApp" {
                try admit(call, app: "?")
                try identity.register(call.message, app: call.args.first?.stringValue ?? "")
                return .reply([])
            }
            app = try identity.appId(of: call.message)
            try admit(call, app: app)
            return try dispatch(call, app: app)
        } catch {
            Log.info("\(call.member) from \(call.sender) (app '\(app)') refused: \(error.name): \(error.message)")
            throw BusError(error.name, error.message)
        }
    }

    /// Each mutating call costs a durable write: a connection that floods gets LimitReached.
    private func admit(_ call: MethodCall, app: String) throws(AlarmError) {
        guard ManagerObject.mutating.contains(call.member) else { return }
        let admitted = app.isEmpty ? shellLimiter?.admit(call.sender, now: Clocks.monotonic)
                                   : appLimiter?.admit(call.sender, now: Clocks.monotonic)
        if admitted == false { throw .limitReached("too many calls from this connection; slow down") }
    }

    /// Hands `m` to the committer and answers the call once it is durable (or could not be made so).
    private func commit(_ m: Mutation, _ call: MethodCall, app: String, reply values: [Value] = [],
                        then: @escaping () -> Void = {}) -> MethodResult {
        committer.submit(m, "\(call.member) from \(call.sender)") { error in
            if let error {
                Log.info("\(call.member) from \(call.sender) (app '\(app)') failed: \(error.name): \(error.message)")
                try? call.message.replyError(BusError(error.name, error.message))
            } else {
                then()
                try? call.message.reply(values)
            }
        }
        return .later
    }

    private func dispatch(_ call: MethodCall, app: String) throws(AlarmError) -> MethodResult {
        let a = call.args
        func string(_ i: Int) -> String { a[i].stringValue ?? "" }
        switch call.member {
        case "GetAuthorizationState":
            return .reply([.string(engine.authorization(for: app).rawValue)])
        case "RequestAuthorization":
            let description = string(0).trimmingCharacters(in: .whitespacesAndNewlines)
            if description.isEmpty {
                throw .invalidArgument(key: "usage_description", reason: "must say why the app wants to ring alarms")
            }
            if description.count > AlarmConfiguration.maxCompletionLength {
                throw .invalidArgument(key: "usage_description", reason: "must be at most \(AlarmConfiguration.maxCompletionLength) characters")
            }
            guard engine.authorization(for: app) == .notDetermined else {
                return .reply([.string(engine.authorization(for: app).rawValue)])
            }
            prompter.request(app: app, description: description, waiter: call.message)
            return .later
        case "Schedule":
            let config = try configuration(a[1], key: "configuration")
            try checkSoundPath(config, call)
            let m: Mutation
            do {
                m = try engine.planSchedule(app: app, id: string(0), configuration: config)
            } catch {
                // AlarmKit: scheduling before the user decided asks the user, and fails for now.
                if case .notAuthorized = error, engine.authorization(for: app) == .notDetermined {
                    prompter.request(app: app, description: nil, waiter: nil)
                }
                throw error
            }
            let id = m.upserts.first?.id ?? m.removals.first?.alarm.id ?? ""
            return commit(m, call, app: app, reply: [.objectPath(AlarmID.path(of: id))])
        case "SetAuthorization":
            try requireShell(app, call.member)
            let target = try AppID.validate(string(0))
            guard let state = AuthorizationState(rawValue: string(1)) else {
                throw .invalidArgument(key: "state", reason: "must be one of authorized, denied, notDetermined")
            }
            // An open prompt for the app is moot once the decision is durable.
            return commit(engine.authorizations[target] != state ? engine.planSetAuthorization(app: target, state: state) : Mutation(),
                          call, app: app) { [prompter] in prompter.settled(target) }
        case "ListAuthorizations":
            try requireShell(app, call.member)
            let entries = engine.authorizations.sorted { $0.key < $1.key }
                .map { Value.DictEntry(.string($0.key), .string($0.value.rawValue)) }
            return .reply([.dict(key: "s", value: "s", entries)])
        case "Update":
            let changes = try configuration(a[1], key: "changes")
            try checkSoundPath(changes, call)
            guard case .array(_, let items) = a[2] else { return .reply([]) }
            return commit(try engine.planUpdate(app: app, id: string(0), changes: changes, clear: items.compactMap(\.stringValue)),
                          call, app: app)
        case "Cancel", "Stop", "Pause", "Resume", "Countdown":
            let plan: (String, String) throws(AlarmError) -> Mutation = switch call.member {
            case "Cancel": engine.planCancel
            case "Stop": engine.planStop
            case "Pause": engine.planPause
            case "Resume": engine.planResume
            default: engine.planCountdown
            }
            return commit(try plan(app, string(0)), call, app: app)
        case "GetAlarms":
            return answerWhenDurable(call, app: app) { () throws(AlarmError) in try self.alarmList(app: app) }
        case "GetAlarmsPage":
            let asked = Int(a[1].integerValue ?? 0)
            let limit = asked == 0 ? ManagerObject.defaultPage : min(asked, ManagerObject.maxPage)
            let after = string(0).isEmpty ? "" : try AlarmID.normalize(string(0), key: "after_id")
            return answerWhenDurable(call, app: app) { self.alarmPage(app: app, after: after, limit: limit) }
        default:
            throw .invalidArgument(key: "member", reason: "unknown method \(call.member)")
        }
    }

    /// Lists are answered from what is written: a change of this loop pass is not listed before it
    /// is durable, nor ever if its write fails and it is undone.
    private func answerWhenDurable(_ call: MethodCall, app: String, _ body: @escaping () throws(AlarmError) -> [Value]) -> MethodResult {
        committer.whenDurable {
            let values: [Value]
            do throws(AlarmError) {
                values = try body()
            } catch {
                Log.info("\(call.member) from \(call.sender) (app '\(app)') refused: \(error.name): \(error.message)")
                try? call.message.replyError(BusError(error.name, error.message))
                return
            }
            try? call.message.reply(values)
        }
        return .later
    }

    private func alarmList(app: String) throws(AlarmError) -> [Value] {
        let now = engine.clock.now()
        let visible = engine.alarms(visibleTo: app)
        let reply = Value.array(element: "a{sv}", visible.map { .vardict($0.properties(now: now)) })
        let size = Value.marshalledSize([reply])
        if size > maxReplyBytes {
            throw .tooLarge("\(visible.count) alarms (\(size) bytes) do not fit in one D-Bus message (at most \(maxReplyBytes) bytes); page through them with GetAlarmsPage(after_id, max_count)")
        }
        return [reply]
    }

    private func alarmPage(app: String, after: String, limit: Int) -> [Value] {
        let now = engine.clock.now()
        // One more than the page holds tells whether another page follows, in the same scan.
        let candidates = engine.alarms(visibleTo: app, after: after, limit: limit + 1)
        var items: [Value] = [], size = 64, last = after
        for alarm in candidates.prefix(limit) {
            let item = Value.vardict(alarm.properties(now: now))
            size = item.marshalledEnd(from: size)
            // Always at least one, so a page always makes progress.
            if size > maxReplyBytes, !items.isEmpty { break }
            items.append(item)
            last = alarm.id
        }
        let more = candidates.count > items.count
        return [.array(element: "a{sv}", items), .string(more ? last : "")]
    }

    /// A sandboxed app may not name files outside its sandbox: `SoundError` would tell it whether
    /// they exist. It may use the sound theme and alarmd's own sounds.
    private func checkSoundPath(_ config: [String: Value], _ call: MethodCall) throws(AlarmError) {
        guard case .string(let sound)? = config["sound"], sound.hasPrefix("/"),
              case .app(_, true) = identity.identity(of: call.message) else { return }
        throw .invalidArgument(key: "sound", reason: "a sandboxed app may name a sound-theme event or one of alarmd's sounds, not a file path")
    }

    private func requireShell(_ app: String, _ method: String) throws(AlarmError) {
        guard app.isEmpty else { throw .notAuthorized("\(method) is reserved to the user's own tools") }
    }

    /// An a{sv} argument as a dictionary; a key given twice is refused rather than silently merged.
    private func configuration(_ v: Value, key: String) throws(AlarmError) -> [String: Value] {
        var out: [String: Value] = [:]
        for (k, value) in v.vardictEntries ?? [] {
            if out.updateValue(value, forKey: k) != nil { throw .invalidArgument(key: k, reason: "given twice") }
        }
        return out
    }

    func property(_ name: String, path: String) -> Value? {
        switch name {
        case "Version": return .string(Interfaces.version)
        case "NextFireTimeUSec": return .uint64(engine.nextFireTime)
        case "WakeSupported": return .bool(facts.wakeSupported())
        case "StorePath": return .string(facts.storePath)
        case Contract.StoreRecovery.property:
            return .dict(key: "s", value: "s", facts.storeRecovery.map { Value.DictEntry(.string($0.0), .string($0.1)) })
        default: return nil
        }
    }
}
