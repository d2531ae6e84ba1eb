// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SystemFiles

/// Finds an app's desktop entry in the XDG data directories, to show its name as the user knows it.
enum AppDirectory {
    /// The XDG data directories, then the exports of the user's and the system's Flatpak installations
    /// where flatpak puts them: `$FLATPAK_USER_DIR`, else `$XDG_DATA_HOME/flatpak` (so not always
    /// `~/.local/share/flatpak`), and `$FLATPAK_SYSTEM_DIR`, else `/var/lib/flatpak`. A session started
    /// with flatpak's profile script or environment generator has them in `XDG_DATA_DIRS` already; a
    /// service started without them must still name Flatpak apps.
    static func dataDirectories(environment env: [String: String] = processEnvironment(), home: String = homeDirectory()) -> [String] {
        func absolute(_ name: String) -> String? { env[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let dataHome = absolute("XDG_DATA_HOME") ?? home + "/.local/share"
        let dataDirs = (env["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        let flatpak = [absolute("FLATPAK_USER_DIR") ?? dataHome + "/flatpak", absolute("FLATPAK_SYSTEM_DIR") ?? "/var/lib/flatpak"]
        return [dataHome] + dataDirs + flatpak.map { $0 + "/exports/share" }
    }

    /// The user's languages for `Name[xx]`, most specific first.
    static func languages() -> [String] {
        let env = processEnvironment()
        guard let lang = env["LC_ALL"] ?? env["LC_MESSAGES"] ?? env["LANG"], !lang.isEmpty, lang != "C", lang != "POSIX" else { return [] }
        let base = String(lang.split(separator: ".").first ?? "")
        let short = String(base.split(separator: "_").first ?? "")
        return base == short ? [base] : [base, short]
    }

    /// An app as the user knows it: its entry's name and icon, and the entry's id for the
    /// notification spec's `desktop-entry` hint (nil when the app has no entry).
    struct Description: Equatable {
        var name: String
        var icon: String
        var desktopEntry: String?
    }

    /// `app` as its desktop entry describes it, or the app id itself when no entry exists.
    static func describe(_ app: String) -> Description {
        var candidates = ["applications/\(app).desktop"]
        var dirs = dataDirectories()
        if app.hasPrefix("snap.") {
            // snapd exports `<snap>_<app>.desktop` into a directory of its own.
            let snap = app.dropFirst(5)
            candidates.append("applications/\(snap)_\(snap).desktop")
            dirs.append("/var/lib/snapd/desktop")
        }
        let langs = languages()
        for dir in dirs {
            for c in candidates {
                guard let text = readTextFile(dir + "/" + c),
                      let name = DesktopEntry.displayName(text, languages: langs) else { continue }
                let entry = String(c.dropFirst("applications/".count).dropLast(".desktop".count))
                return Description(name: name, icon: KeyFile(text)["Desktop Entry", "Icon"] ?? "", desktopEntry: entry)
            }
        }
        return Description(name: app, icon: "", desktopEntry: nil)
    }
}
