// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// `sound_file` (an extension of the contract): an app's own sound, handed over as an open file in
/// the configuration of `Schedule` and `Update`, for the apps a path would mean nothing to (a sandbox's
/// files are not the host's). The shell reads the file, checks it (`SoundFileFormat`) and keeps a copy;
/// the engine never sees the key: the alarm's `sound` becomes the copy's path. Here is what needs no
/// system call: how the key combines with `sound`, and how copies are named.
public enum SoundFile {
    public static let key = "sound_file"

    /// Takes `sound_file` out of a configuration, its descriptor, or nil when it was not given.
    /// `clear` may name it as it may name `sound`: either clears the sound (and lets its copy go).
    public static func take(from config: inout [String: Value], clear: inout [String]) throws(AlarmError) -> UnixFD? {
        let clears = clear.contains(key) || clear.contains("sound")
        if clear.contains(key) {
            clear.removeAll { $0 == key }
            if !clear.contains("sound") { clear.append("sound") }
        }
        guard let value = config.removeValue(forKey: key) else { return nil }
        guard case .unixFD(let fd) = value else {
            throw .invalidArgument(key: key, reason: "must be a file descriptor ('h') of the sound file, opened for reading, got \(value.typeDescription)")
        }
        if config["sound"] != nil { throw .invalidArgument(key: key, reason: "cannot be given with sound: give one or the other") }
        if clears { throw .invalidArgument(key: key, reason: "is both changed and cleared") }
        return fd
    }

    /// `sound` may not name a copy alarmd keeps (`copies` is their directory): the copy goes with its
    /// alarm, and would leave another that named it silent. An alarm's own copy, given back as it reads
    /// (`current`, by a client that writes back what it read), changes nothing and is dropped.
    public static func checkSound(_ config: inout [String: Value], copies: String, current: String?) throws(AlarmError) {
        guard case .string(let sound)? = config["sound"], isCopy(sound, in: copies) else { return }
        guard sound == current else {
            throw .invalidArgument(key: "sound", reason: "names a copy alarmd keeps for another alarm; give the file itself with sound_file")
        }
        config.removeValue(forKey: "sound")
    }

    /// Whether `path` is in the directory of copies (or its directory of an app).
    public static func isCopy(_ path: String, in copies: String) -> Bool {
        path.hasPrefix(copies + "/")
    }

    /// The directory of an app's copies, below the directory of copies: its app id (a reverse-DNS
    /// name, never `.` or `..`, never holding `/`), or `user` for the user's own tools (no app id is
    /// one word).
    public static func directory(appId: String) -> String { appId.isEmpty ? "user" : appId }

    /// A copy's file name: the alarm's id, a tag of its own (so that a new copy never replaces one
    /// a stored alarm still names until the change is durable), the format's extension.
    public static func fileName(alarm id: String, tag: UInt64, format: SoundFileFormat) -> String {
        "\(id)-\(withUnsafeBytes(of: tag.bigEndian) { $0.hex }).\(format.fileExtension)"
    }

    /// The alarm a copy's file name belongs to; nil for a name alarmd does not give (a temporary file).
    public static func alarmId(ofFileName name: String) -> String? {
        let parts = name.split(separator: ".")
        guard parts.count == 2, ["wav", "ogg"].contains(parts[1]), parts[0].utf8.count == 36 + 1 + 16,
              let id = AlarmKey(String(parts[0].prefix(36))), id.string == parts[0].prefix(36),
              parts[0].dropFirst(36).first == "-", parts[0].dropFirst(37).allSatisfy(\.isHexDigit) else { return nil }
        return id.string
    }

    /// Why a file of `size` bytes is too large for a limit of `max`: in MiB or KiB, in bytes where
    /// those read the same.
    public static func tooLarge(_ size: Int, max: Int) -> String {
        let s = words(size), m = words(max)
        return s == m ? "is \(size) bytes; at most \(max) bytes (\(m))" : "is \(s); at most \(m)"
    }

    /// A size as a person reads it: `8 MiB`, `1.5 MiB`, `512 KiB`, `100 bytes`.
    public static func words(_ bytes: Int) -> String {
        func scaled(_ unit: Int, _ name: String) -> String {
            let tenths = (bytes * 10 + unit / 2) / unit
            return tenths % 10 == 0 ? "\(tenths / 10) \(name)" : "\(tenths / 10).\(tenths % 10) \(name)"
        }
        if bytes >= 1 << 20 { return scaled(1 << 20, "MiB") }
        if bytes >= 1 << 10 { return scaled(1 << 10, "KiB") }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
