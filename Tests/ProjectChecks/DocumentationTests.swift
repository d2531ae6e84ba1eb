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

    static let marker = "<!-- doc-test: "

    /// The blocks of the README and docs/ that a test runs (or reads) verbatim, each marked by
    /// `<!-- doc-test: NAME …-->` on the line before its fence, and the test file that does it.
    static let verbatimBlocks = ["busctl-walkthrough": "ReadmeWalkthroughTests.swift", "countdown-activity": "ReadmeWalkthroughTests.swift",
                                 "examples": "ExampleClientTests.swift", "flatpak-manifest": "DocumentationTests.swift"]

    /// The fenced block after the marker `<!-- doc-test: NAME`, exactly as a reader copies it, from
    /// whichever document holds it; a name marked in two places is an error, not a choice.
    static func docBlock(_ name: String) throws -> String {
        var found: [(file: String, block: String)] = []
        for (file, text) in try readerDocuments() {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (at, line) in lines.enumerated() where line.hasPrefix(Self.marker + name + " ") || line == Self.marker + name + " -->" {
                guard at + 1 < lines.count, lines[at + 1].hasPrefix("```"),
                      let end = lines[(at + 2)...].firstIndex(where: { $0.hasPrefix("```") })
                else { throw TestFailure("\(file) has no fenced block after \(Self.marker)\(name)") }
                found.append((file, lines[(at + 2)..<end].joined(separator: "\n") + "\n"))
            }
        }
        guard found.count == 1, let block = found.first?.block else {
            throw TestFailure("\(Self.marker)\(name) marks \(found.count) blocks (\(found.map(\.file))), not one")
        }
        return block
    }

    /// Every marked block, in every document, is one a test runs, and is found as such.
    @Test func everyMarkedDocBlockIsRun() throws {
        var marked: [String] = []
        for (file, text) in try readerDocuments() {
            // The marker's old name would hide a block from this check.
            #expect(!text.contains("<!-- README-test:"), "\(file) still uses the old marker <!-- README-test:")
            marked += text.split(separator: "\n").filter { $0.hasPrefix(Self.marker) }
                .compactMap { $0.dropFirst(Self.marker.count).split(separator: " ").first.map(String.init) }
        }
        #expect(marked.sorted() == Self.verbatimBlocks.keys.sorted(), "marked: \(marked)")
        for (name, file) in Self.verbatimBlocks {
            #expect(try !Self.docBlock(name).isEmpty)
            let test = try String(contentsOfFile: Products.sourceRoot + "/Tests/ProjectChecks/" + file, encoding: .utf8)
            #expect(test.contains("docBlock(\"\(name)\")"), "\(file) does not run the block \(name)")
        }
    }

    /// The Flatpak manifest of docs/app-developers.md is JSON, as flatpak-builder reads it, and asks
    /// for alarmd's talk name and no file access (the sound goes by descriptor); its module installs
    /// the command it names and the sound the guide hands over.
    @Test func theFlatpakManifestParsesAndAsksForTheTalkNameOnly() throws {
        let block = try Self.docBlock("flatpak-manifest")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        #expect(manifest["app-id"] as? String == "org.example.TeaTimer")
        let finish = try #require(manifest["finish-args"] as? [String])
        #expect(finish.contains("--talk-name=org.alarmd.AlarmManager1"), "\(finish)")
        #expect(!finish.contains { $0.hasPrefix("--filesystem") }, "\(finish)")
        let command = try #require(manifest["command"] as? String)
        let build = (manifest["modules"] as? [[String: Any]] ?? []).flatMap { $0["build-commands"] as? [String] ?? [] }
        #expect(build.contains { $0.hasSuffix(" /app/bin/" + command) } && build.contains { $0.hasSuffix(" /app/share/tea-timer/ring.oga") },
                "\(build)")
    }

    /// The README is where a reader starts: it links every guide in docs/ and every manual page, so
    /// none is out of reach (the links themselves are checked below).
    @Test func theReadmeLinksEveryGuideAndManualPage() throws {
        let root = Products.sourceRoot
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let guides = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let pages = try FileManager.default.contentsOfDirectory(atPath: root + "/docs/man").map { "docs/man/" + $0 }
        #expect(pages.count >= 3 && guides.count >= 5)
        for target in guides + pages + ["NEWS.md"] {
            #expect(readme.contains("](\(target))") || readme.contains("](\(target)#"), "README.md does not link \(target)")
        }
    }

    @Test func everyRelativeLinkResolves() throws {
        let root = Products.sourceRoot
        let files = Self.markdownFiles()
        #expect(files.contains("README.md") && files.contains("docs/API.md"))
        // Inline links and images, `[text](target)`, and reference definitions, `[label]: target`.
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        let definition = try Regex(#"(?m)^ {0,3}\[[^\]]+\]:\s+(\S+)"#)
        var checked = 0, manPages = 0, otherFiles = 0
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            #expect(!text.contains("../shared"), "\(file) points outside the repository")
            let targets = text.matches(of: link).map { String($0.output[1].substring ?? "") }
                + text.matches(of: definition).map { String($0.output[1].substring ?? "") }
            for target in targets {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let dir = (file as NSString).deletingLastPathComponent
                let path = parts[0].isEmpty ? file : (dir.isEmpty ? parts[0] : dir + "/" + parts[0])
                let full = (root + "/" + path as NSString).standardizingPath
                #expect(full.hasPrefix(root), "\(file): \(target) leaves the repository")
                #expect(FileManager.default.fileExists(atPath: full), "\(file): \(target) does not exist")
                if parts.count == 2 {
                    // Only a Markdown file has headings to check an anchor against.
                    #expect(full.hasSuffix(".md"), "\(file): \(target) has an anchor into a file that is not Markdown")
                    if full.hasSuffix(".md"), let t = try? String(contentsOfFile: full, encoding: .utf8) {
                        #expect(Self.anchors(in: t).contains(parts[1]), "\(file): no heading for #\(parts[1]) in \(path)")
                    }
                }
                // What the README and the guides send readers to beyond Markdown: manual pages, sources, files.
                if file == "README.md" || file.hasPrefix("docs/") {
                    if path.contains("docs/man/") { manPages += 1 } else if !full.hasSuffix(".md") { otherFiles += 1 }
                }
                checked += 1
            }
        }
        #expect(checked > 5, "the links were found and checked (\(checked))")
        #expect(manPages >= 3 && otherFiles >= 5, "links to manual pages (\(manPages)) and other files (\(otherFiles)) were checked too")
    }
}
