// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import SDBus

/// Answers to calls kept for later (until durable, or until the user decided): an answer that
/// cannot be sent (the caller has gone, the message would be too large) is logged, since nobody
/// else will hear of it.
extension Message {
    func answer(_ values: [Value]) {
        do { try reply(values) } catch { notSent(error) }
    }

    func answer(_ error: BusError) {
        do { try replyError(error) } catch { notSent(error) }
    }

    func answer(building build: (Message) throws(BusError) -> Void) {
        do { try reply(building: build) } catch { notSent(error) }
    }

    private func notSent(_ error: BusError) {
        Log.warning("reply to \(member ?? "?") from \(sender ?? "?") not sent: \(error)")
    }
}
