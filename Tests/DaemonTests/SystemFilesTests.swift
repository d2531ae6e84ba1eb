// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import SystemFiles
import Testing
import TestSupport

/// The file helpers the shells use instead of Foundation's: paths, links, the environment, reading.
struct SystemFilesTests {
    let dir = TempDir("alarmd-systemfiles")

    @Test func parentDirectory() {
        let cases = ["/a/b": "/a", "/a/b/": "/a", "/a": "/", "/": "/", "b": "", "a/b": "a", "a/b//": "a",
                     "/usr/share/zoneinfo/Europe/Berlin": "/usr/share/zoneinfo/Europe"]
        for (path, parent) in cases { #expect(SystemFiles.parentDirectory(path) == parent, "\(path)") }
    }

    @Test func linksTheEnvironmentAndFiles() throws {
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link", withDestinationPath: "../somewhere/else")
        #expect(linkTarget(dir.path + "/link") == "../somewhere/else")
        #expect(linkTarget(dir.path) == nil, "a directory is no link")
        #expect(processEnvironment() == ProcessInfo.processInfo.environment)
        let bytes = (0..<70_000).map { (i: Int) in UInt8(truncatingIfNeeded: i &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path + "/f"))
        #expect(readFile(dir.path + "/f") == bytes)
        #expect(readFile(dir.path + "/f", limit: 100) == Array(bytes.prefix(100)))
        #expect(readFile(dir.path + "/missing") == nil)
        try Data().write(to: URL(fileURLWithPath: dir.path + "/empty"))
        #expect(readTextFile(dir.path + "/empty") == "")
    }

    /// The state directory as alarmd makes it: every missing level with mode 0700 whatever the umask,
    /// what exists left alone, and a file in the way a named error.
    @Test func makeDirectoriesAsTheStoreNeedsThem() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let deep = dir.path + "/a/b/c"
        try makeDirectories(deep, mode: 0o700)
        for p in [dir.path + "/a", dir.path + "/a/b", deep] {
            var st = stat()
            #expect(stat(p, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR && (st.st_mode & 0o777) == 0o700, "\(p)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path + "/a")
        try makeDirectories(deep, mode: 0o700)
        #expect(((try FileManager.default.attributesOfItem(atPath: dir.path + "/a"))[.posixPermissions] as? Int) == 0o755,
                "an existing directory keeps its mode")
        try Data().write(to: URL(fileURLWithPath: dir.path + "/file"))
        #expect(throws: FileError.self) { try makeDirectories(dir.path + "/file/x", mode: 0o700) }
        #expect(throws: FileError.self) { try makeDirectories(dir.path + "/file", mode: 0o700) }
    }

    @Test func entriesAndAccess() throws {
        for name in ["x", "y", ".hidden"] { try Data().write(to: URL(fileURLWithPath: dir.path + "/" + name)) }
        #expect(Set(directoryEntries(dir.path)) == Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)))
        #expect(directoryEntries(dir.path + "/missing").isEmpty)
        #expect(fileExists(dir.path + "/x") && fileExists(dir.path + "/x", readable: true) && !fileExists(dir.path + "/none"))
    }
}
