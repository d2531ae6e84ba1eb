// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The graphical session's variables for a program alarmd starts into it (the Plasma lock-screen
/// alert), when alarmd's own environment lacks them.
///
/// alarmd is often older than the session: D-Bus activation or systemd's user manager can start it
/// before Plasma is up (an app's `Watch` at login, a unit started early), and a process's environment
/// is fixed when it starts. Plasma's startplasma then exports the session's variables
/// (`WAYLAND_DISPLAY` among them) to the systemd user manager (`SetEnvironment`) and to dbus-daemon's
/// activation environment, neither of which reaches a process already running. Of the two only the
/// manager can be read back: its `Environment` property (`as` of `NAME=value`) on
/// `/org/freedesktop/systemd1`; dbus-daemon has no call that returns its activation environment.
/// The pure part is here; LockScreenAlert asks the manager.
enum SessionEnvironment {
    /// The variable the alert cannot do without: only KWin on Wayland draws above its lock screen.
    static let display = "WAYLAND_DISPLAY"
    /// What is taken from the manager when alarmd's own environment lacks it: the display, and what
    /// else describes the same session (an X display for Xwayland, the desktop, the session's type,
    /// the runtime directory a relative `WAYLAND_DISPLAY` is found in, Qt's platform when the session
    /// sets one).
    static let taken = [display, "DISPLAY", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "XDG_RUNTIME_DIR", "QT_QPA_PLATFORM"]

    /// Whether `own` (alarmd's environment) names a Wayland display: then it is used as it is, and
    /// the manager is not asked.
    static func hasDisplay(_ own: [String: String]) -> Bool {
        !(own[display] ?? "").isEmpty
    }

    /// The manager's `Environment` as names and values: each entry split at its first `=`; an entry
    /// without one, or without a name, is not an assignment and is left out; of a name given twice
    /// the last wins, as systemd merges them.
    static func assignments(_ entries: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for entry in entries {
            guard let eq = entry.firstIndex(of: "="), eq != entry.startIndex else { continue }
            out[String(entry[..<eq])] = String(entry[entry.index(after: eq)...])
        }
        return out
    }

    /// What the child gets on top of alarmd's environment `own`, from the manager's `manager`: each
    /// of `taken` that `own` lacks (unset or empty) and `manager` sets (not empty); never a value that
    /// replaces one alarmd has. Nothing when the manager names no Wayland display either: without one
    /// the alert cannot show, and the rest alone would describe a session that is not there.
    static func additions(own: [String: String], manager: [String: String]) -> [String: String] {
        guard !hasDisplay(own), !(manager[display] ?? "").isEmpty else { return [:] }
        var out: [String: String] = [:]
        for name in taken where (own[name] ?? "").isEmpty {
            if let value = manager[name], !value.isEmpty { out[name] = value }
        }
        return out
    }
}
