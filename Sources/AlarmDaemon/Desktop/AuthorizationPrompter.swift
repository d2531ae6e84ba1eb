// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Gettext
import Glibc
import SDBus

/// AlarmKit's `requestAuthorization()`: asks the user once per app, through a desktop notification
/// with Allow / Don't Allow, and tells every waiting call when the user decides. Concurrent
/// requests from one app (`RequestAuthorization`, a first `Schedule`) share one prompt.
final class AuthorizationPrompter {
    /// Hears the app's state once the prompt ended and what it decided is durable.
    typealias Waiter = (AuthorizationState) -> Void

    private struct Prompt {
        var waiters: [Waiter] = []
        var notification: UInt32?
        var timer: TimerSource?
    }

    private let engine: EngineView
    private unowned let committer: Committer
    private let notifier: Notifier
    private let loop: EventLoop
    private let config: DaemonConfig
    private var prompts: [String: Prompt] = [:]
    /// The last usage description each app gave, for prompts started by `Schedule`.
    private var descriptions: [String: String] = [:]

    init(engine: EngineView, committer: Committer, notifier: Notifier, loop: EventLoop, config: DaemonConfig) {
        self.engine = engine
        self.committer = committer
        self.notifier = notifier
        self.loop = loop
        self.config = config
    }

    /// Asks about `app` unless a prompt is already open; `waiter` hears the answer. An app that already
    /// has `max_waiting_calls` waiting is refused another: what waits holds messages and open files
    /// for as long as the prompt shows, and the app is not trusted yet.
    func request(app: String, description: String?, waiter: Waiter?) throws(AlarmError) {
        if let waiting = prompts[app]?.waiters.count, waiter != nil, waiting >= config.maxWaitingCalls {
            throw .limitReached("app '\(app)' already has \(waiting) calls waiting for the user's answer; "
                                + "wait for it (max_waiting_calls in alarmd.conf)")
        }
        if let description { descriptions[app] = description }
        if prompts[app] != nil {
            if let waiter { prompts[app]!.waiters.append(waiter) }
            return
        }
        prompts[app] = Prompt(waiters: waiter.map { [$0] } ?? [])
        let described = AppDirectory.describe(app)
        let name = described.name, icon = described.icon
        let text = PromptText(app: name, id: app, why: descriptions[app], Translation.current)
        let n = Notification(icon: icon.isEmpty ? "preferences-system-time" : icon,
                             summary: text.summary, body: text.body.markupEscaped, actions: text.actions,
                             hints: [Notification.urgency(.normal), ("x-alarmd-app-id", .string(app))],
                             expireTimeout: 0)
        Log.info("asking the user whether '\(app)' may ring alarms")
        notifier.notify(n, events: { [unowned self] event in
            switch event {
            case .action("allow"): self.finish(app, decided: .authorized, by: "the user allowed it")
            case .action("deny"): self.finish(app, decided: .denied, by: "the user did not allow it")
            case .action: break
            case .closed(let reason): self.finish(app, decided: nil, by: "the prompt was closed (reason \(reason))")
            }
        }, done: { [unowned self] result in
            switch result {
            case .success(let id):
                guard self.prompts[app] != nil else { self.notifier.close(id); return }
                self.prompts[app]!.notification = id
                do {
                    let timer = try self.loop.makeTimer(clock: CLOCK_MONOTONIC) { [unowned self] in
                        self.finish(app, decided: nil, by: "no answer within \(self.config.promptTimeout) s")
                    }
                    timer.arm(at: SystemClock.monotonic + self.config.promptTimeout * usecPerSecond)
                    self.prompts[app]!.timer = timer
                } catch {
                    Log.error("authorization prompt for '\(app)': no timeout (\(error)); it stays open until answered")
                }
            case .failure(let error):
                // Nobody can be asked: the configured policy for unknown apps decides.
                let policy = self.config.policy.initialState(for: .app(app))
                self.finish(app, decided: policy == .notDetermined ? nil : policy,
                            by: "no notification server (\(error.name)); policy '\(self.config.policy.unknownApps.rawValue)'")
            }
        })
    }

    /// `SetAuthorization` decided while a prompt was open: the prompt is moot.
    func settled(_ app: String) {
        if prompts[app] != nil { finish(app, decided: nil, by: "decided with SetAuthorization") }
    }

    private func finish(_ app: String, decided: AuthorizationState?, by why: String) {
        guard let prompt = prompts.removeValue(forKey: app) else { return }
        prompt.timer?.arm(at: nil)
        if let id = prompt.notification { notifier.close(id) }
        // The waiters hear the answer once it is durable (or, if it could not be saved, the state that is).
        let answer = { [unowned self] in
            let state = engine.authorization(for: .app(app))
            Log.info("authorization prompt for '\(app)' ended: \(why); state \(state.rawValue)")
            for w in prompt.waiters { w(state) }
        }
        guard let decided, engine.authorization(for: .app(app)) != decided else { return answer() }
        committer.decide(.setAuthorization(app: app, state: decided), "authorization of '\(app)'") { _, _ in answer() }
    }
}
