// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
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

    func list(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.isEmpty else { throw .usage("'list' takes no arguments", command: "list") }
        let items = try alarms()
        if let mode = a.json {
            out.line(JSON.text(items.map { JSON.object($0.properties) }, mode))
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
            let (next, inTime) = nextAndIn(s, t)
            var row = [ids[s.id] ?? s.id, s.kindName, s.stateName + (s.isWarning ? " (warning)" : ""), next, inTime,
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
            if s.isPaused || !s.enabled { return .dim }
            return nil
        }
        return 0
    }

    /// The NEXT and IN columns: when it rings, and how far off that is.
    private func nextAndIn(_ s: AlarmSnapshot, _ t: USec) -> (String, String) {
        if !s.enabled { return ("-", "-") }
        switch s.state {
        case .alerting?: return ("ringing", "now")
        case .paused?: return ("paused", "\(TimeText.clock(s.remaining(at: t))) left")
        case .countdown?, .scheduled?, nil: return (TimeText.local(s.fireTime, now: t), TimeText.relative(s.fireTime, from: t))
        }
    }

    // MARK: alarm, timer, update

    func alarm(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.count == 1 else {
            throw .usage(a.positional.isEmpty ? "'alarm' needs a time: HH:MM or \"YYYY-MM-DD HH:MM\"" : "'alarm' takes one time; quote a date and time: \"2026-12-24 18:00\"", command: "alarm")
        }
        var config: [(String, Value)] = [("title", .string(try title(a.values["title"] ?? "Alarm", command: "alarm")))]
        config += try when(a.positional[0], days: a.values["days"], command: "alarm")
        config += try common(a, command: "alarm")
        let id = try schedule(a.values["id"], config, command: "alarm")
        let s = try snapshot(id)
        let repeatText = s.weekdays.isEmpty ? "" : ", \(TimeText.days(s.weekdays))"
        out.line("Alarm \(IDPrefix.short(id)) \"\(s.title)\" set for \(TimeText.local(s.fireTime, now: now)) (\(TimeText.relative(s.fireTime, from: now))\(repeatText)).")
        return 0
    }

    func timer(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.count == 1 else { throw .usage("'timer' needs one duration, such as 25m or 1h30m", command: "timer") }
        let seconds = try duration(a.positional[0], what: "duration", command: "timer")
        var config: [(String, Value)] = [("title", .string(try title(a.values["title"] ?? "Timer", command: "timer"))),
                                         ("duration", .uint64(seconds))]
        config += try common(a, command: "timer")
        if a.flags.contains("silent") { config.append(("ring", .bool(false))) }
        let id = try schedule(a.values["id"], config, command: "timer")
        let s = try snapshot(id)
        out.line("Timer \(IDPrefix.short(id)) \"\(s.title)\" \(s.endVerb) \(TimeText.relative(s.fireTime, from: now)) (at \(TimeText.local(s.fireTime, now: now))).")
        return 0
    }

    func update(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.count == 1 else { throw .usage("'update' needs one alarm id", command: "update") }
        var changes: [(String, Value)] = [], clear: [String] = []
        if let t = a.values["title"] { changes.append(("title", .string(try title(t, command: "update")))) }
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
        // Options that belong to the other kind, named before the daemon refuses them in the
        // words of its configuration keys.
        let wrongKind = (target.isTimer ? ["time", "days"] : ["duration"]).filter { a.values[$0] != nil }
        if let option = wrongKind.first {
            throw .usage("\(IDPrefix.short(target.id)) \"\(target.title)\" is \(target.isTimer ? "a timer" : "an alarm"): --\(option) "
                         + (target.isTimer ? "is for alarms; a timer takes --duration" : "is for timers; an alarm takes --time"),
                         command: "update")
        }
        do { try proxy.update(target.id, changes: changes, clear: clear) } catch {
            throw .bus(Self.inOptionWords(error, command: "update"), doing: "cannot update \(IDPrefix.short(target.id)) \"\(target.title)\"")
        }
        // The alarm as it is now: what the change made of it, not the title it had before.
        let s = try snapshot(target.id)
        out.line("Updated \(IDPrefix.short(s.id)) \"\(s.title)\": \(summary(s)).")
        return 0
    }

    /// One alarm in a phrase: "timer, rings in 30 min (at 12:55)", "alarm, set for 07:30 (in 9 h), mon-fri".
    private func summary(_ s: AlarmSnapshot) -> String {
        let t = now
        let repeatText = s.weekdays.isEmpty ? "" : ", \(TimeText.days(s.weekdays))"
        switch s.state {
        case .alerting?: return "\(s.kindName), ringing"
        case .paused?: return "\(s.kindName), paused with \(TimeText.clock(s.remaining(at: t))) left\(repeatText)"
        case .countdown?:
            return "\(s.kindName), \(s.endVerb) \(TimeText.relative(s.fireTime, from: t)) (at \(TimeText.local(s.fireTime, now: t)))\(repeatText)"
        case .scheduled?, nil:
            return "\(s.kindName), set for \(TimeText.local(s.fireTime, now: t)) (\(TimeText.relative(s.fireTime, from: t)))\(repeatText)"
        }
    }

    /// A title the daemon would refuse for being blank, refused here with the option's name.
    private func title(_ text: String, command: String) throws(CLIError) -> String {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw .usage("--title must not be empty", command: command)
        }
        return text
    }

    /// The options that set each configuration key, for the daemon's "key: reason" messages.
    private static func option(forKey key: String, command: String) -> String? {
        switch key {
        case "title": return "--title"
        case "sound": return "--sound"
        case "post_alert": return "--snooze"
        case "pre_alert": return "--pre-alert"
        case "warning_threshold": return "--warn"
        case "completion_message": return "--message"
        case "weekdays": return "--days"
        case "hour", "minute", "fixed_date": return command == "update" ? "--time" : "the time"
        case "duration", "end_date": return command == "update" ? "--duration" : "the duration"
        case "id": return "--id"
        default: return nil
        }
    }

    /// An InvalidArgument names the configuration key ("post_alert: …"); the person typed an
    /// option (--snooze), so that is what the message names.
    static func inOptionWords(_ error: BusError, command: String) -> BusError {
        guard error.name == Contract.ErrorName.invalidArgument, let colon = error.message.firstIndex(of: ":"),
              let option = option(forKey: String(error.message[..<colon]), command: command) else { return error }
        return BusError(error.name, option + error.message[colon...])
    }

    /// Options alarm, timer and update share.
    private func common(_ a: Arguments, command: String) throws(CLIError) -> [(String, Value)] {
        var c: [(String, Value)] = []
        if let s = a.values["sound"] { c.append(("sound", .string(s))) }
        // The ranges of the keys these options set (docs/API.md): a snooze of 1 s to a day, a
        // pre-alert of up to a week; 0 turns a pre-alert or a warning off.
        if let s = a.values["snooze"] {
            c.append(("post_alert", .uint32(UInt32(try duration(s, what: "--snooze", command: command, range: 1...86_400)))))
        }
        if let s = a.values["pre-alert"] {
            c.append(("pre_alert", .uint32(UInt32(try duration(s, what: "--pre-alert", command: command, zero: true, range: 1...7 * 86_400)))))
        }
        if let s = a.values["warn"] {
            c.append(("warning_threshold", .uint32(UInt32(clamping: try duration(s, what: "--warn", command: command, zero: true)))))
        }
        if let s = a.values["message"] { c.append(("completion_message", .string(s))) }
        return c
    }

    private func when(_ text: String, days: String?, command: String) throws(CLIError) -> [(String, Value)] {
        let w: CommandInput.When
        switch CommandInput.readTime(text) {
        case .success(let v): w = v
        case .failure(.unreadable):
            throw .usage("cannot read the time '\(text)': use HH:MM (07:30) or \"YYYY-MM-DD HH:MM\" (\"2026-12-24 18:00\")", command: command)
        case .failure(.invalid(let reason)):
            throw .usage("the time '\(text)' does not exist: \(reason)", command: command)
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
            if seconds <= Int64(now / usecPerSecond) {
                throw .usage("'\(text)' is in the past: give a date and time still to come", command: command)
            }
            return [("fixed_date", .int64(seconds))]
        }
    }

    private func badDays(_ d: String, command: String) -> CLIError {
        .usage("cannot read the days '\(d)': use mon-fri, weekends, daily, never or a list such as mon,wed,fri", command: command)
    }

    private func duration(_ text: String, what: String, command: String, zero: Bool = false,
                          range: ClosedRange<UInt64> = 1...DurationGrammar.maximumSeconds) throws(CLIError) -> UInt64 {
        switch CommandInput.readDuration(text, zero: zero, range: range) {
        case .success(let s): return s
        case .failure(.unreadable):
            throw .usage("cannot read the \(what) '\(text)': use seconds (90) or units such as 30s, 25m, 1h30m, 1d12h", command: command)
        case .failure(.invalid(let reason)):
            throw .usage("\(what == "duration" ? "the duration" : what) '\(text)' \(reason)" + (zero ? " (0 for none)" : ""), command: command)
        }
    }

    private func schedule(_ id: String?, _ config: [(String, Value)], command: String) throws(CLIError) -> String {
        do { return try proxy.schedule(id: id ?? "", config) } catch {
            throw .bus(Self.inOptionWords(error, command: command), doing: "cannot set the \(command)")
        }
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

    func transition(_ verb: String, _ a: Arguments) throws(CLIError) -> Int32 {
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
                    case "on": try proxy.setEnabled(s.id, true)
                    case "off": try proxy.setEnabled(s.id, false)
                    default: try proxy.cancel(s.id)
                    }
                } catch {
                    throw refusal(error, verb: verb, alarm: s)
                }
                let done = ["pause": "Paused", "resume": "Resumed", "stop": "Stopped", "snooze": "Snoozed", "cancel": "Cancelled",
                            "on": "Switched on", "off": "Switched off"][verb]!
                var line = "\(done) \(IDPrefix.short(s.id)) \"\(s.title)\""
                // Switched on, it rings at its next occurrence: say when, as `alarm` does.
                if verb == "on", let now = (try? proxy.alarms())?.first(where: { $0.id == s.id }), now.fireTime > 0 {
                    line += ": rings \(TimeText.local(now.fireTime, now: self.now)), \(TimeText.relative(now.fireTime, from: self.now))"
                }
                out.line(line + ".")
            } catch {
                Output.error(error.message)
                status = error.code
            }
        }
        return status
    }

    /// The state each verb needs, in the words `list` shows.
    static let neededState = ["pause": "counting down", "resume": "paused", "stop": "ringing", "snooze": "ringing"]

    /// What a transition's refusal means to whoever typed the verb. The daemon's InvalidState
    /// speaks of its methods ("Countdown needs an alarm in state 'alerting'"), which are not the
    /// words on the command line: say the verb, the alarm and the state it is really in.
    private func refusal(_ error: BusError, verb: String, alarm s: AlarmSnapshot) -> CLIError {
        let named = "cannot \(verb) \(IDPrefix.short(s.id)) \"\(s.title)\""
        guard error.name == Contract.ErrorName.invalidState, let needed = Self.neededState[verb] else {
            return CLIError.bus(error, doing: named)
        }
        // The state now, not the one read before the call: it may have moved on since.
        let current = (try? proxy.alarms())?.first { $0.id == s.id } ?? s
        return CLIError(code: 1, message: "\(named): it is \(stateWords(current)), not \(needed) (\(error.name))")
    }

    /// "counting down (rings in 24 min)", "scheduled for Tue 07:30", "paused with 3:00 left".
    private func stateWords(_ s: AlarmSnapshot) -> String {
        let t = now
        switch s.state {
        case .alerting?: return "ringing"
        case .paused?: return "paused with \(TimeText.clock(s.remaining(at: t))) left"
        case .countdown?: return "counting down (\(s.endVerb) \(TimeText.relative(s.fireTime, from: t)))"
        case .scheduled?: return s.enabled ? "scheduled for \(TimeText.local(s.fireTime, now: t))" : "switched off"
        case nil: return "'\(s.stateName)'"
        }
    }

    // MARK: auth, status, completion

    func auth(_ a: Arguments) throws(CLIError) -> Int32 {
        let sub = a.positional.first ?? "list"
        if sub == "list" {
            guard a.positional.count <= 1 else { throw .usage("'auth list' takes no arguments", command: "auth") }
            let all: [(app: String, state: String)]
            do {
                all = try proxy.authorizations().map { ($0.app, $0.state?.rawValue ?? "unknown") }
            } catch {
                throw .bus(error, doing: "cannot list authorizations")
            }
            if let mode = a.json {
                out.line(JSON.text(Dictionary(all.map { ($0.app, $0.state) }, uniquingKeysWith: { x, _ in x }), mode))
            } else if all.isEmpty {
                out.line("No app has asked to set alarms yet.")
            } else {
                out.table(["APP", "STATE"], all.map { [$0.app, $0.state] })
            }
            return 0
        }
        let states: [String: AuthorizationState] = ["allow": .authorized, "deny": .denied, "reset": .notDetermined]
        guard let state = states[sub] else { throw .usage("unknown 'auth' command '\(sub)': use list, allow, deny or reset", command: "auth") }
        if a.json != nil { throw .usage("'auth \(sub)' prints no JSON: --json works with \(Invocation.jsonCommands)", command: "auth") }
        guard a.positional.count == 2 else { throw .usage("'auth \(sub)' needs one app id, such as org.gnome.clocks", command: "auth") }
        let app = a.positional[1]
        do { try proxy.setAuthorization(app: app, state: state) } catch { throw .bus(error, doing: "cannot \(sub) \(app)") }
        out.line("\(app): \(state.rawValue)")
        return 0
    }

    func status(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.isEmpty else { throw .usage("'status' takes no arguments", command: "status") }
        guard proxy.isRunning else {
            if let mode = a.json { out.line(JSON.text(["running": false], mode)) } else { out.line("alarmd: not running") }
            Output.error("alarmd is not running.\n" + CLIError.notRunningHint)
            return 3
        }
        let items = try alarms()
        let t = now
        let next = proxy.nextFireTime
        let nextAlarm = items.filter { !$0.isAlerting && $0.fireTime == next }.first
        let counting = items.filter(\.isCountingDown).count, ringing = items.filter(\.isAlerting).count
        let recovery = proxy.storeRecovery
        if let mode = a.json {
            // What the text below shows, as values: the names are documented in alarmctl(1).
            let o: [String: Any] = [
                "running": true,
                "version": proxy.version,
                "next_fire_usec": next,
                "next_alarm": nextAlarm.map { ["id": $0.id, "title": $0.title, "kind": $0.kindName] as [String: Any] } ?? JSONText.null,
                "wake_supported": proxy.wakeSupported,
                "store_path": proxy.storePath,
                "alarms": items.count,
                "counting_down": counting,
                "ringing": ringing,
                "store_recovery": recovery.isEmpty ? JSONText.null : recovery as Any,
            ]
            out.line(JSON.text(o, mode))
            return 0
        }
        let rows: [(String, String)] = [
            ("alarmd", "running, version \(proxy.version)"),
            ("next alarm", next == 0 ? "none" : "\(TimeText.local(next, now: t)) (\(TimeText.relative(next, from: t)))" + (nextAlarm.map { ": \($0.title)" } ?? "")),
            ("wake", proxy.wakeSupported ? "alarms wake the machine from suspend" : "alarms cannot wake the machine from suspend"),
            ("store", proxy.storePath),
            ("alarms", "\(items.count)" + (counting + ringing > 0 ? " (\(counting) counting down, \(ringing) ringing)" : "")),
        ]
        for (k, v) in rows { out.line(out.styled(k.leftPadded(to: 10), .bold) + ": " + v) }
        if let reason = recovery[Contract.StoreRecovery.reason] {
            typealias Key = Contract.StoreRecovery
            let when = recovery[Key.time].flatMap(KeptStoreName.usec(isoTime:)).map { " at " + TimeText.local($0, now: t) } ?? ""
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
                out.line("\(s.id)\t\(s.title.replacing("\t", with: " ").replacing("\n", with: " "))")
            }
        case "apps":
            for a in (try? proxy.authorizations()) ?? [] { out.line(a.app) }
        default:
            throw .usage("__complete takes ids or apps")
        }
        return 0
    }
}

extension AlarmSnapshot {
    /// Its kind and state as alarmd names them, for output: the names of a newer alarmd too, which
    /// the typed ``kind`` and ``state`` read as nil.
    var kindName: String { string("Kind") }
    /// `off` for an alarm switched off, which alarmd reports as `scheduled` with no fire time.
    var stateName: String { enabled ? string("State") : "off" }
    /// What its countdown does at the end: a silent timer ends, the rest ring.
    var endVerb: String { isTimer && !ring ? "ends" : "rings" }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    func rightPadded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
