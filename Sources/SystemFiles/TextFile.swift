// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

/// A file's text, nil when it cannot be read. Not `String(contentsOfFile:)`: Foundation (Swift 6.3)
/// leaks a 4 KiB buffer each time that reads an empty file, and some files alarmd reads may be
/// empty on purpose (a sandbox's `.flatpak-info` that an app controls, a truncated config).
public func readTextFile(_ path: String) -> String? {
    readFile(path).map { String(decoding: $0, as: UTF8.self) }
}

/// The first `limit` bytes of a file, nil (with `errno` set) when it cannot be opened or read.
public func readFile(_ path: String, limit: Int = 16 << 20) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while bytes.count < limit {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, limit - bytes.count)) }
        if n < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[..<n])
    }
    return bytes
}
