// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import SDBus

/// `alarmctl monitor`: one line per event, as alarmd announces it.
final class Monitor {
    let proxy: AlarmManagerProxy
    let out: Output
    private var json: JSONMode?
    private var started = false

    init(_ proxy: AlarmManagerProxy, _ out: Output) {
        self.proxy = proxy
        self.out = out
    }

    func run(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.isEmpty else { throw .usage(Commands.takesNoArguments("monitor"), command: "monitor") }
        json = a.json
        let live = try Live(proxy)
        live.exitWhenOutputCloses()
        try live.start({ [unowned self, unowned live] e in self.print(e, running: live.running, count: live.alarms.count) }, tick: {})
        return live.run()
    }

    /// The event's name (`added`, …) stays as `--json`'s `event` names it, a column to grep by; what
    /// follows it is in the user's words.
    private func print(_ event: MirrorEvent, running: Bool, count: Int) {
        let now = SystemClock().now()
        let stamp = TimeText.seconds(now)
        func emit(_ kind: String, _ text: String, _ fields: [String: Any]) {
            if let json {
                var o = fields
                o["event"] = kind
                o["time_usec"] = now
                // pretty indents each event over several lines, one object after another as
                // journalctl -o json-pretty prints; short keeps one object per line.
                out.line(JSON.text(o, json))
            } else {
                out.line("\(stamp) \(kind.rightPadded(to: 13)) \(text)")
            }
        }
        switch event {
        case .loaded:
            // The first load is the starting point, not an event; say only when there is nothing to follow.
            if !started { started = true; if !running { emit("not-running", say(N_("alarmd is not running; waiting for it")), [:]) } }
        case .added(let s):
            // Translators: an alarm added, in 'alarmctl monitor': %1$s its id, %2$s its kind, %3$s its state, %4$s its title,
            // %5$s when it rings ("rings Tue 07:30 (in 9 h)").
            emit("added", say(N_("%1$s %2$s %3$s \"%4$s\" %5$s", IDPrefix.short(s.id), s.kindWords, s.stateWords, s.title, describe(s, now))),
                 ["id": s.id, "alarm": JSON.object(s.properties)])
        case .changed(let old, let new, let names):
            let shown = names.filter { $0 != "Progress" && $0 != "RemainingUSec" }
            let text = shown.map { "\($0)=\(brief(new.properties[$0]))" }.joined(separator: " ")
            var fields: [String: Any] = ["id": new.id, "changed": JSON.object(new.properties.filter { shown.contains($0.key) })]
            if old.stateName != new.stateName { fields["old_state"] = old.stateName }
            emit("changed", "\(IDPrefix.short(new.id)) \(text)", fields)
        case .removed(let s, let reason):
            // Translators: an alarm removed, in 'alarmctl monitor': %1$s its id, %2$s its title, %3$s why (alarmd's word for it).
            emit("removed", say(N_("%1$s \"%2$s\" %3$s", IDPrefix.short(s.id), s.title, reason?.rawValue ?? "removed")),
                 ["id": s.id, "reason": reason?.rawValue ?? "", "title": s.title])
        case .authorizationChanged(let app, let state):
            let name = state?.rawValue ?? "unknown"
            emit("authorization", "\(app) \(Commands.authorizationWords(name))", ["app": app, "state": name])
        case .nextFireTimeChanged(let t):
            let when = TimeText.local(t, now: now, language: language), until = TimeText.relative(t, from: now, language: language)
            // Translators: the next alarm in 'alarmctl monitor': %1$s when ("Tue 07:30"), %2$s how far off ("in 9 h").
            emit("next", t == 0 ? say(N_("no alarm pending")) : say(N_("%1$s (%2$s)", when, until)),
                 ["next_fire_usec": t])
        case .daemonStarted:
            emit("started", say(NP_("alarmd started (%d alarm)", "alarmd started (%d alarms)", count, String(count))), ["alarms": count])
        case .daemonStopped:
            emit("stopped", say(N_("alarmd stopped")), [:])
        }
    }

    private func describe(_ s: AlarmSnapshot, _ now: USec) -> String {
        switch s.state {
        // Translators: a paused countdown in 'alarmctl monitor'; %s is the time left ("4:49").
        case .paused?: return say(N_("paused, %s left", TimeText.clock(s.remaining(at: now), language: language)))
        case .alerting?: return say(NC_("state", "ringing"))
        case .countdown?, .scheduled?, nil:
            let when = TimeText.local(s.fireTime, now: now, language: language), until = TimeText.relative(s.fireTime, from: now, language: language)
            // Translators: when an alarm rings, in 'alarmctl monitor': %1$s when ("Tue 07:30"), %2$s how far off ("in 9 h").
            return say(N_("fires %1$s (%2$s)", when, until))
        }
    }

    /// A property value in a few characters: strings quoted, numbers bare, maps by their keys.
    private func brief(_ v: Value?) -> String {
        switch v?.unwrapped {
        case .string(let s)?: return s.contains(" ") || s.isEmpty ? "\"\(s)\"" : s
        case .dict(_, _, let entries)?: return "{" + entries.compactMap { $0.key.stringValue }.joined(separator: ",") + "}"
        case let other?: return "\(JSON.value(other))"
        case nil: return "-"
        }
    }

}
