// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import TestSupport
import Testing

/// feedbackd's `allow-important` list through real GSettings (GLib's keyfile backend, the schema of
/// feedbackd 0.8.2 compiled here with and without alarmd's override): the package's default names
/// alarmd; a list the user set gains alarmd's id once, keeping theirs; an id the user took off stays off.
@Suite(.serialized) struct FeedbackAllowListTests {
    /// feedbackd 0.8.2's key as `data/org.sigxcpu.feedbackd.gschema.xml` declares it (the only one alarmd reads).
    static let schema = """
        <schemalist>
          <schema id="org.sigxcpu.feedbackd" path="/org/sigxcpu/feedbackd/">
            <key name="allow-important" type="as">
              <default>['org.sigxcpu.FbdAlertSlider', 'org.gnome.clocks']</default>
            </key>
          </schema>
        </schemalist>
        """

    final class Settings {
        let dir = TempDir("alarmd-gsettings")
        var schemas: String { dir.path + "/schemas" }
        var config: String { dir.path + "/config" }
        var keyfile: String { config + "/glib-2.0/settings/keyfile" }
        var environment: [String: String] {
            ["GSETTINGS_SCHEMA_DIR": schemas, "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": config]
        }

        init(withOverride: Bool) throws {
            try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
            try FeedbackAllowListTests.schema.write(toFile: schemas + "/org.sigxcpu.feedbackd.gschema.xml", atomically: true, encoding: .utf8)
            if withOverride {
                try FileManager.default.copyItem(atPath: Products.sourceRoot + "/data/70_alarmd.gschema.override",
                                                 toPath: schemas + "/70_alarmd.gschema.override")
            }
            let r = try runCommand("/usr/bin/glib-compile-schemas", [schemas])
            guard r.status == 0 else { throw TestFailure("glib-compile-schemas: \(r.err)") }
        }

        /// The list as GSettings reads it (the user's value, else the default).
        func list() throws -> String {
            let r = try runCommand("/usr/bin/gsettings", ["get", "org.sigxcpu.feedbackd", "allow-important"], environment: environment)
            return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func userSets(_ list: String) throws {
            let r = try runCommand("/usr/bin/gsettings", ["set", "org.sigxcpu.feedbackd", "allow-important", list], environment: environment)
            guard r.status == 0 else { throw TestFailure("gsettings set: \(r.err)") }
        }
    }

    @Test func theUsersOwnListGainsAlarmdOnceAndKeepsTheirs() throws {
        let s = try Settings(withOverride: true)
        try s.userSets("['org.example.Mine']")
        let h = try Harness(environment: s.environment)
        #expect(h.daemon.logs("feedbackd: added org.alarmd.Alarmd to the user's allow-important list (org.example.Mine)"))
        #expect(try s.list() == "['org.example.Mine', 'org.alarmd.Alarmd']", "theirs kept, alarmd's appended")

        // Started again (the log goes on in the same file): listed, nothing to say.
        func count(_ text: String) -> Int { h.daemon.log.components(separatedBy: text).count - 1 }
        try h.restart(kill9: false)
        #expect(eventually { count("ready:") == 2 }, "positive control: it started again")
        try h.client.barrier()
        #expect(!eventually(timeout: 1) { count("allow-important") > 1 }, "already on the list: not a word")

        // The user takes it off: alarmd leaves it off, and says what that means.
        try s.userSets("['org.example.Mine']")
        try h.restart(kill9: false)
        #expect(h.daemon.logs("is not on allow-important (the user took it off)"))
        #expect(try s.list() == "['org.example.Mine']")
    }

    @Test func thePackagesDefaultListsAlarmdAndNothingIsWritten() throws {
        let s = try Settings(withOverride: true)
        let h = try Harness(environment: s.environment)
        #expect(h.daemon.logs("ready:"))
        #expect(try s.list().contains("'org.alarmd.Alarmd'") && s.list().contains("'org.gnome.clocks'"))
        #expect(!h.daemon.logs("allow-important", timeout: 1), "on the default list: not a word")
        #expect(!FileManager.default.fileExists(atPath: s.keyfile), "no user value written")
    }

    @Test func aDefaultWithoutAlarmdIsReportedNotFrozen() throws {
        let s = try Settings(withOverride: false)
        let h = try Harness(environment: s.environment)
        #expect(h.daemon.logs("the default allow-important list lacks org.alarmd.Alarmd"))
        #expect(try s.list() == "['org.sigxcpu.FbdAlertSlider', 'org.gnome.clocks']")
        #expect(!FileManager.default.fileExists(atPath: s.keyfile), "feedbackd's default is not copied into the user's value")
    }

    @Test func withoutFeedbackdsSchemaGioIsNotEvenLoaded() throws {
        let h = try Harness(environment: ["GSETTINGS_SCHEMA_DIR": TempDir("alarmd-no-schemas").path, "XDG_DATA_DIRS": "/nonexistent"])
        #expect(h.daemon.logs("ready:"))
        try h.client.barrier()
        let maps = readText("/proc/\(h.daemon.process.pid)/maps")
        #expect(!maps.contains("libgio-2.0"), "an alarmd without feedbackd maps no GIO")
    }
}
