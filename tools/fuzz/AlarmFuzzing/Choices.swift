// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Where a fuzzer's choices come from: the bytes libFuzzer mutates (`FuzzBytes`), or a seeded
/// generator (`RandomChoices`). The generators of hostile input are written once against this.
public protocol Choices {
    /// 0..<n.
    mutating func below(_ n: Int) -> Int
    mutating func uint64() -> UInt64
}

extension Choices {
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// True `n` times in 256.
    public mutating func chance(_ n: Int) -> Bool { below(256) < n }

    public mutating func int64() -> Int64 { Int64(bitPattern: uint64()) }
}

/// The fuzzer's input read as a stream of choices. Every byte string is a valid input: past the end
/// every choice is the first one, so a short input is a short run, never an error, and a mutation
/// of one byte changes one choice.
public struct FuzzBytes: Choices {
    private let bytes: [UInt8]
    private var at = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var atEnd: Bool { at >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }

    /// From one byte when n fits in one, from two otherwise.
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        if n <= 256 { return Int(byte()) % n }
        return (Int(byte()) << 8 | Int(byte())) % n
    }

    public mutating func uint64() -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<8 { v = v << 8 | UInt64(byte()) }
        return v
    }
}

/// Choices from a random number generator (seeded, for a run that can be replayed).
public struct RandomChoices<G: RandomNumberGenerator>: Choices {
    public var generator: G

    public init(_ generator: G) { self.generator = generator }

    public mutating func below(_ n: Int) -> Int { Int.random(in: 0..<n, using: &generator) }
    public mutating func uint64() -> UInt64 { generator.next() }
}
