// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// An alarm nobody hears is no alarm: the sound server's sink governs what reaches the speakers, and
/// a sink muted or at 0 % silences alarmd's stream at 100 %. While anything rings alarmd unmutes the
/// sink and raises it to at least the alarm volume, then puts it back — unless the user touched it
/// meanwhile: their choice is the newer one. These are the decisions; the shell talks to libpulse.
public enum OutputOverride {
    /// Volumes are the sound server's raw per-channel units (PA_VOLUME_NORM = 65536 is 100 %), so that
    /// "put back exactly as it was" is exact and channel balance survives.
    public static let norm: UInt32 = 65_536

    /// A sink's mute and per-channel volume, as the server reports them.
    public struct SinkState: Equatable, Sendable {
        public var muted: Bool
        public var volumes: [UInt32]
        public init(muted: Bool, volumes: [UInt32]) {
            self.muted = muted
            self.volumes = volumes
        }
        /// The loudest channel, which is what the server shows as the sink's volume.
        public var volume: UInt32 { volumes.max() ?? 0 }
    }

    /// What alarmd changed on one sink: written durably before the change, forgotten after the restore.
    public struct Saved: Equatable, Sendable {
        public var sink: String
        var before: SinkState
        public var set: SinkState
        public init(sink: String, before: SinkState, set: SinkState) {
            self.sink = sink
            self.before = before
            self.set = set
        }
    }

    /// What to set at the end (or at the next start): only what is still alarmd's doing.
    public struct Restore: Equatable, Sendable {
        public var muted: Bool?
        public var volumes: [UInt32]?
        public var isEmpty: Bool { muted == nil && volumes == nil }
    }

    /// Which parts of the sink the user changed while alarmd held it.
    public struct Touched: Equatable, Sendable {
        public var mute = false
        public var volume = false
        public init(mute: Bool = false, volume: Bool = false) {
            self.mute = mute
            self.volume = volume
        }
        public func union(_ o: Touched) -> Touched { Touched(mute: mute || o.mute, volume: volume || o.volume) }
    }

    /// Servers store volumes in their own form (PipeWire: cubic floats) and hand back a neighbour of
    /// what was set; a person never moves a slider by less than this (0.5 %).
    static let tolerance: UInt32 = 328

    /// The raw volume of `percent` %.
    static func volume(percent: Int) -> UInt32 { UInt32((UInt64(norm) * UInt64(max(0, percent)) + 50) / 100) }

    /// What to set so that the alarm is heard, or nil when the sink already is unmuted and loud enough.
    /// Quieter sinks are scaled up as a whole, keeping their balance; a silent one gets `alarmVolume`
    /// on every channel.
    public static func target(observed: SinkState, alarmVolume percent: Int) -> SinkState? {
        let floor = volume(percent: percent)
        var t = observed
        t.muted = false
        let loudest = observed.volume
        if loudest < floor {
            t.volumes = loudest == 0
                ? observed.volumes.map { _ in floor }
                : observed.volumes.map { UInt32(min(UInt64(norm), (UInt64($0) * UInt64(floor) + UInt64(loudest) - 1) / UInt64(loudest))) }
            if t.volumes.isEmpty { t.volumes = [floor] }
        }
        return t == observed ? nil : t
    }

    static func same(_ a: [UInt32], _ b: [UInt32]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { max($0, $1) - min($0, $1) <= tolerance }
    }

    /// Whether `observed` shows a change that is not alarmd's: anything other than what it set.
    public static func touched(set: SinkState, observed: SinkState) -> Touched {
        Touched(mute: observed.muted != set.muted, volume: !same(observed.volumes, set.volumes))
    }

    /// The end of ringing, or a start that finds a saved override (alarmd died while it rang): what
    /// still holds alarmd's values goes back to the user's; what the user changed stays theirs.
    /// `touched`: what the user was seen changing while it rang (they may have changed it back).
    public static func restore(_ saved: Saved, now: SinkState, touched seen: Touched = Touched()) -> Restore {
        let t = touched(set: saved.set, observed: now).union(seen)
        var r = Restore()
        if !t.mute && now.muted != saved.before.muted { r.muted = saved.before.muted }
        if !t.volume && now.volumes != saved.before.volumes && now.volumes.count == saved.before.volumes.count {
            r.volumes = saved.before.volumes
        }
        return r
    }

    // MARK: the saved form

    /// One line: `sink\tbeforeMute\tbeforeVolumes\tsetMute\tsetVolumes`, volumes comma-separated.
    /// Sink names are the server's identifiers (no tabs in practice; one would make the record unreadable,
    /// which is then forgotten rather than misapplied).
    public static func encode(_ s: Saved) -> String {
        func state(_ x: SinkState) -> String { (x.muted ? "1" : "0") + "\t" + x.volumes.map(String.init).joined(separator: ",") }
        return s.sink + "\t" + state(s.before) + "\t" + state(s.set)
    }

    public static func decode(_ text: String) -> Saved? {
        let f = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard f.count == 5, !f[0].isEmpty else { return nil }
        func state(_ m: String, _ v: String) -> SinkState? {
            guard m == "0" || m == "1" else { return nil }
            let vols = v.split(separator: ",").compactMap { UInt32($0) }
            guard !vols.isEmpty, vols.count == v.split(separator: ",", omittingEmptySubsequences: false).count, vols.count <= 32 else { return nil }
            return SinkState(muted: m == "1", volumes: vols)
        }
        guard let before = state(f[1], f[2]), let set = state(f[3], f[4]) else { return nil }
        return Saved(sink: f[0], before: before, set: set)
    }
}
