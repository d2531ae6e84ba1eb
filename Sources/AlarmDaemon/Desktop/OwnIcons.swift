// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

/// alarmd's own icons as a notification server can find them. Installed, they are in the hicolor
/// theme and go by name; run from a checkout (`make run`, `--icons-dir`), no theme has them, so a
/// notification names the file instead, as the Desktop Notifications spec allows for `app_icon`.
struct OwnIcons {
    let directory: String?

    /// `name` (e.g. `alarmd-timer`) as a notification's icon: the name, or a `file://` URI of its SVG.
    func icon(_ name: String) -> String {
        guard let directory else { return name }
        let file = directory + "/hicolor/scalable/apps/" + name + ".svg"
        return access(file, R_OK) == 0 ? "file://" + file : name
    }
}
