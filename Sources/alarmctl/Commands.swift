import AlarmClient
import AlarmCore
import Foundation
import SDBus

/// The one-shot commands: ask alarmd, print, exit.
struct Commands {
    let proxy: AlarmManagerProxy
    let out: Output

    init(_ proxy: AlarmManagerProxy, _ out: Output) {
        self.proxy = proxy
        self.out = out
    }

    var now: USec { SystemClock().now() }

    func alarms() throws(CLIError) -> [AlarmSnapshot] {
        do { return try proxy.alarms() } catch { throw .bus(error, doing: "cannot list alarms") }
    }

    // MARK: list

    func list(_ argv: [String]) throws(CLIError) -> Int32 {
        let a = try Arguments(argv, command: "list", flags: ["json", "all"])
        guard a.positional.isEmpty else { throw .usage("'list' takes no arguments", command: "list") }
        let items = try alarms()
        if a.flags.contains("json") {
            out.line(JSON.text(items.map { JSON.object($0.properties) }))
            return 0
        }
        let sorted = AlarmSnapshot.readingOrder(items)
        if sorted.isEmpty {
            out.line("No alarms or timers. Set one with 'alarmctl alarm 07:30' or 'alarmctl timer 25m'.")
            return 0
        }
        let ids = a.flags.contains("all") ? Dictionary(sorted.map { ($0.id, $0.id) }, uniquingKeysWith: { x, _ in x })
                                          : IDPrefix.shortest(sorted.map(\.id))
        let t = now
        var header = ["ID", "KIND", "STATE", "NEXT", "IN", "REPEAT", "TITLE", "APP"]
        if a.flags.contains("all") { header.insert(contentsOf: ["SOUND", "SNOOZE", "PRE-ALERT"], at: 7) }
        let rows = sorted.map { s -> [String] in
            var row = [ids[s.id] ?? s.id, s.kind, s.state + (s.isWarning ? " (warning)" : ""), next(s, t), when(s, t),
                       s.weekdays.isEmpty ? "-" : TimeText.days(s.weekdays), s.title, s.appId.isEmpty ? "-" : s.appId]
            if a.flags.contains("all") {
                row.insert(contentsOf: [s.sound, CommandInput.durationText(UInt64(s.postAlert)),
                                        s.preAlert == 0 ? "-" : CommandInput.durationText(UInt64(s.preAlert))], at: 7)
            }
            return row
        }
        out.table(header, rows) { i, _ in
            let s = sorted[i]
            if s.isAlerting { return .reverseRed }
            if s.isWarning { return .yellow }
            if s.isCountingDown { return .green }
            if s.isPaused { return .dim }
            return nil
        }
        return 0
    }

    private func next(_ s: AlarmSnapshot, _ t: USec) -> String {
        switch s.state {
        case "alerting": return "ringing"
        case "paused": return "paused"
        default: return TimeText.local(s.fireTime, now: t)
        }
    }

    private func when(_ s: AlarmSnapshot, _ t: USec) -> String {
        switch s.state {
        case "alerting": return "now"
        case "paused": return "\(TimeText.clock(s.remaining(at: t))) left"
        default: return TimeText.relative(s.fireTime, from: t)
        }
    }

    // MARK: alarm, timer, update

    func alarm(_ argv: [String]) throws(CLIError) -> Int32 {
        let a = try Arguments(argv, command: "alarm", valued: ["days", "title", "sound", "snooze", "pre-alert", "id"])
        guard a.positional.count == 1 else {
            throw .usage(a.positional.isEmpty ? "'alarm' needs a time: HH:MM or \"YYYY-MM-DD HH:MM\"" : "'alarm' takes one time; quote a date and time: \"2026-12-24 18:00\"", command: "alarm")
        }
        var config: [(String, Value)] = [("title", .string(a.values["title"] ?? "Alarm"))]
        config += try when(a.positional[0], days: a.values["days"], command: "alarm")
        config += try common(a, command: "alarm")
        let id = try schedule(a.values["id"], config)
        let s = try snapshot(id)
        let repeatText = s.weekdays.isEmpty ? "" : ", \(TimeText.days(s.weekdays))"
        out.line("Alarm \(IDPrefix.short(id)) \"\(s.title)\" set for \(TimeText.local(s.fireTime, now: now)) (\(TimeText.relative(s.fireTime, from: now))\(repeatText)).")
        return 0
    }

    func timer(_ argv: [String]) throws(CLIError) -> Int32 {
        let a = try Arguments(argv, command: "timer", valued: ["title", "warn", "message", "id"], flags: ["silent"])
        guard a.positional.count == 1 else { throw .usage("'timer' needs one duration, such as 25m or 1h30m", command: "timer") }
        let seconds = try duration(a.positional[0], what: "duration", command: "timer")
        var config: [(String, Value)] = [("title", .string(a.values["title"] ?? "Timer")), ("duration", .uint64(seconds))]
        config += try common(a, command: "timer")
        if a.flags.contains("silent") { config.append(("ring", .bool(false))) }
        let id = try schedule(a.values["id"], config)
        let s = try snapshot(id)
        out.line("Timer \(IDPrefix.short(id)) \"\(s.title)\" \(s.ring ? "rings" : "ends") \(TimeText.relative(s.fireTime, from: now)) (at \(TimeText.local(s.fireTime, now: now))).")
        return 0
    }

    func update(_ argv: [String]) throws(CLIError) -> Int32 {
        let a = try Arguments(argv, command: "update", valued: ["title", "sound", "snooze", "pre-alert", "days", "time",
                                                                "duration", "warn", "message"])
        guard a.positional.count == 1 else { throw .usage("'update' needs one alarm id", command: "update") }
        var changes: [(String, Value)] = [], clear: [String] = []
        if let t = a.values["title"] { changes.append(("title", .string(t))) }
        if let t = a.values["time"] {
            changes += try when(t, days: nil, command: "update")
        }
        if let d = a.values["days"] {
            guard let days = CommandInput.days(d) else { throw badDays(d, command: "update") }
            if days.isEmpty { clear.append("weekdays") } else { changes.append(("weekdays", .strings(days.map(\.rawValue)))) }
        }
        if let d = a.values["duration"] { changes.append(("duration", .uint64(try duration(d, what: "--duration", command: "update")))) }
        changes += try common(a, command: "update")
        guard !changes.isEmpty || !clear.isEmpty else { throw .usage("'update' needs something to change", command: "update") }
        let target = try resolve(a.positional[0])
        do { try proxy.update(target.id, changes: changes, clear: clear) } catch {
            throw .bus(error, doing: "cannot update \(IDPrefix.short(target.id))")
        }
        out.line("Updated \(IDPrefix.short(target.id)) \"\(target.title)\".")
        return 0
    }

    /// Options alarm, timer and update share.
    private func common(_ a: Arguments, command: String) throws(CLIError) -> [(String, Value)] {
        var c: [(String, Value)] = []
        if let s = a.values["sound"] { c.append(("sound", .string(s))) }
        if let s = a.values["snooze"] { c.append(("post_alert", .uint32(UInt32(clamping: try duration(s, what: "--snooze", command: command))))) }
        if let s = a.values["pre-alert"] { c.append(("pre_alert", .uint32(UInt32(clamping: try duration(s, what: "--pre-alert", command: command))))) }
        if let s = a.values["warn"] { c.append(("warning_threshold", .uint32(UInt32(clamping: try duration(s, what: "--warn", command: command))))) }
        if let s = a.values["message"] { c.append(("completion_message", .string(s))) }
        return c
    }

    private func when(_ text: String, days: String?, command: String) throws(CLIError) -> [(String, Value)] {
        guard let w = CommandInput.time(text) else {
            throw .usage("cannot read the time '\(text)': use HH:MM (07:30) or \"YYYY-MM-DD HH:MM\" (\"2026-12-24 18:00\")", command: command)
        }
        switch w {
        case .wallClock(let h, let m):
            var c: [(String, Value)] = [("hour", .uint32(UInt32(h))), ("minute", .uint32(UInt32(m)))]
            if let d = days {
                guard let list = CommandInput.days(d) else { throw badDays(d, command: command) }
                if !list.isEmpty { c.append(("weekdays", .strings(list.map(\.rawValue)))) }
            }
            return c
        case .fixed(let seconds):
            if days != nil { throw .usage("--days repeats a time of day (HH:MM), not a fixed date", command: command) }
            return [("fixed_date", .int64(seconds))]
        }
    }

    private func badDays(_ d: String, command: String) -> CLIError {
        .usage("cannot read the days '\(d)': use mon-fri, weekends, daily, never or a list such as mon,wed,fri", command: command)
    }

    private func duration(_ text: String, what: String, command: String) throws(CLIError) -> UInt64 {
        guard let s = CommandInput.duration(text) else {
            throw .usage("cannot read the \(what) '\(text)': use seconds (90) or units such as 30s, 25m, 1h30m, 1d12h", command: command)
        }
        return s
    }

    private func schedule(_ id: String?, _ config: [(String, Value)]) throws(CLIError) -> String {
        do { return try proxy.schedule(id: id ?? "", config) } catch { throw .bus(error, doing: "cannot schedule") }
    }

    private func snapshot(_ id: String) throws(CLIError) -> AlarmSnapshot {
        do throws(BusError) {
            let r = try proxy.bus.call(Contract.busName, AlarmID.path(of: id), Contract.propertiesInterface, "GetAll",
                                       [.string(Contract.alarmInterface)])
            guard let first = r.first, let s = AlarmSnapshot(first) else { throw BusError(BusError.failed, "no properties") }
            return s
        } catch { throw .bus(error, doing: "cannot read \(IDPrefix.short(id))") }
    }

    // MARK: transitions

    /// The alarm `text` names: a full id or a unique prefix, as git takes commit ids.
    func resolve(_ text: String) throws(CLIError) -> AlarmSnapshot {
        let items = try alarms()
        switch IDPrefix.match(text, in: items.map(\.id)) {
        case .one(let id): return items.first { $0.id == id }!
        case .none: throw CLIError(code: 5, message: "no alarm matches '\(text)'.\n'alarmctl list' shows the alarms you have.")
        case .ambiguous(let ids):
            let lines = ids.sorted().map { id in "  \(id)  \(items.first { $0.id == id }?.title ?? "")" }
            throw CLIError(code: 6, message: "'\(text)' matches \(ids.count) alarms:\n\(lines.joined(separator: "\n"))\nGive more of the id.")
        }
    }

    private enum Target { case text(String), alarm(AlarmSnapshot) }

    func transition(_ verb: String, _ argv: [String]) throws(CLIError) -> Int32 {
        let a = try Arguments(argv, command: verb)
        var targets: [Target] = a.positional.map { .text($0) }
        if targets.isEmpty {
            // A panel's click cannot name an alarm: stop and snooze without ids mean every ringing one.
            guard verb == "stop" || verb == "snooze" else { throw .usage("'\(verb)' needs at least one alarm id", command: verb) }
            let ringing = try alarms().filter(\.isAlerting)
            guard !ringing.isEmpty else { throw CLIError(code: 5, message: "nothing is ringing.") }
            targets = ringing.map { .alarm($0) }
        }
        var status: Int32 = 0
        for target in targets {
            do throws(CLIError) {
                let s: AlarmSnapshot
                switch target {
                case .text(let text): s = try resolve(text)
                case .alarm(let alarm): s = alarm
                }
                do {
                    switch verb {
                    case "pause": try proxy.pause(s.id)
                    case "resume": try proxy.resume(s.id)
                    case "stop": try proxy.stop(s.id)
                    case "snooze": try proxy.countdown(s.id)
                    default: try proxy.cancel(s.id)
                    }
                } catch {
                    throw CLIError.bus(error, doing: "cannot \(verb) \(IDPrefix.short(s.id)) \"\(s.title)\"")
                }
                let done = ["pause": "Paused", "resume": "Resumed", "stop": "Stopped", "snooze": "Snoozed", "cancel": "Cancelled"][verb]!
                out.line("\(done) \(IDPrefix.short(s.id)) \"\(s.title)\".")
            } catch {
                Output.error(error.message)
                status = error.code
            }
        }
        return status
    }

    // MARK: auth, status, completion

    func auth(_ argv: [String]) throws(CLIError) -> Int32 {
        let a = try Arguments(argv, command: "auth")
        let sub = a.positional.first ?? "list"
        if sub == "list" {
            guard a.positional.count <= 1 else { throw .usage("'auth list' takes no arguments", command: "auth") }
            let all: [(app: String, state: String)]
            do { all = try proxy.authorizations() } catch { throw .bus(error, doing: "cannot list authorizations") }
            if all.isEmpty {
                out.line("No app has asked to set alarms yet.")
            } else {
                out.table(["APP", "STATE"], all.map { [$0.app, $0.state] })
            }
            return 0
        }
        let states = ["allow": "authorized", "deny": "denied", "reset": "notDetermined"]
        guard let state = states[sub] else { throw .usage("unknown 'auth' command '\(sub)': use list, allow, deny or reset", command: "auth") }
        guard a.positional.count == 2 else { throw .usage("'auth \(sub)' needs one app id, such as org.gnome.clocks", command: "auth") }
        let app = a.positional[1]
        do { try proxy.setAuthorization(app: app, state: state) } catch { throw .bus(error, doing: "cannot \(sub) \(app)") }
        out.line("\(app): \(state)")
        return 0
    }

    func status(_ argv: [String]) throws(CLIError) -> Int32 {
        let a = try Arguments(argv, command: "status")
        guard a.positional.isEmpty else { throw .usage("'status' takes no arguments", command: "status") }
        guard proxy.isRunning else {
            out.line("alarmd: not running")
            Output.error("alarmd is not running.\n" + CLIError.notRunningHint)
            return 3
        }
        let items = try alarms()
        let t = now
        let next = proxy.nextFireTime
        let nextAlarm = items.filter { !$0.isAlerting && $0.fireTime == next }.first
        let counting = items.filter(\.isCountingDown).count, ringing = items.filter(\.isAlerting).count
        let rows: [(String, String)] = [
            ("alarmd", "running, version \(proxy.version)"),
            ("next alarm", next == 0 ? "none" : "\(TimeText.local(next, now: t)) (\(TimeText.relative(next, from: t)))" + (nextAlarm.map { ": \($0.title)" } ?? "")),
            ("wake", proxy.wakeSupported ? "alarms wake the machine from suspend" : "alarms cannot wake the machine from suspend"),
            ("store", proxy.storePath),
            ("alarms", "\(items.count)" + (counting + ringing > 0 ? " (\(counting) counting down, \(ringing) ringing)" : "")),
        ]
        for (k, v) in rows { out.line(out.styled(k.leftPadded(to: 10), .bold) + ": " + v) }
        let recovery = proxy.storeRecovery
        if let reason = recovery[Contract.StoreRecovery.reason] {
            typealias Key = Contract.StoreRecovery
            let when = recovery[Key.time].flatMap { ISO8601DateFormatter().date(from: $0) }
                .map { " at " + TimeText.local(USec($0.timeIntervalSince1970 * 1e6), now: t) } ?? ""
            let detail = recovery[Key.detail].map { $0.isEmpty ? "" : " (\($0))" } ?? ""
            let indent = String(repeating: " ", count: 12)
            let was = reason == Key.Reason.newerSchema.rawValue ? "written by a newer alarmd" : reason
            out.line(out.styled("recovery".leftPadded(to: 10), .bold) + ": "
                     + out.styled("started empty\(when): the store before was \(was)\(detail)", .red))
            if let kept = recovery[Key.keptPath] { out.line(indent + "kept as " + kept) }
            if let hint = recovery[Key.hint], !hint.isEmpty { out.line(indent + hint) }
        }
        return 0
    }

    /// For shell completion: ids with titles, or app ids.
    func complete(_ argv: [String]) throws(CLIError) -> Int32 {
        switch argv.first {
        case "ids":
            for s in AlarmSnapshot.readingOrder((try? proxy.alarms()) ?? []) {
                out.line("\(s.id)\t\(s.title.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " "))")
            }
        case "apps":
            for a in (try? proxy.authorizations()) ?? [] { out.line(a.app) }
        default:
            throw .usage("__complete takes ids or apps")
        }
        return 0
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
