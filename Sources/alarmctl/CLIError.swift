// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import SDBus

/// A failure and its exit code: 1 refused, 2 usage, 3 not running, 4 not authorized, 5 no such
/// alarm, 6 ambiguous prefix. The message names the problem and, where there is one, the fix.
struct CLIError: Error {
    let code: Int32
    let message: String

    static func usage(_ message: String, command: String? = nil) -> CLIError {
        CLIError(code: 2, message: message + "\n" + (command.map { "Try 'alarmctl \($0) --help'." } ?? "Try 'alarmctl --help'."))
    }

    static func noBus(_ error: BusError) -> CLIError {
        CLIError(code: 3, message: """
            cannot connect to the session bus (\(error.message)).
            Is this a desktop session? Set DBUS_SESSION_BUS_ADDRESS, or use --address ADDRESS for a private bus.
            """)
    }

    static let notRunningHint = """
        Start it with 'systemctl --user start alarmd' (or run 'alarmd &'; from a source tree, 'make run').
        """

    static func bus(_ error: BusError, doing what: String) -> CLIError {
        switch ClientFailure(error) {
        case .notRunning:
            return CLIError(code: 3, message: "alarmd is not running, and the bus could not start it (\(error.message)).\n" + notRunningHint)
        case .notAuthorized:
            return CLIError(code: 4, message: "\(what): not authorized: \(error.message)\nThe user's own tools are allowed unless alarmd.conf sets 'shell = deny' under [authorization].")
        case .notFound:
            return CLIError(code: 5, message: "\(what): \(error.message)\n'alarmctl list' shows the alarms you have.")
        case .refused:
            return CLIError(code: 1, message: "\(what): \(error.message) (\(error.name))")
        }
    }
}
