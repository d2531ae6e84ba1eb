// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// What went wrong, as a person (and an exit code) needs to know it.
///
/// Sorts the `BusError` of any ``AlarmManagerProxy`` call by what the person can do about it:
/// start alarmd, allow the app, look for the alarm, or read the error's message. alarmctl's exit
/// codes follow it.
public enum ClientFailure: Equatable, Sendable {
    /// No bus, or alarmd is not running and could not be started.
    ///
    /// Also a call that got no reply in time.
    case notRunning
    /// The caller's app may not do this (`org.alarmd.Error.NotAuthorized`): the user has not
    /// allowed it, or the call is for the user's own tools only.
    case notAuthorized
    /// No alarm with that id that the caller may see (`org.alarmd.Error.NotFound`).
    case notFound
    /// alarmd refused the call (bad state, bad argument, limits).
    ///
    /// Every other error; its message says why.
    case refused

    /// Sorts `error` by its name.
    ///
    /// - Parameter error: What a call threw.
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
