// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// sd-bus is stricter about strings than the D-Bus specification and dbus-daemon: it refuses
/// Unicode noncharacters (U+FDD0–U+FDEF and every U+xFFFE/U+xFFFF) and a string cannot hold NUL.
/// Text alarmd sends may come from elsewhere (desktop files, the notification server, a client's
/// earlier input), so what sd-bus would refuse is replaced rather than left to fail a signal or a reply.
public enum BusString {
    public static func isSendable(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v != 0 && !(0xFDD0...0xFDEF).contains(v) && (v & 0xFFFE) != 0xFFFE
    }

    /// `s` with every scalar sd-bus refuses replaced by U+FFFD.
    public static func sendable(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 && $0 != 0 }) { return s }
        guard !s.unicodeScalars.allSatisfy(isSendable) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars { out.append(isSendable(u) ? u : "\u{FFFD}") }
        return String(out)
    }
}
