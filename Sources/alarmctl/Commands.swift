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
        do { return try proxy.alarms() } catch { throw .bus(error, doing: say(N_("cannot list alarms"))) }
    }

    // MARK: list

    func list(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.isEmpty else { throw .usage(Self.takesNoArguments("list"), command: "list") }
        let items = try alarms()
        if let mode = a.json {
            out.line(JSON.text(items.map { JSON.object($0.properties) }, mode))
            return 0
        }
        let sorted = AlarmSnapshot.readingOrder(items)
        if sorted.isEmpty {
            out.line(say(N_("No alarms or timers. Set one with 'alarmctl alarm 07:30' or 'alarmctl timer 25m'.")))
            return 0
        }
        let ids = a.flags.contains("all") ? Dictionary(sorted.map { ($0.id, $0.id) }, uniquingKeysWith: { x, _ in x })
                                          : IDPrefix.shortest(sorted.map(\.id))
        let t = now
        // Translators: the column headings of 'alarmctl list', capitals as in ps(1).
        var header = [say(NC_("column", "ID")), say(NC_("column", "KIND")), say(NC_("column", "STATE")), say(NC_("column", "NEXT")),
                      // Translators: the heading of the column that says how long until an alarm rings ("in 25 min").
                      say(NC_("column", "IN")), say(NC_("column", "REPEAT")), say(NC_("column", "TITLE")), say(NC_("column", "APP"))]
        if a.flags.contains("all") {
            header.insert(contentsOf: [say(NC_("column", "SOUND")), say(NC_("column", "SNOOZE")), say(NC_("column", "PRE-ALERT"))], at: 7)
        }
        let rows = sorted.map { s -> [String] in
            let (next, inTime) = nextAndIn(s, t)
            // Translators: the state of a timer in its warning phase, in 'alarmctl list'; %s is the state ("counting down").
            let state = s.isWarning ? say(N_("%s (warning)", s.stateWords)) : s.stateWords
            var row = [ids[s.id] ?? s.id, s.kindWords, state, next, inTime,
                       s.weekdays.isEmpty ? "-" : TimeText.days(s.weekdays, language: language), s.title, s.appId.isEmpty ? "-" : s.appId]
            if a.flags.contains("all") {
                row.insert(contentsOf: [s.sound, CommandInput.durationText(UInt64(s.postAlert), language: language),
                                        s.preAlert == 0 ? "-" : CommandInput.durationText(UInt64(s.preAlert), language: language)], at: 7)
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
        case .alerting?: return (say(NC_("state", "ringing")), say(NC_("time", "now")))
        case .paused?:
            let clock = TimeText.clock(s.remaining(at: t), language: language)
            // Translators: how much of a paused countdown is left; %s is the time ("4:49").
            let left = say(N_("%s left", clock))
            return (say(NC_("state", "paused")), left)
        case .countdown?, .scheduled?, nil: return (local(s.fireTime, t), relative(s.fireTime, t))
        }
    }

    // MARK: alarm, timer, update

    func alarm(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.count == 1 else {
            throw .usage(a.positional.isEmpty ? say(N_("'alarm' needs a time: HH:MM or \"YYYY-MM-DD HH:MM\""))
                                              : say(N_("'alarm' takes one time; quote a date and time: \"2026-12-24 18:00\"")), command: "alarm")
        }
        // The default title is what the alert says: in the user's language, as the help says.
        var config: [(String, Value)] = [("title", .string(try title(a.values["title"] ?? say(NC_("default title", "Alarm")), command: "alarm")))]
        config += try when(a.positional[0], days: a.values["days"], command: "alarm")
        config += try common(a, command: "alarm")
        let id = try schedule(a.values["id"], config, command: "alarm")
        let s = try snapshot(id)
        let t = now, short = IDPrefix.short(id), at = local(s.fireTime, t), until = relative(s.fireTime, t)
        if s.weekdays.isEmpty {
            // Translators: %1$s the alarm's id, %2$s its title, %3$s its time ("Tue 07:30"), %4$s how far off ("in 9 h").
            out.line(say(N_("Alarm %1$s \"%2$s\" set for %3$s (%4$s).", short, s.title, at, until)))
        } else {
            // Translators: %1$s the alarm's id, %2$s its title, %3$s its time ("Tue 07:30"), %4$s how far off ("in 9 h"),
            // %5$s its days ("mon-fri").
            out.line(say(N_("Alarm %1$s \"%2$s\" set for %3$s (%4$s, %5$s).", short, s.title, at, until, days(s))))
        }
        return 0
    }

    func timer(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.count == 1 else { throw .usage(say(N_("'timer' needs one duration, such as 25m or 1h30m")), command: "timer") }
        let seconds = try duration(a.positional[0], what: "duration", command: "timer")
        var config: [(String, Value)] = [("title", .string(try title(a.values["title"] ?? say(NC_("default title", "Timer")), command: "timer"))),
                                         ("duration", .uint64(seconds))]
        config += try common(a, command: "timer")
        if a.flags.contains("silent") { config.append(("ring", .bool(false))) }
        let id = try schedule(a.values["id"], config, command: "timer")
        let s = try snapshot(id)
        let t = now, short = IDPrefix.short(id), at = local(s.fireTime, t), until = relative(s.fireTime, t)
        // Translators: %1$s the timer's id, %2$s its title, %3$s how far off its end is ("in 25 min"), %4$s the time then.
        out.line(s.isSilent ? say(N_("Timer %1$s \"%2$s\" ends %3$s (at %4$s).", short, s.title, until, at))
                            // Translators: %1$s the timer's id, %2$s its title, %3$s how far off it rings ("in 25 min"), %4$s the time then.
                            : say(N_("Timer %1$s \"%2$s\" rings %3$s (at %4$s).", short, s.title, until, at)))
        return 0
    }

    func update(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.count == 1 else { throw .usage(say(N_("'update' needs one alarm id")), command: "update") }
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
        guard !changes.isEmpty || !clear.isEmpty else { throw .usage(say(N_("'update' needs something to change")), command: "update") }
        let target = try resolve(a.positional[0])
        // Options that belong to the other kind, named before the daemon refuses them in the
        // words of its configuration keys.
        let wrongKind = (target.isTimer ? ["time", "days"] : ["duration"]).filter { a.values[$0] != nil }
        if let option = wrongKind.first {
            let short = IDPrefix.short(target.id), named = "--" + option
            // Translators: %1$s the id, %2$s the title, %3$s the option given (--time, --days).
            throw .usage(target.isTimer ? say(N_("%1$s \"%2$s\" is a timer: %3$s is for alarms; a timer takes --duration", short, target.title, named))
                         // Translators: %1$s the id, %2$s the title, %3$s the option given (--duration).
                         : say(N_("%1$s \"%2$s\" is an alarm: %3$s is for timers; an alarm takes --time", short, target.title, named)),
                         command: "update")
        }
        do { try proxy.update(target.id, changes: changes, clear: clear) } catch {
            // Translators: what failed: %1$s the id, %2$s the title.
            throw .bus(Self.inOptionWords(error, command: "update"), doing: say(N_("cannot update %1$s \"%2$s\"", IDPrefix.short(target.id), target.title)))
        }
        // The alarm as it is now: what the change made of it, not the title it had before.
        let s = try snapshot(target.id)
        // Translators: %1$s the id, %2$s the title, %3$s what it is now ("timer, rings in 30 min (at 12:55)").
        out.line(say(N_("Updated %1$s \"%2$s\": %3$s.", IDPrefix.short(s.id), s.title, summary(s))))
        return 0
    }

    /// One alarm in a phrase: "timer, rings in 30 min (at 12:55)", "alarm, set for 07:30 (in 9 h), mon-fri".
    private func summary(_ s: AlarmSnapshot) -> String {
        let t = now, kind = s.kindWords
        let text: String
        switch s.state {
        // Translators: an alarm in a phrase, after "Updated …": %s its kind ("alarm", "timer").
        case .alerting?: return say(N_("%s, ringing", kind))
        case .paused?:
            // Translators: %1$s the kind ("timer"), %2$s the time left ("4:49").
            text = say(N_("%1$s, paused with %2$s left", kind, TimeText.clock(s.remaining(at: t), language: language)))
        case .countdown?:
            let until = relative(s.fireTime, t), at = local(s.fireTime, t)
            // Translators: %1$s the kind ("timer"), %2$s how far off its end is ("in 30 min"), %3$s the time then.
            text = s.isSilent ? say(N_("%1$s, ends %2$s (at %3$s)", kind, until, at))
                // Translators: %1$s the kind ("timer"), %2$s how far off it rings ("in 30 min"), %3$s the time then.
                : say(N_("%1$s, rings %2$s (at %3$s)", kind, until, at))
        case .scheduled?, nil:
            // Translators: %1$s the kind ("alarm"), %2$s when it rings ("07:30"), %3$s how far off that is ("in 9 h").
            text = say(N_("%1$s, set for %2$s (%3$s)", kind, local(s.fireTime, t), relative(s.fireTime, t)))
        }
        // Translators: an alarm in a phrase and the days it repeats on: "alarm, set for 07:30 (in 9 h), mon-fri".
        return s.weekdays.isEmpty ? text : say(NC_("with days", "%1$s, %2$s", text, days(s)))
    }

    /// The user's words for times and days.
    private func local(_ t: USec, _ now: USec) -> String { TimeText.local(t, now: now, language: language) }
    private func relative(_ t: USec, _ now: USec) -> String { TimeText.relative(t, from: now, language: language) }
    private func days(_ s: AlarmSnapshot) -> String { TimeText.days(s.weekdays, language: language) }

    // Translators: a usage error; %s is an alarmctl command ("list", "auth list").
    static func takesNoArguments(_ command: String) -> String { say(N_("'%s' takes no arguments", command)) }

    /// A title the daemon would refuse for being blank, refused here with the option's name.
    private func title(_ text: String, command: String) throws(CLIError) -> String {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            // Translators: %s is the option, --title.
            throw .usage(say(N_("%s must not be empty", "--title")), command: command)
        }
        return text
    }

    /// The options that set each configuration key, for the daemon's "key: reason" messages.
    private static func option(forKey key: String, command: String) -> String? {
        switch key {
        case "title": return "--title"
        case "sound": return "--sound"
        case SoundFile.key: return "--sound-file"
        case "post_alert": return "--snooze"
        case "pre_alert": return "--pre-alert"
        case "warning_threshold": return "--warn"
        case "completion_message": return "--message"
        case "weekdays": return "--days"
        // Translators: what alarmd's refusal is about, before its reason: "the time: …".
        case "hour", "minute", "fixed_date": return command == "update" ? "--time" : say(N_("the time"))
        // Translators: what alarmd's refusal is about, before its reason: "the duration: …".
        case "duration", "end_date": return command == "update" ? "--duration" : say(N_("the duration"))
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
        if let path = a.values["sound-file"] { c.append((SoundFile.key, try soundFile(path, command: command))) }
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

    /// The file `--sound-file` names, opened here and handed to alarmd open, as an app would.
    private func soundFile(_ path: String, command: String) throws(CLIError) -> Value {
        do { return try AlarmManagerProxy.soundFile(atPath: path) } catch {
            // The system's reason, without the path the error repeats.
            let reason = error.message.hasPrefix(path + ": ") ? String(error.message.dropFirst(path.count + 2)) : error.message
            // Translators: what failed; %s is a file's path.
            throw .usage(say(N_("cannot read %s", path)) + ": " + reason, command: command)
        }
    }

    private func when(_ text: String, days: String?, command: String) throws(CLIError) -> [(String, Value)] {
        let w: CommandInput.When
        switch CommandInput.readTime(text, language: language) {
        case .success(let v): w = v
        case .failure(.unreadable):
            // Translators: %s is the time as typed.
            throw .usage(say(N_("cannot read the time '%s': use HH:MM (07:30) or \"YYYY-MM-DD HH:MM\" (\"2026-12-24 18:00\")", text)), command: command)
        case .failure(.invalid(let reason)):
            // Translators: %1$s the time as typed, %2$s why ("there is no hour 25 in a day (hours are 00 to 23)").
            throw .usage(say(N_("the time '%1$s' does not exist: %2$s", text, reason)), command: command)
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
            if days != nil { throw .usage(say(N_("--days repeats a time of day (HH:MM), not a fixed date")), command: command) }
            if seconds <= Int64(now / usecPerSecond) {
                // Translators: %s is the date and time as typed.
                throw .usage(say(N_("'%s' is in the past: give a date and time still to come", text)), command: command)
            }
            return [("fixed_date", .int64(seconds))]
        }
    }

    private func badDays(_ d: String, command: String) -> CLIError {
        // Translators: %s is the days as typed; the words after "use" are what --days reads, in English.
        .usage(say(N_("cannot read the days '%s': use mon-fri, weekends, daily, never or a list such as mon,wed,fri", d)), command: command)
    }

    private func duration(_ text: String, what: String, command: String, zero: Bool = false,
                          range: ClosedRange<UInt64> = 1...DurationGrammar.maximumSeconds) throws(CLIError) -> UInt64 {
        switch CommandInput.readDuration(text, zero: zero, range: range, language: language) {
        case .success(let s): return s
        case .failure(.unreadable):
            // Translators: %s is the duration as typed.
            throw .usage(what == "duration" ? say(N_("cannot read the duration '%s': use seconds (90) or units such as 30s, 25m, 1h30m, 1d12h", text))
                         // Translators: %1$s the option (--snooze), %2$s the duration as typed.
                         : say(N_("cannot read the %1$s '%2$s': use seconds (90) or units such as 30s, 25m, 1h30m, 1d12h", what, text)),
                         command: command)
        case .failure(.invalid(let reason)):
            // Translators: %1$s the duration as typed, %2$s why ("is longer than 1 day, the most it may be").
            let message = what == "duration" ? say(N_("the duration '%1$s' %2$s", text, reason))
                // Translators: %1$s the option (--snooze), %2$s the duration as typed, %3$s why ("is longer than 1 day, the most it may be").
                : say(N_("%1$s '%2$s' %3$s", what, text, reason))
            // Translators: after why a duration is refused, for an option that 0 turns off.
            throw .usage(zero ? say(N_("%s (0 for none)", message)) : message, command: command)
        }
    }

    private func schedule(_ id: String?, _ config: [(String, Value)], command: String) throws(CLIError) -> String {
        do { return try proxy.schedule(id: id ?? "", config) } catch {
            throw .bus(Self.inOptionWords(error, command: command), doing: command == "timer" ? say(N_("cannot set the timer")) : say(N_("cannot set the alarm")))
        }
    }

    private func snapshot(_ id: String) throws(CLIError) -> AlarmSnapshot {
        do throws(BusError) {
            let r = try proxy.bus.call(Contract.busName, AlarmID.path(of: id), Contract.propertiesInterface, "GetAll",
                                       [.string(Contract.alarmInterface)])
            guard let first = r.first, let s = AlarmSnapshot(first) else { throw BusError(BusError.failed, "no properties") }
            return s
        // Translators: what failed; %s is an alarm's id.
        } catch { throw .bus(error, doing: say(N_("cannot read %s", IDPrefix.short(id)))) }
    }

    // MARK: transitions

    /// The alarm `text` names: a full id or a unique prefix, as git takes commit ids.
    func resolve(_ text: String) throws(CLIError) -> AlarmSnapshot {
        let items = try alarms()
        switch IDPrefix.match(text, in: items.map(\.id)) {
        case .one(let id): return items.first { $0.id == id }!
        // Translators: %s is the id (or its beginning) as typed.
        case .none: throw CLIError(code: 5, message: say(N_("no alarm matches '%s'.\n'alarmctl list' shows the alarms you have.", text)))
        case .ambiguous(let ids):
            let lines = ids.sorted().map { id in "  \(id)  \(items.first { $0.id == id }?.title ?? "")" }.joined(separator: "\n")
            // Translators: %1$s the id's beginning as typed, %2$d how many alarms it matches, %3$s those alarms, a line each.
            throw CLIError(code: 6, message: say(NP_("'%1$s' matches %2$d alarm:\n%3$s\nGive more of the id.",
                                                     "'%1$s' matches %2$d alarms:\n%3$s\nGive more of the id.", ids.count, text, String(ids.count), lines)))
        }
    }

    private enum Target { case text(String), alarm(AlarmSnapshot) }

    func transition(_ verb: String, _ a: Arguments) throws(CLIError) -> Int32 {
        var targets: [Target] = a.positional.map { .text($0) }
        if targets.isEmpty {
            // A panel's click cannot name an alarm: stop and snooze without ids mean every ringing one.
            // Translators: a usage error; %s is the command ("pause").
            guard verb == "stop" || verb == "snooze" else { throw .usage(say(N_("'%s' needs at least one alarm id", verb)), command: verb) }
            let ringing = try alarms().filter(\.isAlerting)
            guard !ringing.isEmpty else { throw CLIError(code: 5, message: say(N_("nothing is ringing."))) }
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
                // Switched on, it rings at its next occurrence: say when, as `alarm` does.
                if verb == "on", let on = (try? proxy.alarms())?.first(where: { $0.id == s.id }), on.fireTime > 0 {
                    let t = now
                    // Translators: %1$s the id, %2$s the title, %3$s when it rings ("Tue 07:30"), %4$s how far off ("in 9 h").
                    out.line(say(N_("Switched on %1$s \"%2$s\": rings %3$s, %4$s.", IDPrefix.short(s.id), s.title, local(on.fireTime, t), relative(on.fireTime, t))))
                } else {
                    out.line(done(verb, s))
                }
            } catch {
                Output.error(error.message)
                status = error.code
            }
        }
        return status
    }

    /// What a transition did, for the alarm it did it to.
    private func done(_ verb: String, _ s: AlarmSnapshot) -> String {
        let id = IDPrefix.short(s.id), title = s.title
        switch verb {
        // Translators: what alarmctl did: %1$s the id, %2$s the title.
        case "pause": return say(N_("Paused %1$s \"%2$s\".", id, title))
        case "resume": return say(N_("Resumed %1$s \"%2$s\".", id, title))
        case "stop": return say(N_("Stopped %1$s \"%2$s\".", id, title))
        case "snooze": return say(N_("Snoozed %1$s \"%2$s\".", id, title))
        case "on": return say(N_("Switched on %1$s \"%2$s\".", id, title))
        case "off": return say(N_("Switched off %1$s \"%2$s\".", id, title))
        default: return say(N_("Cancelled %1$s \"%2$s\".", id, title))
        }
    }

    /// What failed when a transition did: "cannot snooze 3f8f8e00 "Pizza"".
    private func cannot(_ verb: String, _ s: AlarmSnapshot) -> String {
        let id = IDPrefix.short(s.id), title = s.title
        switch verb {
        // Translators: what failed: %1$s the id, %2$s the title.
        case "pause": return say(N_("cannot pause %1$s \"%2$s\"", id, title))
        case "resume": return say(N_("cannot resume %1$s \"%2$s\"", id, title))
        case "stop": return say(N_("cannot stop %1$s \"%2$s\"", id, title))
        case "snooze": return say(N_("cannot snooze %1$s \"%2$s\"", id, title))
        case "on": return say(N_("cannot switch on %1$s \"%2$s\"", id, title))
        case "off": return say(N_("cannot switch off %1$s \"%2$s\"", id, title))
        default: return say(N_("cannot cancel %1$s \"%2$s\"", id, title))
        }
    }

    /// The state each verb needs, in the words `list` shows.
    static func neededState(_ verb: String) -> String? {
        switch verb {
        case "pause": return say(NC_("state", "counting down"))
        case "resume": return say(NC_("state", "paused"))
        case "stop", "snooze": return say(NC_("state", "ringing"))
        default: return nil
        }
    }

    /// What a transition's refusal means to whoever typed the verb. The daemon's InvalidState
    /// speaks of its methods ("Countdown needs an alarm in state 'alerting'"), which are not the
    /// words on the command line: say the verb, the alarm and the state it is really in.
    private func refusal(_ error: BusError, verb: String, alarm s: AlarmSnapshot) -> CLIError {
        let named = cannot(verb, s)
        guard error.name == Contract.ErrorName.invalidState, let needed = Self.neededState(verb) else {
            return CLIError.bus(error, doing: named)
        }
        // The state now, not the one read before the call: it may have moved on since.
        let current = (try? proxy.alarms())?.first { $0.id == s.id } ?? s
        // Translators: %1$s what failed ("cannot snooze 3f8f8e00 "Pizza""), %2$s the state the alarm is in
        // ("counting down (rings in 24 min)"), %3$s the state the command needs ("ringing"), %4$s the D-Bus error's name.
        return CLIError(code: 1, message: say(N_("%1$s: it is %2$s, not %3$s (%4$s)", named, stateWords(current), needed, error.name)))
    }

    /// "counting down (rings in 24 min)", "scheduled for Tue 07:30", "paused with 3:00 left".
    private func stateWords(_ s: AlarmSnapshot) -> String {
        let t = now
        switch s.state {
        case .alerting?: return say(NC_("state", "ringing"))
        // Translators: the state an alarm is in; %s is the time left ("3:00").
        case .paused?: return say(N_("paused with %s left", TimeText.clock(s.remaining(at: t), language: language)))
        case .countdown?:
            // Translators: the state an alarm is in; %s is how far off its end is ("in 24 min").
            return s.isSilent ? say(N_("counting down (ends %s)", relative(s.fireTime, t)))
                // Translators: the state an alarm is in; %s is how far off it rings ("in 24 min").
                : say(N_("counting down (rings %s)", relative(s.fireTime, t)))
        // Translators: the state an alarm is in; %s is when it rings ("Tue 07:30").
        case .scheduled?: return s.enabled ? say(N_("scheduled for %s", local(s.fireTime, t))) : say(N_("switched off"))
        case nil: return "'\(s.stateName)'"
        }
    }

    // MARK: auth, status, completion

    func auth(_ a: Arguments) throws(CLIError) -> Int32 {
        let sub = a.positional.first ?? "list"
        if sub == "list" {
            guard a.positional.count <= 1 else { throw .usage(Self.takesNoArguments("auth list"), command: "auth") }
            let all: [(app: String, state: String)]
            do {
                all = try proxy.authorizations().map { ($0.app, $0.state?.rawValue ?? "unknown") }
            } catch {
                throw .bus(error, doing: say(N_("cannot list authorizations")))
            }
            if let mode = a.json {
                out.line(JSON.text(Dictionary(all.map { ($0.app, $0.state) }, uniquingKeysWith: { x, _ in x }), mode))
            } else if all.isEmpty {
                out.line(say(N_("No app has asked to set alarms yet.")))
            } else {
                out.table([say(NC_("column", "APP")), say(NC_("column", "STATE"))], all.map { [$0.app, Self.authorizationWords($0.state)] })
            }
            return 0
        }
        let states: [String: AuthorizationState] = ["allow": .authorized, "deny": .denied, "reset": .notDetermined]
        // Translators: %s is what followed 'auth' on the line.
        guard let state = states[sub] else { throw .usage(say(N_("unknown 'auth' command '%s': use list, allow, deny or reset", sub)), command: "auth") }
        if a.json != nil { throw .usage(Invocation.printsNoJSON("auth " + sub, language), command: "auth") }
        // Translators: a usage error; %s is the command ("auth allow").
        guard a.positional.count == 2 else { throw .usage(say(N_("'%s' needs one app id, such as org.gnome.clocks", "auth " + sub)), command: "auth") }
        let app = a.positional[1]
        do { try proxy.setAuthorization(app: app, state: state) } catch {
            // Translators: what failed; %s is an app id.
            let what = sub == "allow" ? say(N_("cannot allow %s", app)) : sub == "deny" ? say(N_("cannot deny %s", app)) : say(N_("cannot reset %s", app))
            throw .bus(error, doing: what)
        }
        // Translators: an app's consent, after it was decided: %1$s the app id, %2$s authorized, denied or not determined.
        out.line(say(N_("%1$s: %2$s", app, Self.authorizationWords(state.rawValue))))
        return 0
    }

    func status(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.isEmpty else { throw .usage(Self.takesNoArguments("status"), command: "status") }
        guard proxy.isRunning else {
            if let mode = a.json { out.line(JSON.text(["running": false], mode)) } else { out.line(say(N_("alarmd: not running"))) }
            Output.error(say(N_("alarmd is not running.")) + "\n" + CLIError.notRunningHint)
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
        let nextText: String
        if next == 0 {
            // Translators: in 'alarmctl status', when no alarm is set to ring.
            nextText = say(NC_("next alarm", "none"))
        } else if let title = nextAlarm?.title {
            // Translators: the next alarm in 'alarmctl status': %1$s when ("Tue 07:30"), %2$s how far off ("in 9 h"), %3$s its title.
            nextText = say(N_("%1$s (%2$s): %3$s", local(next, t), relative(next, t), title))
        } else {
            // Translators: the next alarm in 'alarmctl status': %1$s when ("Tue 07:30"), %2$s how far off ("in 9 h").
            nextText = say(N_("%1$s (%2$s)", local(next, t), relative(next, t)))
        }
        var alarmsText = String(items.count)
        if counting + ringing > 0 {
            // Translators: how many alarms there are in 'alarmctl status', "3 (1 counting down, 0 ringing)":
            // %1$s the number, %2$s how many count down, %3$s how many ring.
            alarmsText = say(N_("%1$s (%2$s, %3$s)", alarmsText, say(NP_("%d counting down", "%d counting down", counting, String(counting))),
                                say(NP_("%d ringing", "%d ringing", ringing, String(ringing)))))
        }
        // Translators: the labels of 'alarmctl status', before a colon.
        let rows: [(String, String)] = [
            ("alarmd", say(N_("running, version %s", proxy.version))),
            (say(NC_("status", "next alarm")), nextText),
            (say(NC_("status", "wake")), proxy.wakeSupported ? say(N_("alarms wake the machine from suspend")) : say(N_("alarms cannot wake the machine from suspend"))),
            (say(NC_("status", "store")), proxy.storePath),
            (say(NC_("status", "alarms")), alarmsText),
        ]
        for (k, v) in rows { out.line(out.styled(k.leftPadded(to: 10), .bold) + ": " + v) }
        if let reason = recovery[Contract.StoreRecovery.reason] {
            typealias Key = Contract.StoreRecovery
            let when = recovery[Key.time].flatMap(KeptStoreName.usec(isoTime:)).map { local($0, t) }
            let indent = String(repeating: " ", count: 12)
            // Translators: why the store was set aside, when a newer alarmd wrote it.
            let was = reason == Key.Reason.newerSchema.rawValue ? say(N_("written by a newer alarmd")) : reason
            // Translators: in 'alarmctl status' after alarmd set a damaged store aside: %1$s when, %2$s why.
            var started = when.map { say(N_("started empty at %1$s: the store before was %2$s", $0, was)) }
                // Translators: in 'alarmctl status' after alarmd set a damaged store aside; %s why.
                ?? say(N_("started empty: the store before was %s", was))
            // Translators: the store's damage and alarmd's details about it: %1$s the sentence, %2$s the details.
            if let detail = recovery[Key.detail], !detail.isEmpty { started = say(N_("%1$s (%2$s)", started, detail)) }
            out.line(out.styled(say(NC_("status", "recovery")).leftPadded(to: 10), .bold) + ": " + out.styled(started, .red))
            // Translators: where the damaged store is kept; %s is its path.
            if let kept = recovery[Key.keptPath] { out.line(indent + say(N_("kept as %s", kept))) }
            if let hint = recovery[Key.hint], !hint.isEmpty { out.line(indent + hint) }
        }
        return 0
    }

    /// An app's consent in the user's words (auth list); an unknown one as alarmd named it.
    static func authorizationWords(_ state: String) -> String {
        switch AuthorizationState(rawValue: state) {
        // Translators: an app's consent to set alarms, in 'alarmctl auth list'.
        case .authorized?: return say(NC_("authorization", "authorized"))
        case .denied?: return say(NC_("authorization", "denied"))
        case .notDetermined?: return say(NC_("authorization", "not determined"))
        case nil: return state
        }
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
    /// Whether its countdown ends without ringing: a silent timer.
    var isSilent: Bool { isTimer && !ring }

    /// Its kind in the user's words (`list`, `update`); a kind of a newer alarmd as it names it.
    var kindWords: String {
        switch kind {
        // Translators: the kind of an alarm, in 'alarmctl list' and after "Updated …".
        case .alarm?: return say(NC_("kind", "alarm"))
        case .timer?: return say(NC_("kind", "timer"))
        case nil: return kindName
        }
    }

    /// Its state in the user's words (`list`); a state of a newer alarmd as it names it.
    var stateWords: String {
        // Translators: the state of an alarm switched off, in 'alarmctl list'.
        guard enabled else { return say(NC_("state", "off")) }
        switch state {
        // Translators: the states of an alarm, in 'alarmctl list'.
        case .scheduled?: return say(NC_("state", "scheduled"))
        case .countdown?: return say(NC_("state", "counting down"))
        case .paused?: return say(NC_("state", "paused"))
        case .alerting?: return say(NC_("state", "ringing"))
        case nil: return stateName
        }
    }
}

extension String {
    /// The terminal columns it takes: two for the wide characters of Chinese, Japanese and Korean
    /// (East Asian Width W and F, as wcwidth(3) counts them), none for combining marks.
    var columns: Int {
        unicodeScalars.reduce(0) { width, u in
            switch u.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return width
            default: return width + (String.wide.contains { $0.contains(u.value) } ? 2 : 1)
            }
        }
    }

    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]

    func leftPadded(to width: Int) -> String { columns >= width ? self : String(repeating: " ", count: width - columns) + self }
    func rightPadded(to width: Int) -> String { columns >= width ? self : self + String(repeating: " ", count: width - columns) }
}
