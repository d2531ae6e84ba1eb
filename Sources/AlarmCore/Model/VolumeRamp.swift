// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// `volume_ramp`: the sound grows from quiet to full, linearly in decibels (which the ear hears as
/// an even rise), so a sleeper is woken gently and still surely.
public enum VolumeRamp {
    /// Where a ramp starts: quiet but audible.
    static let startDecibels = -30.0

    /// The volume for a loop that starts `elapsed` seconds into the alert.
    public static func decibels(elapsed: Double, ramp: UInt32) -> Double {
        guard ramp > 0 else { return 0 }
        let f = min(1, max(0, elapsed / Double(ramp)))
        // + 0 turns the -0.0 of the last step into 0.
        return startDecibels * (1 - f) + 0
    }
}
