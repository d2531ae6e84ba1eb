// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Gettext
import SDBus

/// AlarmKit's system alert on the desktop: carries out what `AlertPlan` decides for each applied
/// change — rings (Ringer), shows a critical resident notification with Stop and the secondary button,
/// keeps the machine awake — and turns the user's answers into changes through its sink.
final class Alerts: ChangeSubscriber {
    private let engine: EngineView
    private unowned let sink: Committer
    private let notifier: Notifier
    let ringer: Ringer
    private let actions: AppActions
    private let inhibitor: SleepInhibitor
    private let output: OutputGuard
    private let icons: OwnIcons
    private let waker: ScreenWaker
    /// The session's, as the process's locale says (alarmd has one locale for its life).
    private let language: any Language = Translation.current
    /// alarm id → the id of its notification (alert, or "Snoozed until").
    private var shown: [String: UInt32] = [:]
    /// alarm id → the generation of its latest Notify, so that a reply arriving after a newer Notify or
    /// a withdrawal is recognised as stale. Generations come from one counter and never repeat, so a
    /// withdrawal can drop the entry: the map holds only alarms with a notification in flight or shown.
    private var generation: [String: UInt64] = [:]
    private var lastGeneration: UInt64 = 0

    init(engine: EngineView, sink: Committer, notifier: Notifier, bus: Bus, loop: EventLoop,
         soundDirectories: [String], icons: OwnIcons, output: OutputGuard, systemBus: Bus?) throws {
        self.engine = engine
        self.icons = icons
        self.sink = sink
        self.notifier = notifier
        self.output = output
        ringer = try Ringer(loop: loop, soundDirectories: soundDirectories, feedback: try Feedback(bus: bus)) { [unowned sink] id, message in
            sink.decide(.soundError(id: id, message: message), "sound error of \(id)")
        }
        actions = AppActions(bus: bus, loop: loop)
        waker = ScreenWaker(bus: bus)
        inhibitor = SleepInhibitor(systemBus: systemBus, loop: loop)
        notifier.whenServerAppears { [unowned self] in self.notificationServerAppeared() }
    }

    /// A notification server appeared (restarted, or started after alarmd): the ids of what the
    /// old one showed mean nothing now, and every ringing alarm needs its buttons on the new one.
    func notificationServerAppeared() {
        shown.removeAll()
        let ringing = engine.alarms.values.filter { $0.state == .alerting }
        if !ringing.isEmpty { Log.info("notification server appeared: showing \(ringing.count) ringing alarm(s) again") }
        for a in ringing { perform(.showAlert(a)) }
    }

    /// Alarms already alerting when the daemon starts ring again.
    func resume() {
        // A small list first: ringing may submit (a sound error), which must not copy every alarm.
        for a in engine.alarms.values.filter({ $0.state == .alerting }) {
            perform(.ring(a))
            perform(.showAlert(a))
        }
        settle()
    }

    /// alarmd is exiting: its notifications go with it. A ringing alarm stays alerting, and the next
    /// alarmd shows it again (`resume`); left open, the server would show it twice.
    func finish() {
        for id in Array(shown.keys) { withdraw(id) }
    }

    func applied(_ change: AppliedChange) {
        for effect in AlertPlan.effects(of: change.mutation, before: change.before, notificationShown: { self.shown[$0] != nil }) {
            perform(effect)
        }
        settle()
    }

    private func perform(_ effect: AlertEffect) {
        let zone = engine.timeZone
        switch effect {
        // Changes are announced in order once durable, but the engine already holds every change of
        // the loop pass: an alarm that rang and was stopped or snoozed in the same pass (pipelined
        // calls) needs no sound and no notification that the next effect takes back at once.
        case .ring(let a) where !isStill(a, .alerting), .showAlert(let a) where !isStill(a, .alerting),
             .showSnoozed(let a) where !isStill(a, .countdown):
            return
        case .ring(let a):
            if !ringer.isRinging(a.id) {
                Log.info("alarm \(a.id) (app '\(a.appId)') is alerting, due \(Log.time(a.fireTime ?? 0)): \(a.config.presentation.title)")
                waker.wake(alarm: a.id)
            }
            ringer.start(a)
        case .showAlert(let a): show(a, AlertText.alert(a, in: zone, language), actions: AlertText.actions(a, language), critical: true)
        case .showSnoozed(let a): show(a, AlertText.snoozed(a, in: zone, language), actions: [], critical: false)
        case .silence(let id): ringer.stop(id)
        case .withdraw(let id): withdraw(id)
        case .missed(let list): missed(list)
        case .completed(let a): completed(a)
        }
    }

    /// Whether `a` is still in `state` now, with the same fire time (a snooze moved again is shown by a later effect).
    private func isStill(_ a: Alarm, _ state: AlarmState) -> Bool {
        guard let now = engine.alarms[a.id] else { return false }
        return now.state == state && (state != .countdown || now.fireTime == a.fireTime)
    }

    /// Hold the inhibitor, and the output's volume, exactly while something rings. (The ringer holds
    /// every alerting alarm, heard or not, so this needs no scan of all alarms.)
    private func settle() {
        inhibitor.set(ringer.isRinging)
        output.set(ringing: ringer.isRinging)
    }

    /// alarmd's own icon of the alarm's kind, shipped in hicolor so that every theme has it
    /// (Debian 12's Adwaita has no `timer-symbolic`).
    static func kindIcon(_ a: Alarm) -> String { a.kind == .timer ? "alarmd-timer" : "alarmd-alarm" }

    /// The alarm's own icon where a notification server can find it (`mdi:` names it cannot).
    private static func ownIcon(_ a: Alarm) -> String? {
        let icon = a.config.presentation.icon
        return icon.isEmpty || icon.hasPrefix("mdi:") ? nil : icon
    }

    /// A notification about `a` as the app that set it: the app's name and icon from its desktop
    /// entry and the spec's `desktop-entry` hint, the alarm's own icon as the image; alarmd's name and
    /// icons for the user's own tools and apps without an entry.
    private func notification(_ a: Alarm, _ text: (summary: String, body: String), category: String) -> Notification {
        let app = a.appId.isEmpty ? nil : AppDirectory.describe(a.appId)
        var hints: [(String, Value)] = [("category", .string(category)), ("x-alarmd-alarm-id", .string(a.id))]
        if let entry = app?.desktopEntry { hints.append(("desktop-entry", .string(entry))) }
        if let own = Alerts.ownIcon(a) { hints.append(("image-path", .string(own))) }
        let appIcon = app.map(\.icon).flatMap { $0.isEmpty ? nil : $0 } ?? Alerts.ownIcon(a) ?? icons.icon(Alerts.kindIcon(a))
        return Notification(appName: app?.name ?? "alarmd", icon: appIcon, summary: text.summary, body: text.body.markupEscaped,
                            hints: hints)
    }

    private func show(_ a: Alarm, _ text: (summary: String, body: String), actions: [(String, String)], critical: Bool) {
        var n = notification(a, text, category: "x-alarmd.alarm")
        // The daemon plays the sound itself: ask the server not to add its own.
        n.hints += [Notification.urgency(critical ? .critical : .normal), ("suppress-sound", .bool(true))]
        if critical { n.hints.append(("resident", .bool(true))) }
        // A lock screen may name the alarm (GNOME lists only "alarmd" for notifications without it).
        n.hints.append(("x-gnome-privacy-scope", .string("system")))
        n.replacesId = shown[a.id] ?? 0
        n.actions = actions
        n.expireTimeout = critical ? 0 : -1
        n.ringingAlert = critical
        let id = a.id
        lastGeneration += 1
        let gen = lastGeneration
        generation[id] = gen
        notifier.notify(n, events: { [unowned self] event in
            self.event(event, alarm: id)
        }, done: { [unowned self] result in
            switch result {
            case .success(let nid):
                if self.generation[id] == gen { self.shown[id] = nid } else if self.shown[id] != nid { self.notifier.close(nid) }
            case .failure(let e):
                let rings = self.engine.alarms[id]?.state == .alerting
                Log.warning("alarm \(id): no notification shown (\(e.name))" + (rings ? "; the alarm still rings" : ""))
            }
        })
    }

    private func withdraw(_ id: String) {
        generation.removeValue(forKey: id)
        if let nid = shown.removeValue(forKey: id) { notifier.close(nid) }
    }

    /// One notification, which stays, for alarms that were not answered or came due unseen.
    private func missed(_ list: [Alarm]) {
        guard !list.isEmpty else { return }
        let text = AlertText.missed(list, in: engine.timeZone, language)
        Log.info("missed: \(list.map(\.id).joined(separator: ", "))")
        let n = Notification(icon: icons.icon("alarmd-alarm"), summary: text.summary, body: text.body.markupEscaped,
                             hints: [Notification.urgency(.normal), ("category", .string("x-alarmd.missed"))],
                             expireTimeout: 0)
        notifier.notify(n, events: { _ in }, done: { _ in })
    }

    /// A silent countdown (`ring: false`) ended: a plain notification with its completion message.
    private func completed(_ a: Alarm) {
        var n = notification(a, AlertText.completed(a, language), category: "x-alarmd.completed")
        n.hints.append(Notification.urgency(.normal))
        n.actions = AlertText.openAction(a, language)
        let id = a.id
        notifier.notify(n, events: { [unowned self] event in
            // The alarm is gone: only a click means anything, and it asks nothing of the engine.
            if case .action(let key) = event, let answer = AlertAnswer(action: key), answer == .action(.open) {
                self.carryOut(answer.response(for: a), of: a)
            }
        }, done: { result in
            if case .failure(let e) = result { Log.warning("alarm \(id): completion not shown (\(e.name))") }
        })
    }

    /// The user acted on a notification: what it means is `AlertAnswer`'s to say.
    private func event(_ event: Notifier.Event, alarm id: String) {
        guard let a = engine.alarms[id] else { return }
        let answer: AlertAnswer?
        switch event {
        case .action(let key):
            answer = AlertAnswer(action: key)
            if answer == nil { Log.warning("alarm \(id): unknown notification action '\(key)'") }
        case .closed(let reason):
            if shown[id] != nil { shown.removeValue(forKey: id) }
            answer = AlertAnswer(closedBecause: reason)
        }
        if let answer { carryOut(answer.response(for: a), of: a) }
    }

    /// The command goes through the sink, a change like any other (the engine refuses it if the
    /// alarm no longer rings); then the app's action, the URL, the alert shown again.
    private func carryOut(_ r: AlertResponse, of a: Alarm) {
        let id = a.id
        if let command = r.command {
            let what = command.method ?? "\(command)"
            do {
                try sink.submit(command, by: .user, "\(what) of \(id) from its notification", then: nil)
                Log.info("alarm \(id): \(what) from its notification")
            } catch {
                Log.warning("alarm \(id): \(what) from its notification refused: \(error.message)")
            }
        }
        if let action = r.appAction { actions.activate(app: a.appId, action: action, alarm: id) }
        if let url = r.url { actions.open(url: url, alarm: id) }
        if r.showAgain { perform(.showAlert(a)) }
    }
}
