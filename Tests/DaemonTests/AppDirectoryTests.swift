// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmDaemon
import Testing

/// Where alarmd looks for the desktop entries that name apps: the XDG data directories, then the
/// exports of the Flatpak installations, found where flatpak itself puts them.
@Suite struct AppDirectoryTests {
    @Test func theUsersFlatpakExportsFollowXDGDataHome() {
        let dirs = AppDirectory.dataDirectories(environment: ["XDG_DATA_HOME": "/data/ada"], home: "/home/ada")
        #expect(dirs == ["/data/ada", "/usr/local/share", "/usr/share",
                         "/data/ada/flatpak/exports/share", "/var/lib/flatpak/exports/share"])
    }

    @Test func withoutXDGDataHomeTheyAreInTheHome() {
        let dirs = AppDirectory.dataDirectories(environment: ["XDG_DATA_DIRS": "/opt/share:relative"], home: "/home/ada")
        #expect(dirs == ["/home/ada/.local/share", "/opt/share",
                         "/home/ada/.local/share/flatpak/exports/share", "/var/lib/flatpak/exports/share"])
    }

    @Test func flatpaksOwnOverridesWin() {
        let dirs = AppDirectory.dataDirectories(environment: ["XDG_DATA_HOME": "/data/ada", "FLATPAK_USER_DIR": "/fp/user",
                                                              "FLATPAK_SYSTEM_DIR": "/fp/system"], home: "/home/ada")
        #expect(dirs.suffix(2) == ["/fp/user/exports/share", "/fp/system/exports/share"])
    }
}
