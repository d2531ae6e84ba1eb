// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
import Testing

/// What the lock-screen alert gets of the session when alarmd started before it: the systemd user
/// manager's `Environment` (as startplasma filled it) merged under alarmd's own.
@Suite struct SessionEnvironmentTests {
    /// A systemd user manager's Environment after startplasma's `dbus-update-activation-environment --systemd`.
    let plasma = SessionEnvironment.assignments([
        "HOME=/home/ada", "LANG=de_DE.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin", "XDG_RUNTIME_DIR=/run/user/1000",
        "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus", "WAYLAND_DISPLAY=wayland-0", "DISPLAY=:1",
        "XDG_CURRENT_DESKTOP=KDE", "XDG_SESSION_TYPE=wayland", "QT_QPA_PLATFORM=wayland;xcb", "KDE_FULL_SESSION=true",
        "XDG_MENU_PREFIX=plasma-",
    ])

    @Test func activatedBeforePlasmaGetsTheSessionsDisplay() {
        // As D-Bus activation (or the user manager) started alarmd before Plasma: no display, no desktop.
        let own = ["HOME": "/home/ada", "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": "/run/user/1000",
                   "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]
        #expect(!SessionEnvironment.hasDisplay(own))
        #expect(SessionEnvironment.additions(own: own, manager: plasma) == [
            "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":1", "XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_TYPE": "wayland",
            "QT_QPA_PLATFORM": "wayland;xcb",
        ], "the session's variables alarmd lacks, nothing else of the manager's (LANG, PATH, KDE_FULL_SESSION)")
    }

    @Test func whatAlarmdHasIsNeverReplaced() {
        let own = ["XDG_RUNTIME_DIR": "/run/user/1000", "DISPLAY": ":0", "XDG_SESSION_TYPE": "tty", "XDG_CURRENT_DESKTOP": "",
                   "WAYLAND_DISPLAY": ""]
        // An empty value is as good as none: WAYLAND_DISPLAY and XDG_CURRENT_DESKTOP come from the manager.
        #expect(SessionEnvironment.additions(own: own, manager: plasma) == [
            "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "QT_QPA_PLATFORM": "wayland;xcb",
        ])
    }

    @Test func alarmdsOwnDisplayWins() {
        let own = ["WAYLAND_DISPLAY": "wayland-1"]
        #expect(SessionEnvironment.hasDisplay(own))
        #expect(SessionEnvironment.additions(own: own, manager: plasma).isEmpty)
    }

    @Test func noDisplayInTheManagerEitherAddsNothing() {
        // The manager before Plasma exported anything (or not a Wayland session): half a session is none.
        let early = SessionEnvironment.assignments(["HOME=/home/ada", "XDG_RUNTIME_DIR=/run/user/1000", "DISPLAY=:1",
                                                    "XDG_SESSION_TYPE=x11", "WAYLAND_DISPLAY="])
        #expect(SessionEnvironment.additions(own: ["HOME": "/home/ada"], manager: early).isEmpty)
        #expect(SessionEnvironment.additions(own: ["HOME": "/home/ada"], manager: [:]).isEmpty)
    }

    @Test func onlyTheTakenNamesAndTheirEmptyValuesAreLeftOut() {
        let manager = SessionEnvironment.assignments(["WAYLAND_DISPLAY=wayland-0", "DISPLAY=", "QT_QPA_PLATFORM=",
                                                      "XDG_RUNTIME_DIR=/run/user/1000", "WAYLAND_SOCKET=3"])
        #expect(SessionEnvironment.additions(own: [:], manager: manager) == [
            "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000",
        ], "an empty value of the manager's is not taken, nor a name outside the list")
    }

    @Test func theManagersListIsSplitAtTheFirstEqualsSign() {
        #expect(SessionEnvironment.assignments(["A=b=c", "EMPTY=", "no-assignment", "=value", "A2=1", "A2=2"])
                == ["A": "b=c", "EMPTY": "", "A2": "2"])
    }
}
