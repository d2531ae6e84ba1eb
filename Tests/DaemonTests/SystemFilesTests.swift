import Foundation
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
}
