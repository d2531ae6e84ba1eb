// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import TestSupport
import Testing

/// A clone of this repository alone must make sense: every relative link in its Markdown resolves,
/// anchors included, and nothing points outside it.
struct DocumentationTests {
    static func markdownFiles() -> [String] {
        let root = Products.sourceRoot
        let skip = [".build", ".build-asan", ".build-tsan", ".build-fuzz", ".git", "test-artifacts"]
        var out: [String] = []
        let e = FileManager.default.enumerator(atPath: root)
        while let p = e?.nextObject() as? String {
            if skip.contains(where: { p == $0 || p.hasPrefix($0 + "/") }) { e?.skipDescendants(); continue }
            if p.hasSuffix(".md") { out.append(p) }
        }
        return out.sorted()
    }

    /// GitHub's heading anchors: lowercase, punctuation dropped, spaces as dashes.
    static func anchors(in text: String) -> Set<String> {
        var out: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            out.insert(String(title.unicodeScalars.compactMap { u -> Character? in
                if u == " " { return "-" }
                if CharacterSet.alphanumerics.contains(u) || u == "-" || u == "_" { return Character(u) }
                return nil
            }))
        }
        return out
    }

    /// The README blocks that a test runs verbatim, each marked by `<!-- README-test: NAME …-->` on
    /// the line before its fence, and the test file that runs it.
    static let verbatimBlocks = ["busctl-walkthrough": "ReadmeWalkthroughTests.swift", "countdown-activity": "ReadmeWalkthroughTests.swift",
                                 "examples": "ExampleClientTests.swift"]

    /// The fenced block after the marker `<!-- README-test: NAME`, exactly as a reader copies it.
    static func readmeBlock(_ name: String) throws -> String {
        let readme = try String(contentsOfFile: Products.sourceRoot + "/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let marker = lines.firstIndex(where: { $0.hasPrefix("<!-- README-test: \(name) ") || $0 == "<!-- README-test: \(name) -->" }),
              marker + 1 < lines.count, lines[marker + 1].hasPrefix("```"),
              let end = lines[(marker + 2)...].firstIndex(where: { $0.hasPrefix("```") })
        else { throw TestFailure("README.md has no fenced block after <!-- README-test: \(name)") }
        return lines[(marker + 2)..<end].joined(separator: "\n") + "\n"
    }

    /// Every marked block is one a test runs, and is found as such.
    @Test func everyMarkedReadmeBlockIsRun() throws {
        let readme = try String(contentsOfFile: Products.sourceRoot + "/README.md", encoding: .utf8)
        let marked = readme.split(separator: "\n").filter { $0.hasPrefix("<!-- README-test: ") }
            .compactMap { $0.dropFirst("<!-- README-test: ".count).split(separator: " ").first.map(String.init) }
        #expect(Set(marked) == Set(Self.verbatimBlocks.keys), "marked: \(marked)")
        for (name, file) in Self.verbatimBlocks {
            #expect(try !Self.readmeBlock(name).isEmpty)
            let test = try String(contentsOfFile: Products.sourceRoot + "/Tests/IntegrationTests/" + file, encoding: .utf8)
            #expect(test.contains("readmeBlock(\"\(name)\")"), "\(file) does not run the README block \(name)")
        }
    }

    @Test func everyRelativeLinkResolves() throws {
        let root = Products.sourceRoot
        let files = Self.markdownFiles()
        #expect(files.contains("README.md") && files.contains("docs/API.md"))
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        var checked = 0
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            #expect(!text.contains("../shared"), "\(file) points outside the repository")
            for match in text.matches(of: link) {
                let target = String(match.output[1].substring ?? "")
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let dir = (file as NSString).deletingLastPathComponent
                let path = parts[0].isEmpty ? file : (dir.isEmpty ? parts[0] : dir + "/" + parts[0])
                let full = (root + "/" + path as NSString).standardizingPath
                #expect(full.hasPrefix(root), "\(file): \(target) leaves the repository")
                #expect(FileManager.default.fileExists(atPath: full), "\(file): \(target) does not exist")
                if parts.count == 2, full.hasSuffix(".md"), let t = try? String(contentsOfFile: full, encoding: .utf8) {
                    #expect(Self.anchors(in: t).contains(parts[1]), "\(file): no heading for #\(parts[1]) in \(path)")
                }
                checked += 1
            }
        }
        #expect(checked > 5, "the links were found and checked (\(checked))")
    }
}
