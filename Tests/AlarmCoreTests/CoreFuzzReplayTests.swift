// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import AlarmFuzzing
import Foundation
import Testing
import TestSupport

/// The libFuzzer harness of `make fuzz-core`, run in the suite without libFuzzer: the committed corpus
/// and seeded random inputs go through the same decoder and checks, so neither can rot unnoticed.
@Suite struct CoreFuzzReplayTests {
    static let corpus = Products.sourceRoot + "/tools/fuzz/corpus"

    @Test func theCommittedCorpusPasses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
        #expect(files.count >= 10, "tools/fuzz/corpus holds the seed inputs")
        var stats = CoreFuzzStats()
        for name in files {
            let bytes = try #require(FileManager.default.contents(atPath: Self.corpus + "/" + name))
            if let failure = CoreFuzzer.run([UInt8](bytes), stats: &stats) {
                Issue.record("tools/fuzz/corpus/\(name): \(failure)")
            }
        }
        print("fuzz corpus: \(files.count) inputs, \(stats.steps) steps")
    }

    /// Random bytes are valid input too: every byte is a choice. Reached states and methods are
    /// checked, so that the decoder still gets past validation.
    @Test func seededRandomInputsPass() {
        var g = SeededRandom.seeded("seededRandomInputsPass")
        var stats = CoreFuzzStats()
        for i in 0..<80 {
            let bytes = (0..<Int.random(in: 64...2_500, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
            if let failure = CoreFuzzer.run(bytes, stats: &stats) {
                Issue.record("random input \(i) (base64 \(Data(bytes).base64EncodedString())): \(failure)")
                return
            }
        }
        print("random fuzz inputs: \(stats.steps) steps, \(stats.reloads) reloads, accepted \(stats.accepted.sorted { $0.key < $1.key }), removed \(stats.removals.sorted { $0.key.rawValue < $1.key.rawValue })")
        for method in ["Schedule", "Update", "Cancel", "Pause", "Resume", "Stop", "Countdown", "SetAuthorization"] {
            #expect(stats.accepted[method, default: 0] > 0 && stats.refused[method, default: 0] > 0, "\(method) both accepted and refused")
        }
        #expect(stats.states == Set(AlarmState.allCases), "every state reached: \(stats.states)")
        #expect(Set(stats.removals.keys).isSuperset(of: [.cancelled, .stopped, .timeout, .missed]), "\(stats.removals)")
    }
}
