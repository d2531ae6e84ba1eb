// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Whether libcanberra can play a sound file's bytes, told from its headers alone, before alarmd keeps
/// a copy of it (`sound_file`). libcanberra decodes files itself (its read-sound-file.c, for the
/// PulseAudio and ALSA backends): a WAV file it opens with read-wav.c, anything that is not one with
/// libvorbisfile. The rules below are theirs, so that a file accepted here is one they open, plus what
/// a file must be to play whole: not cut short, whole frames, no damaged page, rates and channel counts
/// a sound server takes.
public enum SoundFileFormat: String, Equatable, Sendable {
    case wav
    case oggVorbis

    /// The extension of the copy alarmd keeps.
    public var fileExtension: String { self == .wav ? "wav" : "ogg" }

    /// Why a file is refused: the words after "sound_file: ".
    public struct Refusal: Error, Equatable, Sendable {
        public let reason: String
        init(_ detail: String) { reason = "is not a WAV (PCM) or Ogg Vorbis file libcanberra can play: \(detail)" }
    }

    /// read-wav.c refuses a RIFF size, and any chunk size it meets, of 64 MiB or more; read-vorbis.c a
    /// stream of more than 64 MiB of 16-bit samples (counted per channel).
    static let canberraLimit = 64 << 20
    /// PulseAudio's and PipeWire's ceilings (PA_CHANNELS_MAX, PA_RATE_MAX), and a floor below which
    /// no recording is sound.
    static let channels = 1...32
    static let rates = 1_000...384_000

    /// The format of `bytes` (a whole file) if libcanberra plays it, else why not.
    public static func check(_ bytes: [UInt8]) -> Result<SoundFileFormat, Refusal> {
        do throws(Refusal) {
            if bytes.isEmpty { throw Refusal("it is empty") }
            if bytes.starts(with: Array("RIFF".utf8)) {
                try checkWAV(bytes)
                return .success(.wav)
            }
            if bytes.starts(with: Array("OggS".utf8)) {
                try checkOggVorbis(bytes)
                return .success(.oggVorbis)
            }
            throw Refusal("it starts with neither RIFF nor OggS")
        } catch {
            return .failure(error)
        }
    }

    // MARK: WAV

    private static func checkWAV(_ b: [UInt8]) throws(Refusal) {
        guard b.count >= 12, b[8..<12].elementsEqual("WAVE".utf8) else { throw Refusal("a RIFF file that is not WAVE") }
        let riffSize = le32(b, 4)
        guard riffSize > 0, riffSize < canberraLimit else { throw Refusal("a WAV file whose RIFF size field says \(riffSize) bytes") }
        var at = 12
        let fmt = try chunk("fmt ", in: b, from: &at)
        // read-wav.c reads the 16-byte PCMWAVEFORMAT only: not the 18-byte WAVEFORMATEX nor
        // WAVE_FORMAT_EXTENSIBLE (40), which the wider sample formats need.
        guard fmt.size == 16 else { throw Refusal("a WAV file whose fmt chunk is \(fmt.size) bytes, not the 16 of plain PCM") }
        guard fmt.start + 16 <= b.count else { throw Refusal("a WAV file cut short in its fmt chunk") }
        let tag = le16(b, fmt.start), channels = le16(b, fmt.start + 2), rate = le32(b, fmt.start + 4)
        let bits = le16(b, fmt.start + 14)
        guard tag == 1 else { throw Refusal("a WAV file in format \(tag), not PCM (1)") }
        guard Self.channels.contains(channels) else { throw Refusal("a WAV file of \(channels) channels (1 to 32 play)") }
        guard rates.contains(rate) else { throw Refusal("a WAV file at \(rate) Hz (1000 to 384000 Hz play)") }
        guard bits == 8 || bits == 16 else { throw Refusal("a WAV file of \(bits)-bit samples (libcanberra plays 8 and 16)") }
        at = fmt.start + 16
        let data = try chunk("data", in: b, from: &at)
        let frame = channels * bits / 8
        guard data.size % frame == 0 else {
            throw Refusal("a WAV file whose data chunk (\(data.size) bytes) is not whole frames of \(frame) bytes")
        }
        guard data.start + data.size <= b.count else {
            throw Refusal("a WAV file cut short: its data chunk claims \(data.size) bytes, \(b.count - data.start) follow")
        }
    }

    /// Walks chunks as read-wav.c does: one after another from `at`, each exactly its size long (no pad
    /// byte after an odd one: it does not skip one either), every size from 1 byte to under 64 MiB.
    private static func chunk(_ id: String, in b: [UInt8], from at: inout Int) throws(Refusal) -> (start: Int, size: Int) {
        while true {
            guard at + 8 <= b.count else { throw Refusal("a WAV file with no \(id == "data" ? "data" : "fmt") chunk, or cut short before it") }
            let size = le32(b, at + 4)
            let name = String(decoding: b[at..<at + 4].map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            guard size > 0, size < canberraLimit else { throw Refusal("a WAV file whose '\(name)' chunk says \(size) bytes") }
            if b[at..<at + 4].elementsEqual(id.utf8) {
                defer { at += 8 + size }
                return (at + 8, size)
            }
            at += 8 + size
        }
    }

    // MARK: Ogg Vorbis

    /// One page of the Ogg bitstream (RFC 3533): where its packets' bytes are and how they are laced.
    private struct Page {
        let start: Int
        let flags: UInt8
        let granule: Int64
        let serial: UInt32
        let lacing: ArraySlice<UInt8>
        let bodyStart: Int
        let end: Int

        var continued: Bool { flags & 0x01 != 0 }
        var first: Bool { flags & 0x02 != 0 }
        var last: Bool { flags & 0x04 != 0 }
    }

    private static func page(_ b: [UInt8], at start: Int) throws(Refusal) -> Page {
        guard start + 27 <= b.count, b[start..<start + 4].elementsEqual("OggS".utf8) else {
            throw Refusal("an Ogg file cut short or damaged at byte \(start)")
        }
        guard b[start + 4] == 0 else { throw Refusal("an Ogg file of stream version \(b[start + 4])") }
        let count = Int(b[start + 26])
        let bodyStart = start + 27 + count
        guard bodyStart <= b.count else { throw Refusal("an Ogg file cut short at byte \(start)") }
        let lacing = b[start + 27..<bodyStart]
        let end = bodyStart + lacing.reduce(0) { $0 + Int($1) }
        guard end <= b.count else { throw Refusal("an Ogg file cut short: its page at byte \(start) ends past the end of the file") }
        // libogg drops a page whose checksum is wrong: a hole in the sound, which libcanberra stops at.
        guard crc(b, start, end) == le32(b, start + 22) else { throw Refusal("an Ogg file whose page at byte \(start) is damaged (its checksum is wrong)") }
        return Page(start: start, flags: b[start + 5], granule: Int64(bitPattern: le64(b, start + 6)),
                    serial: UInt32(le32(b, start + 14)), lacing: lacing, bodyStart: bodyStart, end: end)
    }

    private static func checkOggVorbis(_ b: [UInt8]) throws(Refusal) {
        var pages: [Page] = []
        var at = 0
        while at < b.count {
            let p = try page(b, at: at)
            if let first = pages.first, p.serial != first.serial {
                throw Refusal("an Ogg file of more than one stream (libcanberra plays one Vorbis stream)")
            }
            pages.append(p)
            at = p.end
        }
        guard let first = pages.first, first.first, !first.continued else { throw Refusal("an Ogg file that does not begin a stream") }

        // The identification header alone on the first page (the Vorbis I specification, 4.2.1): one
        // packet of 30 bytes. The comment and setup headers follow, on as many pages as they take.
        guard first.lacing.elementsEqual([30]) else {
            throw Refusal("an Ogg file whose first page is not a Vorbis identification header alone")
        }
        try identification(Array(b[first.bodyStart..<first.end]))
        var packets: [[UInt8]] = [], partial: [UInt8] = []
        collect: for p in pages.dropFirst() {
            var offset = p.bodyStart
            for lace in p.lacing {
                partial += b[offset..<offset + Int(lace)]
                offset += Int(lace)
                if lace < 255 {
                    packets.append(partial)
                    partial = []
                    if packets.count == 2 { break collect }
                }
            }
        }
        guard packets.count == 2 else { throw Refusal("an Ogg Vorbis file cut short in its headers") }
        for (packet, type, name) in [(packets[0], UInt8(3), "comment"), (packets[1], UInt8(5), "setup")] {
            guard packet.count > 7, packet[0] == type, packet[1..<7].elementsEqual("vorbis".utf8) else {
                throw Refusal("an Ogg Vorbis file without its \(name) header")
            }
        }

        guard let last = pages.last, last.last else { throw Refusal("an Ogg file cut short: its last page does not end the stream") }
        guard last.granule > 0 else { throw Refusal("an Ogg Vorbis file without sound") }
        let limit = Int64(canberraLimit / 2)
        guard last.granule <= limit else {
            throw Refusal("an Ogg Vorbis file of \(last.granule) samples per channel (libcanberra plays at most \(limit))")
        }
    }

    private static func identification(_ p: [UInt8]) throws(Refusal) {
        guard p.count >= 30, p[0] == 1, p[1..<7].elementsEqual("vorbis".utf8) else {
            throw Refusal("an Ogg file that is not Vorbis (libcanberra plays no other Ogg codec)")
        }
        let version = le32(p, 7), channels = Int(p[11]), rate = le32(p, 12)
        let small = Int(p[28] & 0x0F), large = Int(p[28] >> 4)
        guard version == 0 else { throw Refusal("an Ogg Vorbis file of version \(version)") }
        guard Self.channels.contains(channels) else { throw Refusal("an Ogg Vorbis file of \(channels) channels (1 to 32 play)") }
        guard rates.contains(rate) else { throw Refusal("an Ogg Vorbis file at \(rate) Hz (1000 to 384000 Hz play)") }
        guard (6...13).contains(small), (small...13).contains(large), p[29] & 1 == 1 else {
            throw Refusal("an Ogg Vorbis file whose identification header is malformed")
        }
    }

    // MARK: bytes

    private static func le16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    private static func le32(_ b: [UInt8], _ at: Int) -> Int { le16(b, at) | le16(b, at + 2) << 16 }
    private static func le64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(le32(b, at)) | UInt64(le32(b, at + 4)) << 32 }

    /// The page's CRC-32 as Ogg computes it (polynomial 0x04C11DB7, not reflected, starting from 0),
    /// its own checksum field counted as zeros.
    private static func crc(_ b: [UInt8], _ start: Int, _ end: Int) -> Int {
        var crc: UInt32 = 0
        b.withUnsafeBufferPointer { p in
            for i in start..<end {
                let byte = i >= start + 22 && i < start + 26 ? 0 : p[i]
                crc = crc &<< 8 ^ crcTable[Int(UInt8(truncatingIfNeeded: crc &>> 24) ^ byte)]
            }
        }
        return Int(crc)
    }

    private static let crcTable: [UInt32] = (0..<256).map { i in
        var r = UInt32(i) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? r &<< 1 ^ 0x04C1_1DB7 : r &<< 1 }
        return r
    }
}
