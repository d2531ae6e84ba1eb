// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// What went wrong, as a person (and an exit code) needs to know it.
public enum ClientFailure: Equatable, Sendable {
    /// No bus, or alarmd is not running and could not be started.
    case notRunning
    case notAuthorized
    case notFound
    /// alarmd refused the call (bad state, bad argument, limits).
    case refused

    public init(_ error: BusError) {
        switch error.name {
        case Contract.ErrorName.notAuthorized: self = .notAuthorized
        case Contract.ErrorName.notFound: self = .notFound
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
             "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Disconnected",
             "org.freedesktop.DBus.Error.Spawn.ChildExited", "org.freedesktop.DBus.Error.Spawn.ExecFailed",
             "org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.Timeout":
            self = .notRunning
        default: self = .refused
        }
    }
}
