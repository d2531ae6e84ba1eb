// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Gettext
import Glibc

/// Tells the desktop, once, that alarmd set its store aside: as soon as the name is owned when a
/// notification server is there, else when one appears — in this run or, since the store records
/// that it was shown, in a later one.
final class StoreRecoveryNotice {
    private let recovery: StoreRecovery
    private let notifier: Notifier
    private let store: Store
    private enum State { case waiting, sending, shown }
    private var state: State
    /// A server that appeared while a Notify was on its way (to no one) gets it once that fails.
    private var appearedWhileSending = false

    init(recovery: StoreRecovery, notifier: Notifier, store: Store) {
        self.recovery = recovery
        self.notifier = notifier
        self.store = store
        state = StoreRecovery.wasShown(in: store) ? .shown : .waiting
    }

    func start() {
        guard state == .waiting else { return }
        notifier.whenServerAppears { [weak self] in self?.serverAppeared() }
        send()
    }

    private func serverAppeared() {
        if state == .sending { appearedWhileSending = true } else { send() }
    }

    private func send() {
        guard state == .waiting else { return }
        state = .sending
        appearedWhileSending = false
        let text = recovery.damage.notification(kept: recovery.keptPath, Translation.current)
        let n = Notification(icon: "dialog-warning", summary: text.summary, body: text.body.markupEscaped,
                             hints: [Notification.urgency(.critical), ("category", .string(Contract.StoreRecovery.notificationCategory))],
                             expireTimeout: 0)
        notifier.notify(n, events: { _ in }, done: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                state = .shown
                do { try StoreRecovery.markShown(in: store, at: SystemClock.realtime) } catch {
                    Log.warning("store: that the recovery was shown is not saved (\(error)); it may be shown again")
                }
                Log.info("store: the recovery is shown on the desktop")
            case .failure(let e):
                state = .waiting
                Log.info("store: the recovery is not shown on the desktop yet (\(e.name)); it will be when a notification server appears")
                if appearedWhileSending { send() }
            }
        })
    }
}
