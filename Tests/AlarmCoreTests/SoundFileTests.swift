// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Testing
import TestSupport

/// What libcanberra can play, told from a file's bytes (`sound_file`): the files it opens, and every
/// kind of file it would not, or would play cut short, refused with a reason.
@Suite struct SoundFileFormatTests {
    typealias F = SoundFileFormat

    func refusal(_ bytes: [UInt8]) -> String? {
        if case .failure(let r) = F.check(bytes) { return r.reason }
        return nil
    }

    @Test func wavFilesLibcanberraPlays() {
        #expect(F.check(SoundFiles.wav()) == .success(.wav))
        #expect(F.check(SoundFiles.wav(seconds: 0.5, rate: 44_100, channels: 2, bits: 16)) == .success(.wav))
        #expect(F.check(SoundFiles.wav(seconds: 0.1, rate: 8_000, channels: 1, bits: 8)) == .success(.wav))
        // Chunks before the data (a LIST of tags, a fact) are skipped as libcanberra skips them.
        let tagged = SoundFiles.wav(extraChunks: SoundFiles.chunk("LIST", Array("INFOISFT".utf8) + [4, 0, 0, 0] + Array("sox\0".utf8)))
        #expect(F.check(tagged) == .success(.wav))
        #expect(F.wav.fileExtension == "wav" && F.oggVorbis.fileExtension == "ogg")
    }

    @Test func oggVorbisFilesLibcanberraPlays() throws {
        #expect(F.check(try SoundFiles.shipped("beacon")) == .success(.oggVorbis))
        #expect(F.check(try SoundFiles.shipped("chime")) == .success(.oggVorbis))
    }

    @Test func nothingElse() {
        #expect(refusal([]) == "is not a WAV (PCM) or Ogg Vorbis file libcanberra can play: it is empty")
        #expect(refusal(Array("garbage, not a sound".utf8))?.hasSuffix("it starts with neither RIFF nor OggS") == true)
        #expect(refusal(Array("ID3\u{3}\0\0\0\0\0\0".utf8)) != nil, "an MP3")
        #expect(refusal(Array("fLaC\0\0\0\"".utf8)) != nil, "a FLAC file")
        #expect(refusal(Array("RIFF\u{4}\0\0\0AVI ".utf8))?.contains("a RIFF file that is not WAVE") == true)
    }

    @Test func wavFilesLibcanberraRefuses() {
        let cases: [([UInt8], String)] = [
            (SoundFiles.wav(tag: 3), "in format 3, not PCM (1)"),
            (SoundFiles.wav(fmtSize: 18), "fmt chunk is 18 bytes"),
            (SoundFiles.wav(tag: 0xFFFE, fmtSize: 40), "fmt chunk is 40 bytes"),
            (SoundFiles.wav(bits: 24), "24-bit samples"),
            (SoundFiles.wav(bits: 32), "32-bit samples"),
            (SoundFiles.wav(seconds: 0.01, channels: 0, dataBytes: [0, 0]), "0 channels"),
            (SoundFiles.wav(seconds: 0.01, channels: 33), "33 channels"),
            (SoundFiles.wav(seconds: 0.01, rate: 0, dataBytes: [0, 0]), "at 0 Hz"),
            (SoundFiles.wav(seconds: 0.01, rate: 999), "at 999 Hz"),
            (SoundFiles.wav(seconds: 0.01, rate: 400_000), "at 400000 Hz"),
            (SoundFiles.wav(dataBytes: [1, 2, 3]), "data chunk (3 bytes) is not whole frames of 2 bytes"),
            (SoundFiles.wav(channels: 2, dataBytes: [1, 2, 3, 4, 5, 6]), "not whole frames of 4 bytes"),
            // libcanberra takes a chunk of no bytes, or of 64 MiB or more, for too big.
            (SoundFiles.wav(dataBytes: []), "'data' chunk says 0 bytes"),
            (SoundFiles.wav(extraChunks: SoundFiles.chunk("LIST", [])), "'LIST' chunk says 0 bytes"),
            (SoundFiles.wav(extraChunks: Array("LIST".utf8) + SoundFiles.le(64 << 20, 4)), "'LIST' chunk says 67108864 bytes"),
        ]
        for (bytes, reason) in cases {
            let r = refusal(bytes)
            #expect(r?.hasPrefix("is not a WAV (PCM) or Ogg Vorbis file libcanberra can play: a WAV file") == true, "\(reason): \(r ?? "accepted")")
            #expect(r?.contains(reason) == true, "\(reason): \(r ?? "accepted")")
        }
        // The RIFF size libcanberra insists on: more than 0, less than 64 MiB.
        var riff = SoundFiles.wav()
        riff.replaceSubrange(4..<8, with: [0, 0, 0, 0])
        #expect(refusal(riff)?.contains("RIFF size field says 0 bytes") == true)
        riff.replaceSubrange(4..<8, with: SoundFiles.le(64 << 20, 4))
        #expect(refusal(riff)?.contains("RIFF size field says 67108864 bytes") == true)
        // An odd chunk padded to even length, as RIFF has it: libcanberra does not skip the pad byte,
        // reads a chunk header one byte off, and fails; so does the check.
        let padded = SoundFiles.wav(extraChunks: SoundFiles.chunk("note", [1, 2, 3]) + [0])
        #expect(refusal(padded) != nil)
        // No data chunk at all.
        let noData = Array(SoundFiles.wav().prefix(36))
        #expect(refusal(noData)?.contains("no data chunk") == true, "\(refusal(noData) ?? "")")
    }

    /// A file cut anywhere is refused: in its header, or for the data it lacks.
    @Test func aWavFileCutShortAnywhereIsRefused() {
        let whole = SoundFiles.wav(seconds: 0.01)
        for n in 0..<whole.count {
            #expect(refusal(Array(whole.prefix(n))) != nil, "cut to \(n) of \(whole.count) bytes")
        }
        let cut = Array(whole.prefix(whole.count - 10))
        #expect(refusal(cut) == "is not a WAV (PCM) or Ogg Vorbis file libcanberra can play: a WAV file cut short: its data chunk claims \(whole.count - 44) bytes, \(whole.count - 54) follow")
    }

    @Test func oggFilesLibcanberraRefuses() throws {
        let beacon = try SoundFiles.shipped("beacon")
        let pages = SoundFiles.oggPages(beacon)
        try #require(pages.count >= 3 && pages.last?.upperBound == beacon.count)

        // Cut short: anywhere inside a page, or at a page boundary before the last page.
        for n in Swift.stride(from: 0, to: beacon.count, by: 97) + pages.dropLast().map(\.upperBound) {
            #expect(refusal(Array(beacon.prefix(n))) != nil, "cut to \(n) of \(beacon.count) bytes")
        }
        #expect(refusal(Array(beacon.prefix(pages[pages.count - 2].upperBound)))?.contains("its last page does not end the stream") == true)

        // A byte changed in the sound: libogg would drop the page, and the sound would stop there.
        var damaged = beacon
        damaged[pages[3].lowerBound + 40] ^= 0x55
        #expect(refusal(damaged)?.contains("is damaged (its checksum is wrong)") == true)

        // Trailing bytes after the last page.
        #expect(refusal(beacon + [1, 2, 3]) != nil)

        func edited(_ page: Int, _ change: (inout [UInt8], Int) -> Void) -> [UInt8] {
            var b = beacon
            change(&b, pages[page].lowerBound)
            SoundFiles.resealOggPage(&b, pages[page])
            return b
        }
        let id = pages[0].lowerBound + 28   // the identification header, after a page header of one segment
        let cases: [([UInt8], String)] = [
            (edited(0) { b, _ in b[id + 1] = UInt8(ascii: "V") }, "is not Vorbis"),
            (edited(0) { b, _ in b[id + 7] = 1 }, "of version 1"),
            (edited(0) { b, _ in b[id + 11] = 0 }, "of 0 channels"),
            (edited(0) { b, _ in b[id + 11] = 40 }, "of 40 channels"),
            (edited(0) { b, _ in b.replaceSubrange(id + 12..<id + 16, with: SoundFiles.le(500, 4)) }, "at 500 Hz"),
            (edited(0) { b, _ in b[id + 28] = 0xB5 }, "identification header is malformed"),   // blocksizes 32 and 2048
            (edited(0) { b, _ in b[id + 29] = 0 }, "identification header is malformed"),      // no framing bit
            (edited(0) { b, p in b[p + 5] = 0 }, "does not begin a stream"),
            (edited(0) { b, p in b[p + 4] = 1 }, "of stream version 1"),
            (edited(pages.count - 1) { b, p in b[p + 5] &= ~0x04 }, "its last page does not end the stream"),
            (edited(pages.count - 1) { b, p in b.replaceSubrange(p + 6..<p + 14, with: SoundFiles.le(40_000_000, 8)) },
             "of 40000000 samples per channel (libcanberra plays at most 33554432)"),
            (edited(pages.count - 1) { b, p in b.replaceSubrange(p + 14..<p + 18, with: [9, 9, 9, 9]) }, "more than one stream"),
            (edited(1) { b, _ in b[pages[1].lowerBound + 27 + Int(b[pages[1].lowerBound + 26])] = 4 }, "without its comment header"),
        ]
        for (bytes, reason) in cases {
            let r = refusal(bytes)
            #expect(r?.contains(reason) == true, "\(reason): \(r ?? "accepted")")
        }
        // An Ogg Opus file: another codec libcanberra does not decode.
        var opusHead = Array("OpusHead".utf8) + [1, 1, 0x38, 1, 0x80, 0xBB, 0, 0, 0, 0, 0]
        opusHead += [UInt8](repeating: 0, count: 30 - opusHead.count)
        var opus = Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 20) + [1, UInt8(opusHead.count)] + opusHead
        SoundFiles.resealOggPage(&opus, 0..<opus.count)
        #expect(refusal(opus)?.contains("not Vorbis") == true, "\(refusal(opus) ?? "accepted")")
    }

    /// Seeded random damage: a reason or an acceptance, never a crash.
    @Test func randomDamageIsAnAnswerNeverACrash() throws {
        var random = SeededRandom(seed: 37)
        for original in [SoundFiles.wav(seconds: 0.02), try SoundFiles.shipped("beacon")] {
            for _ in 0..<300 {
                var b = original
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    b[Int.random(in: 0..<b.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                _ = F.check(b)
                _ = F.check(Array(b.prefix(Int.random(in: 0...b.count, using: &random))))
            }
        }
    }
}

/// How `sound_file` combines with `sound` and `clear`, and how copies are named.
@Suite struct SoundFileKeyTests {
    let fd = UnixFD(owning: 99, release: { _ in })

    @Test func takenOutOfTheConfiguration() throws {
        var config: [String: Value] = ["title": .string("Tea"), "sound_file": .unixFD(fd)]
        var clear: [String] = []
        #expect(try SoundFile.take(from: &config, clear: &clear) === fd)
        #expect(config.keys.sorted() == ["title"] && clear.isEmpty)
        var none: [String: Value] = ["title": .string("Tea")]
        #expect(try SoundFile.take(from: &none, clear: &clear) == nil)
    }

    @Test func refusedCombinations() {
        func error(_ config: [String: Value], clear: [String] = []) -> AlarmError? {
            var c = config, cl = clear
            do { _ = try SoundFile.take(from: &c, clear: &cl) } catch { return error }
            return nil
        }
        #expect(error(["sound_file": .string("/tmp/x.wav")])
                == .invalidArgument(key: "sound_file", reason: "must be a file descriptor ('h') of the sound file, opened for reading, got 's'"))
        #expect(error(["sound_file": .int32(3)])?.message.contains("got 'i'") == true)
        #expect(error(["sound_file": .unixFD(fd), "sound": .string("beacon")])
                == .invalidArgument(key: "sound_file", reason: "cannot be given with sound: give one or the other"))
        #expect(error(["sound_file": .unixFD(fd)], clear: ["sound"]) == .invalidArgument(key: "sound_file", reason: "is both changed and cleared"))
        #expect(error(["sound_file": .unixFD(fd)], clear: ["sound_file"]) == .invalidArgument(key: "sound_file", reason: "is both changed and cleared"))
    }

    @Test func clearingTheFileClearsTheSound() throws {
        var config: [String: Value] = [:]
        var clear = ["sound_file", "title"]
        _ = try SoundFile.take(from: &config, clear: &clear)
        #expect(clear == ["title", "sound"])
        clear = ["sound", "sound_file"]
        _ = try SoundFile.take(from: &config, clear: &clear)
        #expect(clear == ["sound"])
    }

    @Test func soundMayNameOnlyItsOwnCopy() {
        let root = "/home/u/.local/state/alarmd/sounds"
        let mine = root + "/org.example.Clock/3f8f8e00-0000-4000-8000-000000000001-0011223344556677.ogg"
        var config: [String: Value] = ["sound": .string(mine)]
        #expect(throws: Never.self) { try SoundFile.checkSound(&config, copies: root, current: mine) }
        #expect(config["sound"] == nil, "given back as it reads: nothing to change")
        config = ["sound": .string(mine)]
        #expect(throws: AlarmError.invalidArgument(key: "sound", reason: "names a copy alarmd keeps for another alarm; give the file itself with sound_file")) {
            try SoundFile.checkSound(&config, copies: root, current: nil)
        }
        for other in ["/usr/share/sounds/x.oga", root + "-other/x.wav", "beacon", root] {
            config = ["sound": .string(other)]
            #expect(throws: Never.self) { try SoundFile.checkSound(&config, copies: root, current: nil) }
            #expect(config["sound"] == .string(other))
        }
    }

    @Test func copiesAreNamedAfterTheirAlarm() {
        let id = "3f8f8e00-0000-4000-8000-000000000001"
        let name = SoundFile.fileName(alarm: id, tag: 0x0011_2233_4455_6677, format: .oggVorbis)
        #expect(name == "\(id)-0011223344556677.ogg")
        #expect(SoundFile.alarmId(ofFileName: name) == id)
        #expect(SoundFile.alarmId(ofFileName: SoundFile.fileName(alarm: id, tag: .max, format: .wav)) == id)
        for other in [".\(name).tmp", "\(id).ogg", "\(id)-0011223344556677.mp3", "\(id)-00112233445566zz.ogg",
                      "3F8F8E00-0000-4000-8000-000000000001-0011223344556677.ogg", "x", ""] {
            #expect(SoundFile.alarmId(ofFileName: other) == nil, "\(other)")
        }
        #expect(SoundFile.directory(appId: "") == "user" && SoundFile.directory(appId: "org.example.Clock") == "org.example.Clock")
    }

    @Test func sizesInWords() {
        #expect(SoundFile.words(8 << 20) == "8 MiB" && SoundFile.words(12 << 20) == "12 MiB" && SoundFile.words(3 << 19) == "1.5 MiB")
        #expect(SoundFile.words(512 << 10) == "512 KiB" && SoundFile.words(100) == "100 bytes" && SoundFile.words(1) == "1 byte")
        #expect(SoundFile.tooLarge(12 << 20, max: 8 << 20) == "is 12 MiB; at most 8 MiB")
        #expect(SoundFile.tooLarge((8 << 20) + 1, max: 8 << 20) == "is 8388609 bytes; at most 8388608 bytes (8 MiB)")
    }
}
