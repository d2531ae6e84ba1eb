// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// Client of feedbackd (`org.sigxcpu.Feedback` on the session bus): a phone's haptics, LED and
/// event sounds, with a profile (full, quiet, silent) that the user switches. Raw D-Bus, as feedbackd's
/// own libfeedback speaks it: no library, no dependency, and nothing at all where feedbackd is absent.
final class Feedback {
    static let name = "org.sigxcpu.Feedback"
    static let path = "/org/sigxcpu/Feedback"
    /// Errors that say "no feedbackd here".
    static let absent: Set<String> = ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                                      "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownObject",
                                      "org.freedesktop.DBus.Error.UnknownInterface"]

    private let bus: Bus
    /// feedback id → what to do when it ends.
    private var running: [UInt32: (PhoneFeedback.EndReason) -> Void] = [:]
    /// `FeedbackEnded` for ids no reply has named yet, newest last: feedbackd may send the end of a
    /// feedback it cannot play before the reply that names it. Others' ends pass through here too
    /// (the signal is broadcast), hence the bound.
    private var unclaimed: [(UInt32, PhoneFeedback.EndReason)] = []

    init(bus: Bus) throws(BusError) {
        self.bus = bus
        try bus.addMatch("type='signal',interface='\(Feedback.name)',path='\(Feedback.path)',member='FeedbackEnded'") { [unowned self] m in
            guard let args = try? m.readAll(), args.count == 2, case .uint32(let id) = args[0], case .uint32(let code) = args[1] else { return }
            self.ended(id, PhoneFeedback.EndReason(code))
        }
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Feedback.name)'") { [unowned self] _ in
            // feedbackd restarted or left: what it ran went with it (it ends nothing it no longer has).
            let gone = self.running
            self.running.removeAll()
            self.unclaimed.removeAll()
            for (_, f) in gone { f(.ended) }
        }
    }

    /// Starts `event` for alarmd's app id; `started` gets its id, or the error (`absent` when there is
    /// no feedbackd); `ended` runs once when feedbackd ends it by itself or as asked.
    func trigger(event: String, hints: [(String, Value)], started: @escaping (Result<UInt32, BusError>) -> Void,
                 ended: @escaping (PhoneFeedback.EndReason) -> Void) {
        let args: [Value] = [.string(PhoneFeedback.appId), .string(event), .vardict(hints), .int32(PhoneFeedback.loopUntilEnded)]
        do {
            try bus.callAsync(Feedback.name, Feedback.path, Feedback.name, "TriggerFeedback", args, timeoutUSec: 10_000_000) { [unowned self] reply in
                if let error = reply.error { return started(.failure(error)) }
                guard case .uint32(let id)? = try? reply.read() else {
                    return started(.failure(BusError("org.freedesktop.DBus.Error.InvalidArgs", "TriggerFeedback returned no id")))
                }
                if let i = self.unclaimed.firstIndex(where: { $0.0 == id }) {
                    let reason = self.unclaimed.remove(at: i).1
                    started(.success(id))
                    ended(reason)
                } else {
                    // Before `started`, which may end it at once (the alarm stopped while the call was out).
                    self.running[id] = ended
                    started(.success(id))
                }
            }
        } catch {
            started(.failure(error))
        }
    }

    /// Ends feedback `id` (its `ended` is not called: the caller asked).
    func end(_ id: UInt32) {
        guard running.removeValue(forKey: id) != nil else { return }
        do {
            try bus.callAsync(Feedback.name, Feedback.path, Feedback.name, "EndFeedback", [.uint32(id)]) { reply in
                if let e = reply.error { Log.warning("feedbackd: feedback \(id) not ended (\(e.name))") }
            }
        } catch {
            Log.warning("feedbackd: feedback \(id) not ended: \(error)")
        }
    }

    private func ended(_ id: UInt32, _ reason: PhoneFeedback.EndReason) {
        if let f = running.removeValue(forKey: id) { return f(reason) }
        unclaimed.append((id, reason))
        if unclaimed.count > 32 { unclaimed.removeFirst() }
    }
}
