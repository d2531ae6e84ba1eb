// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import SDBus

extension Message {
    /// Answers this call, kept for later (until durable, or until the user decided): an answer that
    /// cannot be sent (the caller has gone, the message would be too large) is logged, since nobody
    /// else will hear of it.
    func answer(_ send: (Message) throws(BusError) -> Void) {
        do {
            try send(self)
        } catch {
            Log.warning("reply to \(member ?? "?") from \(sender ?? "?") not sent: \(error)")
        }
    }
}
