// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CGio
import Dispatch
import Glibc
import SystemFiles

/// Puts alarmd on feedbackd's `allow-important` list where the user set that list themselves (the
/// package's schema override covers the default), as `AllowImportant.plan` decides, once per start.
///
/// On a thread of its own: GSettings' write waits for dconf's writer on the session bus, which the
/// event loop must never do. Only where feedbackd's schema is installed is libgio loaded at all.
enum FeedbackAllowList {
    static let schema = "org.sigxcpu.feedbackd"
    static let key = "allow-important"

    /// The file in alarmd's state directory that says alarmd added itself once (so that the user's
    /// taking it off again is respected).
    static func markerPath(stateDirectory: String) -> String { stateDirectory + "/feedbackd-allow-important-added" }

    static func start(stateDirectory: String, environment: [String: String] = processEnvironment()) {
        guard schemaInstalled(environment) else { return }
        let marker = markerPath(stateDirectory: stateDirectory)
        DispatchQueue.global(qos: .utility).async { run(marker: marker) }
    }

    /// Whether a schema file of feedbackd's is where GSettings looks: `GSETTINGS_SCHEMA_DIR`, and
    /// `glib-2.0/schemas` under each XDG data directory.
    static func schemaInstalled(_ env: [String: String]) -> Bool {
        let dirs = (env["GSETTINGS_SCHEMA_DIR"].map { $0.split(separator: ":").map(String.init) } ?? [])
            + AppDirectory.dataDirectories(environment: env).map { $0 + "/glib-2.0/schemas" }
        return dirs.contains { fileExists($0 + "/\(schema).gschema.xml") }
    }

    private static func run(marker: String) {
        var error = [CChar](repeating: 0, count: 512)
        guard error.withUnsafeMutableBufferPointer({ alarmd_load_gio($0.baseAddress, $0.count) }) >= 0 else {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Log.warning("feedbackd: cannot load libgio (\(why)); \(key) left as it is")
        }
        guard let source = sym_g_settings_schema_source_get_default!(),
              let found = sym_g_settings_schema_source_lookup!(source, schema, 1) else { return }
        defer { sym_g_settings_schema_unref!(found) }
        guard sym_g_settings_schema_has_key!(found, key) != 0, let settings = sym_g_settings_new_full!(found, nil, nil) else {
            return Log.warning("feedbackd: its schema has no \(key); alarms obey its profiles")
        }
        defer { sym_g_object_unref!(UnsafeMutableRawPointer(settings)) }
        let userValue = sym_g_settings_get_user_value!(settings, key)
        if let userValue { sym_g_variant_unref!(userValue) }
        let current = strings(sym_g_settings_get_strv!(settings, key))
        switch AllowImportant.plan(current: current, userSet: userValue != nil, addedBefore: fileExists(marker)) {
        case .listed:
            break
        case .add(let list):
            var pointers: [UnsafePointer<CChar>?] = list.map { UnsafePointer(strdup($0)) } + [nil]
            defer { for p in pointers { free(UnsafeMutableRawPointer(mutating: p)) } }
            guard sym_g_settings_set_strv!(settings, key, &pointers) != 0 else {
                return Log.warning("feedbackd: \(key) is not writable; alarms obey the silent profile")
            }
            sym_g_settings_sync!()
            let fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            if fd >= 0 { close(fd) }
            Log.info("feedbackd: added \(PhoneFeedback.appId) to the user's \(key) list (\(current.joined(separator: ", "))), "
                + "so that alarms ring through the silent profile")
        case .takenOff:
            Log.info("feedbackd: \(PhoneFeedback.appId) is not on \(key) (the user took it off): alarms obey the silent profile")
        case .missingFromDefault:
            Log.warning("feedbackd: the default \(key) list lacks \(PhoneFeedback.appId) (alarmd's schema override is not compiled in: "
                + "run glib-compile-schemas); alarms obey the silent profile")
        }
    }

    /// A GLib string vector as Swift strings; frees it.
    private static func strings(_ v: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        guard let v else { return [] }
        defer { sym_g_strfreev!(v) }
        var out: [String] = []
        var i = 0
        while let s = v[i] {
            out.append(String(cString: s))
            i += 1
        }
        return out
    }
}
