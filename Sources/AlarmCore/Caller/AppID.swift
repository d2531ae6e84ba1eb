// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// App ids are reverse-DNS names as used by Flatpak and desktop files (`org.gnome.Clocks`).
public enum AppID {
    public static func validate(_ s: String, key: String = "app_id") throws(AlarmError) -> String {
        // The length first: split into parts, 100 MiB of dots took alarmd 18 s and 4.5 GB.
        let parts = s.utf8.count <= 255 ? s.split(separator: ".", omittingEmptySubsequences: false) : []
        let ok = parts.count >= 2 && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return part.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }
        }
        guard ok else {
            throw .invalidArgument(key: key, reason: "'\(s.prefix(64))' is not an app id (reverse-DNS such as org.example.Clock)")
        }
        return s
    }
}
