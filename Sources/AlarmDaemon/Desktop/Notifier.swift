// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// A desktop notification as `org.freedesktop.Notifications.Notify` takes it.
struct Notification {
    var appName = "alarmd"
    var replacesId: UInt32 = 0
    var icon = ""
    var summary: String
    var body = ""
    /// (key, label) pairs.
    var actions: [(String, String)] = []
    var hints: [(String, Value)] = []
    /// ms; -1 = the server's default, 0 = never expires.
    var expireTimeout: Int32 = -1
    /// A ringing alarm's alert: on Phosh it takes `PhoshAlert`'s hints (lock-screen buttons, no feedback of phosh's own).
    var ringingAlert = false

    /// The spec's urgency levels, the byte of the `urgency` hint.
    enum Urgency: UInt8 {
        case low = 0, normal = 1, critical = 2
    }

    /// The `urgency` hint.
    static func urgency(_ level: Urgency) -> (String, Value) { ("urgency", .byte(level.rawValue)) }
}

/// Client of the Desktop Notifications protocol (`org.freedesktop.Notifications`).
final class Notifier {
    enum Event {
        case action(String)
        /// The NotificationClosed reason (`AlertAnswer.CloseReason` names them).
        case closed(UInt32)
    }

    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    private let bus: Bus
    private var handlers: [UInt32: (Event) -> Void] = [:]

    /// Run when a notification server takes the name: a restart, or the first one after alarmd.
    private var serverAppeared: [() -> Void] = []
    /// Whether the server is Phosh's (`GetServerInformation`), asked before the first notification
    /// to each server; nil until it answered.
    private var phosh: Bool?
    private var waitingForServer: [(Bool) -> Void] = []

    init(bus: Bus) throws(BusError) {
        self.bus = bus
        for member in ["ActionInvoked", "NotificationClosed"] {
            try bus.addMatch("type='signal',interface='\(Notifier.name)',path='\(Notifier.path)',member='\(member)'") { [unowned self] m in
                self.dispatch(m)
            }
        }
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Notifier.name)'") { [unowned self] m in
            guard let args = try? m.readAll(), args.count == 3, case .string(let owner) = args[2], !owner.isEmpty else { return }
            // The old server's notifications went with it; their handlers would never fire again.
            self.handlers.removeAll()
            self.phosh = nil
            for f in self.serverAppeared { f() }
        }
    }

    /// `f` runs whenever a notification server takes the name: a restart, or the first one after alarmd.
    func whenServerAppears(_ f: @escaping () -> Void) {
        serverAppeared.append(f)
    }

    /// Shows `n`; `done` gets the id, or the error when no server took it. Later events of this
    /// notification go to `events` until it is closed.
    func notify(_ n: Notification, events: @escaping (Event) -> Void, done: @escaping (Result<UInt32, BusError>) -> Void) {
        guard n.ringingAlert else { return send(n, events: events, done: done) }
        whenServerKnown { [unowned self] phosh in
            var n = n
            if phosh { n.hints = PhoshAlert.hints(n.hints) }
            self.send(n, events: events, done: done)
        }
    }

    /// `f` gets whether the server is Phosh's, asking it once per server; no server is no Phosh.
    private func whenServerKnown(_ f: @escaping (Bool) -> Void) {
        if let phosh { return f(phosh) }
        waitingForServer.append(f)
        guard waitingForServer.count == 1 else { return }
        let answer: (Bool?) -> Void = { [unowned self] phosh in
            self.phosh = phosh
            let waiting = self.waitingForServer
            self.waitingForServer.removeAll()
            for w in waiting { w(phosh ?? false) }
        }
        do {
            try bus.callAsync(Notifier.name, Notifier.path, Notifier.name, "GetServerInformation", [], timeoutUSec: 5_000_000) { reply in
                guard reply.error == nil, let v = try? reply.readAll(), v.count >= 2, case .string(let name) = v[0], case .string(let vendor) = v[1] else {
                    return answer(nil)
                }
                answer(PhoshAlert.isPhosh(name: name, vendor: vendor))
            }
        } catch {
            answer(nil)
        }
    }

    private func send(_ n: Notification, events: @escaping (Event) -> Void, done: @escaping (Result<UInt32, BusError>) -> Void) {
        let args: [Value] = [
            .string(n.appName), .uint32(n.replacesId), .string(n.icon), .string(n.summary), .string(n.body),
            .strings(n.actions.flatMap { [$0.0, $0.1] }), .vardict(n.hints), .int32(n.expireTimeout),
        ]
        do {
            try bus.callAsync(Notifier.name, Notifier.path, Notifier.name, "Notify", args, timeoutUSec: 10_000_000) { [unowned self] reply in
                if let error = reply.error {
                    done(.failure(error))
                } else if case .uint32(let id)? = try? reply.read() {
                    self.handlers[id] = events
                    done(.success(id))
                } else {
                    done(.failure(BusError("org.freedesktop.DBus.Error.InvalidArgs", "Notify returned no id")))
                }
            }
        } catch {
            done(.failure(error))
        }
    }

    func close(_ id: UInt32) {
        guard handlers.removeValue(forKey: id) != nil else { return }
        do {
            try bus.callAsync(Notifier.name, Notifier.path, Notifier.name, "CloseNotification", [.uint32(id)]) { _ in }
        } catch {
            Log.warning("notification \(id) not closed: \(error)")
        }
    }

    private func dispatch(_ m: Message) {
        guard let args = try? m.readAll(), case .uint32(let id)? = args.first, let handler = handlers[id] else { return }
        switch (m.member, args.count > 1 ? args[1] : nil) {
        case ("ActionInvoked", .string(let key)?):
            handler(.action(key))
        case ("NotificationClosed", .uint32(let reason)?):
            handlers.removeValue(forKey: id)
            handler(.closed(reason))
        default:
            break
        }
    }
}

extension String {
    /// The body of a notification may be markup (the spec's `body-markup`): escape what would be read as markup.
    var markupEscaped: String {
        var s = ""
        for c in self {
            switch c {
            case "&": s += "&amp;"
            case "<": s += "&lt;"
            case ">": s += "&gt;"
            default: s.append(c)
            }
        }
        return s
    }
}
