// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CrashModel
import TestSupport

/// The seeded random stream of calls of one client in one round: each on an alarm it owns with no
/// call in flight, chosen from what the model says the alarm is. A ringing timer is answered first
/// (Stop, snooze or Cancel); otherwise the client schedules, updates (several keys at once),
/// cancels, pauses and resumes, and now and then makes a call the state machine must refuse.
struct Workload {
    private var rng: SeededRandom
    let owner: Int
    /// How many alarms of each class a client keeps at most.
    static let caps: [AlarmClass: Int] = [.far: 5, .long: 5, .short: 3]

    init(owner: Int, seed: UInt64) {
        self.owner = owner
        rng = SeededRandom(seed: seed)
    }

    mutating func next(_ model: CrashModel, number: Int64, now: USec) -> Call? {
        let mine = model.alarms(of: owner)
        let free = mine.filter(\.free)
        func op(_ id: String, _ a: Call.Action) -> Call { Call(number: number, id: id, owner: owner, action: a) }
        func pick(_ matching: (AlarmClass, Timing) -> Bool) -> String? {
            let c = free.filter { a in a.expected.map { matching(a.cls, $0.timing) } ?? false }
            return c.isEmpty ? nil : c[Int.random(in: 0..<c.count, using: &rng)].id
        }
        func isCounting(_ t: Timing) -> Bool { if case .counting = t { return true } else { return false } }
        func isPaused(_ t: Timing) -> Bool { if case .paused = t { return true } else { return false } }

        if let ringing = free.first(where: { if case .alerting? = $0.expected?.timing { return true } else { return false } }) {
            let r = Int.random(in: 0..<10, using: &rng)
            return op(ringing.id, r < 6 ? .stop : r < 9 ? .snooze : .cancel)
        }
        let count = Dictionary(grouping: mine.filter { $0.expected != nil || !$0.free }, by: \.cls).mapValues(\.count)
        let open = AlarmClass.allCases.filter { (count[$0] ?? 0) < Workload.caps[$0]! }
        // A few tries: the roll may ask for something no alarm allows now.
        for _ in 0..<4 {
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < 40 || free.isEmpty {
                if !open.isEmpty { return schedule(open[Int.random(in: 0..<open.count, using: &rng)], number: number, now: now) }
                continue
            }
            let n = number
            var chosen: Call?
            switch roll {
            case ..<55:
                chosen = pick { c, _ in c == .far }.map {
                    op($0, .retitle(title: "c\(owner) far #\(n)", subtitle: "s\(n)", fixedDate: farDate(now)))
                }
            case ..<63:
                chosen = pick { c, _ in c != .short }.map { op($0, .restatus(status: "st\(n)")) }
            case ..<71:
                chosen = pick { c, _ in c == .long }.map {
                    op($0, .rearm(title: "c\(owner) long #\(n)", duration: UInt64.random(in: 3_600...36_000, using: &rng)))
                }
            case ..<79:
                chosen = pick { c, t in c == .long && isCounting(t) }.map { op($0, .pause) }
            case ..<87:
                chosen = pick { c, t in c == .long && isPaused(t) }.map { op($0, .resume) }
            case ..<94:
                chosen = pick { c, _ in c != .short && (count[c] ?? 0) > 2 }.map { op($0, .cancel) }
            case ..<95:
                // Rarely (one roll in 5,000): a client makes hundreds of calls a second, and a short
                // timer should mostly live to ring.
                if Int.random(in: 0..<50, using: &rng) == 0 {
                    chosen = pick { c, t in c == .short && isCounting(t) }.map { op($0, .cancel) }
                }
            default:
                // Calls the state machine refuses (InvalidState): they must change nothing.
                let wrong: [(Call.Action, (AlarmClass, Timing) -> Bool)] = [
                    (.stop, { c, _ in c != .short }),
                    (.pause, { c, _ in c == .far }),
                    (.resume, { c, t in c == .long && isCounting(t) }),
                    (.snooze, { c, _ in c != .short }),
                ]
                let (action, matching) = wrong[Int.random(in: 0..<wrong.count, using: &rng)]
                chosen = pick(matching).map { op($0, action) }
            }
            if let chosen { return chosen }
        }
        return nil
    }

    /// A new alarm of class `cls`, with an id of the client's own.
    private mutating func schedule(_ cls: AlarmClass, number n: Int64, now: USec) -> Call {
        let id = AlarmKey(hi: rng.next() & ~0xF000 | 0x4000, lo: rng.next() & ~(0xC0 << 56) | (0x80 << 56)).string
        let action: Call.Action
        switch cls {
        case .far:
            action = .schedule(cls: .far, title: "c\(owner) far #\(n)", subtitle: "s\(n)", fixedDate: farDate(now), duration: nil,
                               postAlert: 300)
        case .long:
            action = .schedule(cls: .long, title: "c\(owner) long #\(n)", subtitle: "s\(n)", fixedDate: nil,
                               duration: UInt64.random(in: 3_600...36_000, using: &rng), postAlert: 300)
        case .short:
            // Due in a second or two, snoozed for as long: rings come due all through the run.
            action = .schedule(cls: .short, title: "c\(owner) short #\(n)", subtitle: "s\(n)", fixedDate: nil,
                               duration: UInt64.random(in: 1...2, using: &rng), postAlert: UInt32.random(in: 1...2, using: &rng))
        }
        return Call(number: n, id: id, owner: owner, action: action)
    }

    /// Two to sixty days ahead, in whole seconds: it never comes due during a run.
    private mutating func farDate(_ now: USec) -> Int64 {
        Int64(now / usecPerSecond) + Int64.random(in: 2 * 86_400...60 * 86_400, using: &rng)
    }
}
