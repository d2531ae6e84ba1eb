// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient

/// What a command reads of its line, once `Invocation` has taken the global options out of it
/// wherever they stood.
struct Arguments {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    /// The `--json` mode the output is to be in; nil for text (`--json=off` too).
    var json: JSONMode?

    init(_ invocation: Invocation) {
        positional = invocation.positional
        values = invocation.values
        flags = invocation.flags
        json = invocation.jsonMode
    }
}
