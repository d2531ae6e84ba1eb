// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SystemFiles

/// AlarmCore's time zones, with the one a client shows times in.
extension Zone {
    /// The local zone from the system's zone database, as `date` finds it (`TZ`, else
    /// `/etc/localtime`), read once: what a client shows times in.
    ///
    /// A client that runs across a change of zone keeps showing times in the one it started with.
    public static let local: Zone = ZoneSource.local.initial().zone
}
