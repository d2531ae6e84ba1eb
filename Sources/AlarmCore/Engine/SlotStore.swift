// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The engine's alarms by slot, in chunks of 4,096. A single array doubles as it grows, and while
/// it copies, the old and the new buffer are both resident: past 65,536 alarms that is 10 MiB more
/// for a moment (152 bytes an alarm), the peak of a 100,000-alarm fill. Chunks are never copied as
/// the store grows, only the short list of them; a reader holding the store while the engine
/// changes one alarm costs a copy of that alarm's chunk (600 KiB), not of every alarm.
public struct SlotStore: RandomAccessCollection, MutableCollection, Equatable, Sendable {
    static let shift = 12
    static let chunk = 1 << shift

    private var chunks: [[Alarm]] = []
    public private(set) var count = 0

    public init() {}

    init(_ alarms: some Sequence<Alarm>) {
        for a in alarms { append(a) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Alarm {
        get {
            precondition(position >= 0 && position < count, "slot out of range")
            return chunks[position >> SlotStore.shift][position & (SlotStore.chunk - 1)]
        }
        set {
            precondition(position >= 0 && position < count, "slot out of range")
            chunks[position >> SlotStore.shift][position & (SlotStore.chunk - 1)] = newValue
        }
    }

    public mutating func append(_ alarm: Alarm) {
        if count & (SlotStore.chunk - 1) == 0 {
            var fresh: [Alarm] = []
            fresh.reserveCapacity(SlotStore.chunk)
            chunks.append(fresh)
        }
        chunks[chunks.count - 1].append(alarm)
        count += 1
    }

    @discardableResult
    mutating func removeLast() -> Alarm {
        precondition(count > 0, "no slot to remove")
        let a = chunks[chunks.count - 1].removeLast()
        if chunks[chunks.count - 1].isEmpty { chunks.removeLast() }
        count -= 1
        return a
    }

    public static func == (l: SlotStore, r: SlotStore) -> Bool { l.elementsEqual(r) }
}
