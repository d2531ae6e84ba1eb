// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmFuzzing
import Foundation
import Glibc
#if LIBFUZZER
import CLibFuzzer
#endif

// alarmd-fuzz-core: the engine under libFuzzer (`make fuzz-core`, built with -sanitize=fuzzer and
// -DLIBFUZZER), or, as built by `swift build`, a replay of inputs: `alarmd-fuzz-core FILE|DIR…`
// runs each file (a crash libFuzzer saved, the corpus) and prints what failed.

/// One input; a failed check is a crash, which is what libFuzzer looks for.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let failure = CoreFuzzer.run(bytes) { fatalError("alarmd-fuzz-core: \(failure)") }
    return 0
}

#if LIBFUZZER
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzOne($0, $1) })
#else
func inputs(_ path: String) -> [String] {
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return [] }
    guard isDir.boolValue else { return [path] }
    return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
}

let args = Array(CommandLine.arguments.dropFirst())
if args.isEmpty || args.contains("--help") || args.contains("-h") {
    print("usage: alarmd-fuzz-core FILE|DIR…  (replays fuzz inputs; `make fuzz-core` runs libFuzzer)")
    exit(args.isEmpty ? 2 : 0)
}
var failed = 0, ran = 0
for path in args.flatMap(inputs) {
    guard let data = FileManager.default.contents(atPath: path) else { continue }
    ran += 1
    if let failure = CoreFuzzer.run([UInt8](data)) {
        failed += 1
        print("FAIL \(path): \(failure)")
    }
}
print("alarmd-fuzz-core: \(ran) inputs, \(failed) failed")
exit(failed == 0 && ran > 0 ? 0 : 1)
#endif
