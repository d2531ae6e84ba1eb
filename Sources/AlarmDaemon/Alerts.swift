import AlarmCore
import SDBus

/// AlarmKit's system alert on the desktop: when an alarm starts alerting it rings (Ringer), shows a
/// critical resident notification with Stop and the secondary button, and keeps the machine awake;
/// when it stops alerting, by whatever path, all of that ends.
final class Alerts {
    private unowned let daemon: Daemon
    let ringer: Ringer
    private let actions: AppActions
    private let inhibitor: SleepInhibitor
    /// alarm id → the id of its notification (alert, or "Snoozed until").
    private var shown: [String: UInt32] = [:]
    /// Bumped per alarm whenever its notification is (re)sent or withdrawn, so that a Notify reply
    /// arriving after a newer change is recognised as stale.
    private var generation: [String: Int] = [:]

    init(daemon: Daemon, soundDirectories: [String]) throws {
        self.daemon = daemon
        ringer = try Ringer(loop: daemon.loop, soundDirectories: soundDirectories)
        actions = AppActions(bus: daemon.bus, loop: daemon.loop)
        inhibitor = SleepInhibitor(systemBus: { [unowned daemon] in daemon.systemBus })
        ringer.onError = { [unowned self] id, message in
            try? self.daemon.commit(self.daemon.engine.planSoundError(id: id, message))
        }
    }

    /// A notification server appeared (restarted, or started after alarmd): the ids of what the
    /// old one showed mean nothing now, and every ringing alarm needs its buttons on the new one.
    func notificationServerAppeared() {
        shown.removeAll()
        let ringing = daemon.engine.alarms.values.filter { $0.state == .alerting }
        if !ringing.isEmpty { Log.info("notification server appeared: showing \(ringing.count) ringing alarm(s) again") }
        for a in ringing { show(a, AlertText.alert(a, in: daemon.engine.timeZone), actions: AlertText.actions(a), critical: true) }
    }

    /// Alarms already alerting when the daemon starts ring again.
    func resume() {
        for a in daemon.engine.alarms.values where a.state == .alerting { began(a) }
        settle()
    }

    /// Called for every alarm a mutation touched, after it was applied.
    func changed(old: Alarm?, new: Alarm?, timedOut: Bool, snoozed: Bool) {
        let was = old?.state == .alerting, now = new?.state == .alerting
        if now && !was {
            began(new!)
        } else if now, let old, let new, old.config != new.config {
            // Updated while ringing: the new sound rings, the notification shows the new texts and buttons.
            if old.config.sound != new.config.sound || old.config.volumeRamp != new.config.volumeRamp { ringer.start(new) }
            if old.config.presentation != new.config.presentation {
                show(new, AlertText.alert(new, in: daemon.engine.timeZone), actions: AlertText.actions(new), critical: true)
            }
        } else if was && !now {
            ringer.stop(old!.id)
            if let new, snoozed {
                show(new, AlertText.snoozed(new, in: daemon.engine.timeZone), actions: [], critical: false)
            } else {
                withdraw(old!.id)
            }
            if timedOut { missed([old!]) }
        } else if new == nil, let old {
            withdraw(old.id)
        } else if let new, new.state != .countdown, shown[new.id] != nil, !now {
            // A snoozed alarm paused or re-armed: its "Snoozed until" no longer holds.
            withdraw(new.id)
        } else if let new, new.state == .countdown, shown[new.id] != nil, !now, old?.fireTime != new.fireTime {
            show(new, AlertText.snoozed(new, in: daemon.engine.timeZone), actions: [], critical: false)
        }
    }

    /// After a whole mutation: hold the inhibitor exactly while something rings. (The ringer holds
    /// every alerting alarm, heard or not, so this needs no scan of all alarms.)
    func settle() {
        inhibitor.set(ringer.isRinging)
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
        let appIcon = app.map(\.icon).flatMap { $0.isEmpty ? nil : $0 } ?? Alerts.ownIcon(a) ?? Alerts.kindIcon(a)
        return Notification(appName: app?.name ?? "alarmd", icon: appIcon, summary: text.summary, body: text.body.markupEscaped,
                            hints: hints)
    }

    private func began(_ a: Alarm) {
        Log.info("alarm \(a.id) (app '\(a.appId)') is alerting: \(a.config.presentation.title)")
        ringer.start(a)
        show(a, AlertText.alert(a, in: daemon.engine.timeZone), actions: AlertText.actions(a), critical: true)
    }

    private func show(_ a: Alarm, _ text: (summary: String, body: String), actions: [(String, String)], critical: Bool) {
        var n = notification(a, text, category: "x-alarmd.alarm")
        // The daemon plays the sound itself: ask the server not to add its own.
        n.hints += [("urgency", .byte(critical ? 2 : 1)), ("suppress-sound", .bool(true))]
        if critical { n.hints.append(("resident", .bool(true))) }
        n.replacesId = shown[a.id] ?? 0
        n.actions = actions
        n.expireTimeout = critical ? 0 : -1
        let id = a.id
        let gen = (generation[id] ?? 0) + 1
        generation[id] = gen
        daemon.notifier.notify(n, events: { [unowned self] event in
            self.event(event, alarm: id)
        }, done: { [unowned self] result in
            switch result {
            case .success(let nid):
                if self.generation[id] == gen { self.shown[id] = nid } else if self.shown[id] != nid { self.daemon.notifier.close(nid) }
            case .failure(let e):
                Log.warning("alarm \(id): no notification shown (\(e.name)); the alarm still rings")
            }
        })
    }

    private func withdraw(_ id: String) {
        generation[id] = (generation[id] ?? 0) + 1
        if let nid = shown.removeValue(forKey: id) { daemon.notifier.close(nid) }
    }

    /// One notification, which stays, for alarms that were not answered or came due unseen.
    func missed(_ list: [Alarm]) {
        guard !list.isEmpty else { return }
        let text = AlertText.missed(list, in: daemon.engine.timeZone)
        Log.info("missed: \(list.map(\.id).joined(separator: ", "))")
        let n = Notification(icon: "alarmd-alarm", summary: text.summary, body: text.body.markupEscaped,
                             hints: [("urgency", .byte(1)), ("category", .string("x-alarmd.missed"))],
                             expireTimeout: 0)
        daemon.notifier.notify(n, events: { _ in }, done: { _ in })
    }

    /// A silent countdown (`ring: false`) ended: a plain notification with its completion message.
    func completed(_ a: Alarm) {
        let p = a.config.presentation
        var n = notification(a, AlertText.completed(a), category: "x-alarmd.completed")
        n.hints.append(("urgency", .byte(1)))
        n.actions = p.tapAction.isEmpty ? [] : [("default", "Open")]
        let id = a.id, url = p.tapAction
        daemon.notifier.notify(n, events: { [unowned self] event in
            if case .action("default") = event, !url.isEmpty { self.actions.open(url: url, alarm: id) }
        }, done: { result in
            if case .failure(let e) = result { Log.warning("alarm \(id): completion not shown (\(e.name))") }
        })
    }

    /// The user acted on a notification.
    private func event(_ event: Notifier.Event, alarm id: String) {
        guard let a = daemon.engine.alarms[id] else { return }
        let p = a.config.presentation
        switch event {
        case .action("stop"):
            perform(id, "Stop") { () throws(AlarmError) in try daemon.engine.planStop(app: "", id: id) }
            actions.activate(app: a.appId, action: p.stopAction, alarm: id)
        case .action("secondary"):
            if p.secondaryButtonBehavior == .countdown {
                perform(id, "Countdown") { () throws(AlarmError) in try daemon.engine.planCountdown(app: "", id: id) }
            }
            actions.activate(app: a.appId, action: p.secondaryAction, alarm: id)
        case .action("default"):
            if !p.tapAction.isEmpty { actions.open(url: p.tapAction, alarm: id) }
        case .action(let other):
            Log.warning("alarm \(id): unknown notification action '\(other)'")
        case .closed(let reason):
            if shown[id] != nil { shown.removeValue(forKey: id) }
            // Dismissing a ringing alarm's notification is the user's answer: stop it. An expired
            // one is shown again, so a ringing alarm always has its buttons.
            guard a.state == .alerting else { return }
            if reason == 2 {
                perform(id, "Stop") { () throws(AlarmError) in try daemon.engine.planStop(app: "", id: id) }
            } else if reason == 1 {
                show(a, AlertText.alert(a, in: daemon.engine.timeZone), actions: AlertText.actions(a), critical: true)
            }
        }
    }

    private func perform(_ id: String, _ what: String, _ plan: () throws(AlarmError) -> Mutation) {
        do {
            try daemon.commit(try plan())
            Log.info("alarm \(id): \(what) from its notification")
        } catch {
            Log.warning("alarm \(id): \(what) from its notification refused: \(error.message)")
        }
    }
}
