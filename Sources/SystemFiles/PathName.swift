// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

/// The directory `path` is in, as `dirname(1)` has it but without `.` for a bare name:
/// "/a/b" → "/a", "/a/b/" → "/a", "/a" → "/", "b" → "".
public func parentDirectory(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
    guard let slash = p.lastIndex(of: "/") else { return "" }
    let parent = p[..<slash]
    return parent.isEmpty ? "/" : String(parent)
}

/// `$HOME`, or the home directory the password database gives the user alarmd runs as.
public func homeDirectory() -> String {
    if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) }
    if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
    return "/"
}

/// What the symbolic link `path` points to, as written in it; nil when it is no link.
public func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n >= 0 else { return nil }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// This process's environment, `NAME=value` by name (the first of a name wins, as `getenv` has it).
public func processEnvironment() -> [String: String] {
    var out: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let eq = text.firstIndex(of: "=") {
            let name = String(text[..<eq])
            if out[name] == nil { out[name] = String(text[text.index(after: eq)...]) }
        }
        entry += 1
    }
    return out
}

/// Why a file operation failed: the path and what the system said.
public struct FileError: Error, CustomStringConvertible {
    public let description: String
}

/// Creates `path` and the directories above it that are missing, each with `mode` exactly (not
/// narrowed by the umask); what exists already is left as it is.
public func makeDirectories(_ path: String, mode: mode_t) throws(FileError) {
    var partial = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        partial += "/" + component
        if mkdir(partial, mode) == 0 {
            _ = chmod(partial, mode)
        } else if errno != EEXIST {
            throw FileError(description: "cannot create the directory \(partial): \(String(cString: strerror(errno)))")
        }
    }
    var st = stat()
    guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
        throw FileError(description: "\(path) is not a directory")
    }
}

/// Whether `path` exists (`access(2)`, F_OK) or, with `readable`, may be read by this process.
public func fileExists(_ path: String, readable: Bool = false) -> Bool {
    access(path, readable ? R_OK : F_OK) == 0
}

/// The names in directory `path` (not `.` and `..`); empty when it cannot be read.
public func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
