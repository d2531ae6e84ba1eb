// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Opens libpulse or libcanberra on first use (`alarmd_load_pulse`, `alarmd_load_canberra`): nil once it
/// is loaded, else why not, in dlerror's words. Each library from one thread, before any call into it:
/// libpulse from the loop (PulseClient), libcanberra from the sound thread (Ringer's SoundThread).
func loadSoundLibrary(_ load: (UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String? {
    var error = [CChar](repeating: 0, count: 512)
    guard error.withUnsafeMutableBufferPointer({ load($0.baseAddress, $0.count) }) < 0 else { return nil }
    return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
