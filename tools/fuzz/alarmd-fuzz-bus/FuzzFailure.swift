// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Why a run could not go on or did not pass.
struct FuzzFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
