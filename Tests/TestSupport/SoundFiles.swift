// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation

/// Sound files for `sound_file`: WAV files made here, byte by byte, and the Ogg Vorbis files the
/// project ships (`sounds/`, made by sox's encoder), so that no test needs an encoder.
public enum SoundFiles {
    /// A PCM WAV file: a beeping sine (880 Hz, audible at a sink's monitor), `seconds` long.
    /// `fmtSize`, `tag` and `extraChunks` craft the ones libcanberra refuses.
    public static func wav(seconds: Double = 1, rate: Int = 48_000, channels: Int = 1, bits: Int = 16,
                           tag: Int = 1, fmtSize: Int = 16, extraChunks: [UInt8] = [], dataBytes: [UInt8]? = nil) -> [UInt8] {
        let frames = Int(Double(rate) * seconds)
        var data: [UInt8] = []
        if let dataBytes {
            data = dataBytes
        } else {
            data.reserveCapacity(frames * channels * bits / 8)
            for i in 0..<frames {
                // 0.1 s on, 0.1 s off, so that a loop is heard as one.
                let on = (i * 10 / max(rate, 1)) % 2 == 0
                let s = on ? sin(2 * Double.pi * 880 * Double(i) / Double(rate)) * 0.5 : 0
                for _ in 0..<channels {
                    if bits == 8 {
                        data.append(UInt8(clamping: Int(128 + s * 127)))
                    } else {
                        data += le(Int(Int16(s * 32_767)) & 0xFFFF, bits / 8)
                    }
                }
            }
        }
        var fmt = le(tag, 2) + le(channels, 2) + le(rate, 4) + le(rate * channels * bits / 8, 4) + le(channels * bits / 8, 2) + le(bits, 2)
        fmt += [UInt8](repeating: 0, count: max(0, fmtSize - 16))
        let body = Array("WAVE".utf8) + Array("fmt ".utf8) + le(fmtSize, 4) + fmt + extraChunks
            + Array("data".utf8) + le(data.count, 4) + data
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }

    /// A RIFF chunk, for `wav(extraChunks:)`.
    public static func chunk(_ id: String, _ payload: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le(payload.count, 4) + payload
    }

    /// An Ogg Vorbis file alarmd ships: `beacon` (0.92 s) or `chime` (1.8 s).
    public static func shipped(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Products.sourceRoot + "/sounds/\(name).oga")))
    }

    /// Little-endian, `count` bytes.
    public static func le(_ v: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
    }

    /// The Ogg pages of a file: where each starts and ends.
    public static func oggPages(_ b: [UInt8]) -> [Range<Int>] {
        var pages: [Range<Int>] = [], at = 0
        while at + 27 <= b.count {
            let n = Int(b[at + 26])
            let end = at + 27 + n + b[at + 27..<at + 27 + n].reduce(0) { $0 + Int($1) }
            pages.append(at..<end)
            at = end
        }
        return pages
    }

    /// The page at `page` given a valid checksum again after a test changed it (Ogg's CRC-32:
    /// polynomial 0x04C11DB7, not reflected, from 0, over the page with its checksum field zeroed).
    public static func resealOggPage(_ b: inout [UInt8], _ page: Range<Int>) {
        for i in 22..<26 { b[page.lowerBound + i] = 0 }
        var crc: UInt32 = 0
        for i in page {
            crc ^= UInt32(b[i]) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        for (k, byte) in le(Int(crc), 4).enumerated() { b[page.lowerBound + 22 + k] = byte }
    }
}
