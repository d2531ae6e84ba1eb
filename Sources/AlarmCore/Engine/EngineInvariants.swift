// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

extension AlarmEngine {
    /// What is wrong with the engine's bookkeeping, empty when nothing is. The engine keeps each
    /// alarm once in a dense table with three indexes beside it (by id, by deadline, by pending
    /// alert) and a count per app; the daemon arms its one timer from the deadline index and writes
    /// the stored form of each alarm. Every step of the fuzzers checks these; O(n) per call.
    public func invariantViolations() -> [String] {
        var out: [String] = []
        if index.count != slots.count { out.append("the id index holds \(index.count) alarms, the table \(slots.count)") }
        var counted: [String: Int] = [:]
        for (i, a) in slots.enumerated() {
            counted[a.appId, default: 0] += 1
            if let found = index.find(a.key, in: slots), found != i {
                out.append("\(a.id) is in slot \(i) and, by the id index, in slot \(found)")
            } else if index.find(a.key, in: slots) == nil {
                out.append("\(a.id) (slot \(i)) is missing from the id index")
            }
            if deadlines.priority(of: i) != deadline(of: a) {
                out.append("\(a.id) (\(a.state.rawValue)) is due at \(describe(deadlines.priority(of: i))) by the deadline index, at \(describe(deadline(of: a))) by itself")
            }
            if pendingAlerts.priority(of: i) != pendingAlert(of: a) {
                out.append("\(a.id) (\(a.state.rawValue)) alerts at \(describe(pendingAlerts.priority(of: i))) by the alert index, at \(describe(pendingAlert(of: a))) by itself")
            }
            out += stateViolations(a)
            out += storedFormViolations(a)
        }
        out += deadlines.violations(slots: slots.count).map { "deadline index: \($0)" }
        out += pendingAlerts.violations(slots: slots.count).map { "alert index: \($0)" }
        if deadlines.count != slots.lazy.filter({ self.deadline(of: $0) != nil }).count {
            out.append("the deadline index holds \(deadlines.count) entries for \(slots.count) alarms")
        }
        if pendingAlerts.count != slots.lazy.filter({ self.pendingAlert(of: $0) != nil }).count {
            out.append("the alert index holds \(pendingAlerts.count) entries for \(slots.count) alarms")
        }
        if counted != perApp {
            out.append("alarms per app are \(perApp.sorted { $0.key < $1.key }) by the count, \(counted.sorted { $0.key < $1.key }) in the table")
        }
        return out
    }

    /// What the state machine never leaves behind.
    private func stateViolations(_ a: Alarm) -> [String] {
        var out: [String] = []
        if a.kind == .timer && a.state == .scheduled { out.append("timer \(a.id) is scheduled rather than counting down") }
        return out
    }

    /// The stored form gives the alarm back unchanged, and gives the same bytes again: a restart (or
    /// a rollback to what was stored) neither loses nor alters an alarm.
    private func storedFormViolations(_ a: Alarm) -> [String] {
        let r = a.record
        guard let back = Alarm(record: r) else { return ["the stored form of \(a.id) is refused when read back"] }
        var out: [String] = []
        if back != a { out.append("\(a.id) reads back from its stored form changed") }
        if back.record != r { out.append("\(a.id)'s stored form changes when written again") }
        if Extras.encode(Extras.decode(a.config.extras)) != a.config.extras {
            out.append("\(a.id)'s extras decode to something that encodes differently (\(a.config.extras.count) bytes)")
        }
        return out
    }

    private func describe(_ t: USec?) -> String { t.map(String.init) ?? "never" }
}
