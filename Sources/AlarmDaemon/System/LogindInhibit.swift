// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// `org.freedesktop.login1.Manager.Inhibit` on the system bus: `done` gets the inhibitor's fd (the
/// inhibitor lasts until it is closed), or why there is none.
func logindInhibit(_ system: Bus, what: String, why: String, mode: String,
                   _ done: @escaping (Result<Int32, BusError>) -> Void) {
    let args: [Value] = [.string(what), .string("alarmd"), .string(why), .string(mode)]
    do {
        try system.callAsync("org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "Inhibit",
                             args, timeoutUSec: 5_000_000) { reply in
            if let e = reply.error { return done(.failure(e)) }
            do throws(BusError) { done(.success(try reply.readUnixFD())) } catch { done(.failure(error)) }
        }
    } catch {
        done(.failure(error))
    }
}
