// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import SDBus

/// A failure and its exit code: 1 refused, 2 usage, 3 not running, 4 not authorized, 5 no such
/// alarm, 6 ambiguous prefix. The message names the problem and, where there is one, the fix.
struct CLIError: Error {
    let code: Int32
    let message: String

    static func usage(_ message: String, command: String? = nil) -> CLIError {
        // Translators: after a usage error; %s is an alarmctl command ("alarm").
        let hint = command.map { say(N_("Try 'alarmctl %s --help'.", $0)) } ?? say(N_("Try 'alarmctl --help'."))
        return CLIError(code: 2, message: message + "\n" + hint)
    }

    static func noBus(_ error: BusError) -> CLIError {
        // Translators: %s is the bus library's reason, in English.
        CLIError(code: 3, message: say(N_("cannot connect to the session bus (%s).\nIs this a desktop session? Set DBUS_SESSION_BUS_ADDRESS, or use --address ADDRESS for a private bus.", error.message)))
    }

    static var notRunningHint: String {
        say(N_("Start it with 'systemctl --user start alarmd' (or run 'alarmd &'; from a source tree, 'make run')."))
    }

    /// `what` is what failed, in the user's words ("cannot list alarms").
    static func bus(_ error: BusError, doing what: String) -> CLIError {
        switch ClientFailure(error) {
        case .notRunning:
            // Translators: %s is the bus's reason, in English.
            return CLIError(code: 3, message: say(N_("alarmd is not running, and the bus could not start it (%s).", error.message)) + "\n" + notRunningHint)
        case .notAuthorized:
            // Translators: %1$s what failed ("cannot list alarms"), %2$s alarmd's reason (in English).
            return CLIError(code: 4, message: say(N_("%1$s: not authorized: %2$s\nThe user's own tools are allowed unless alarmd.conf sets 'shell = deny' under [authorization].", what, error.message)))
        case .notFound:
            // Translators: %1$s what failed ("cannot read 3f8f8e00"), %2$s alarmd's reason (in English).
            return CLIError(code: 5, message: say(N_("%1$s: %2$s\n'alarmctl list' shows the alarms you have.", what, error.message)))
        case .refused:
            return CLIError(code: 1, message: "\(what): \(error.message) (\(error.name))")
        }
    }
}
