// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Testing

/// The store of schema v2 that StoreMigrationTests migrates, read from Fixtures/v2-store.json (which
/// says what it holds and where it came from): rows the alarmd of schema v2 wrote, and the texts its
/// engine made of them (V2Probes). A file that is missing or does not parse fails every test reading it.
enum V2Fixture {
    private struct File: Decodable {
        struct Row: Decodable { let id, app, data: String }
        let now: UInt64
        let rows: [Row]
        let fingerprints: [String: [String]]
        let probeDigests: [String: [String]]
    }

    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/v2-store.json").path
    private static let file = Result { try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path))) }

    private static var contents: File? {
        do { return try file.get() } catch {
            Issue.record("\(path): \(error)")
            return nil
        }
    }

    static var now: UInt64 { contents?.now ?? 0 }

    /// (id, app_id, data) as in the `alarms` table.
    static var rows: [(id: String, app: String, json: String)] { contents?.rows.map { ($0.id, $0.app, $0.data) } ?? [] }

    /// Each alarm's `V2Probes.fingerprint` at `now` (the file holds its lines).
    static var fingerprints: [String: String] { contents?.fingerprints.mapValues { $0.joined(separator: "\n") } ?? [:] }

    /// The digests of `V2Probes.probes` at `now`, by alarm id (and "time"); hexadecimal in the file.
    static var probeDigests: [String: [UInt64]] { contents?.probeDigests.mapValues { $0.map { UInt64($0, radix: 16) ?? 0 } } ?? [:] }
}
