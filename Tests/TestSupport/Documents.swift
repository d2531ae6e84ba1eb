// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation

/// The documents a reader is sent to, in the order the example tests read them: the README, then
/// docs/*.md by name (a block that uses the walk-through's `$M` must come after it in this order).
/// Shared by the checks of the docs (ProjectChecks) and the daemon's tests that run their examples.
public func readerDocuments() throws -> [(path: String, text: String)] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: Products.sourceRoot + "/docs")
        .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    return try (["README.md"] + docs).map { ($0, try String(contentsOfFile: Products.sourceRoot + "/" + $0, encoding: .utf8)) }
}
