// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import AlarmDaemon
import Foundation
import Glibc
import SDBus
import TestSupport

// alarmd-fuzz-bus: hostile calls against a running alarmd (`--address`), or one it starts on a
// private bus (`make fuzz-bus`). See Options.usage and docs/fuzzing.md.

func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }

func median(_ xs: [Int]) -> Int {
    let s = xs.sorted()
    return s.isEmpty ? 0 : s[s.count / 2]
}

/// Every alarm of every app (as the user's own tools see them), by id, without computed properties,
/// leaving out those that time may change within `margin` seconds (due, warning, pre-alert, ringing).
func settledAlarms(_ control: Client, margin: UInt64) throws -> [String: [String: Value]] {
    let horizon = SystemClock().now() + margin * usecPerSecond
    var out: [String: [String: Value]] = [:]
    var after = "", pages = 0
    repeat {
        let r = try control.call("GetAlarmsPage", [.string(after), .uint32(1_000)])
        guard r.count == 2, case .array(_, let items) = r[0], case .string(let next) = r[1] else { break }
        for item in items {
            let props = Dictionary(item.vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
            guard let id = props["Id"]?.stringValue, props["State"]?.stringValue != "alerting" else { continue }
            var lead: UInt64 = 0
            if case .uint32(let p)? = props["PreAlert"] { lead += UInt64(p) }
            if let w = props["Presentation"]?.vardictEntries?.first(where: { $0.0 == "warning_threshold" })?.1.integerValue { lead += UInt64(max(0, w)) }
            if case .uint64(let fire)? = props["FireTimeUSec"], fire != 0, fire <= horizon + lead * usecPerSecond { continue }
            out[id] = props.filter { !Alarm1.computedProperties.contains($0.key) }
        }
        after = next
        pages += 1
    } while !after.isEmpty && pages < 10_000
    return out
}

func fuzzMain() -> Int32 {
    let options: Options
    do {
        options = try Options(Array(CommandLine.arguments.dropFirst()))
    } catch {
        say(error.message.isEmpty ? Options.usage : "alarmd-fuzz-bus: \(error.message)\n\n\(Options.usage)")
        return error.message.isEmpty ? 0 : 2
    }
    say("alarmd-fuzz-bus: seed \(options.seed) (--seed \(options.seed) replays it), \(options.calls) calls")
    var spawned: SpawnedDaemon?
    var problems: [String] = []
    do {
        let address: String
        if let a = options.address {
            address = a
        } else {
            let s = try SpawnedDaemon(alarmd: options.alarmd)
            spawned = s
            address = s.bus.address
            say("private bus \(address); alarmd's log: \(s.logPath)")
        }
        let watch = try DaemonWatch(address: address)
        let victims = try Victims(address: address, control: watch.control)
        let fuzzer = try BusFuzzer(address: address, options: options, watch: watch, victims: victims)
        say("alarmd pid \(watch.pid) as \(watch.uniqueName); store \(watch.storePath); \(victims.ids.count) victim alarms of \(Victims.app)")
        let t0 = Date()
        try fuzzer.run()
        let seconds = Date().timeIntervalSince(t0)
        let s = fuzzer.stats
        watch.pump()

        // alarmd stayed: the same process owns the name on the same connection, and still acts.
        let owner = watch.currentOwner
        if !watch.processAlive { problems.append("alarmd (pid \(watch.pid)) is gone") }
        if owner != watch.uniqueName { problems.append("the name's owner is '\(owner)', was \(watch.uniqueName)") }
        if !watch.ownerChanges.isEmpty { problems.append("the name changed hands: \(watch.ownerChanges)") }
        if let p = try? watch.control.schedule([("title", .string("After the run")), ("duration", .uint32(3_600))]) {
            _ = try? watch.control.call("Cancel", [.string(AlarmID.id(fromPath: p) ?? "")])
        } else {
            problems.append("a valid Schedule fails after the run")
        }
        problems += victims.changes()
        problems += s.unanswered.prefix(20).map { "no answer: \($0)" }
        problems += s.invalidErrorNames.sorted().map { "invalid error name \($0)" }
        problems += s.rawSurprises.prefix(20)

        // The store is sound and holds what alarmd shows.
        let store = StoreCheck.run(watch.storePath)
        let shown = try settledAlarms(watch.control, margin: 0)
        let allShown = try watch.control.call("GetAlarmsPage", [.string(""), .uint32(10_000)])
        var shownCount = 0
        if case .array(_, let items)? = allShown.first { shownCount = items.count }
        if store.integrity != "ok" { problems.append("PRAGMA integrity_check: \(store.integrity)") }
        if let stored = store.alarms, stored != shownCount, shownCount < 10_000 {
            problems.append("the store holds \(stored) alarms, alarmd shows \(shownCount)")
        }

        // Resident memory: the second quarter (after warm-up) against the last.
        let n = options.calls
        let q2 = s.rss.filter { $0.calls >= n / 4 && $0.calls <= n / 2 }.map(\.kib)
        let q4 = s.rss.filter { $0.calls >= 3 * n / 4 }.map(\.kib)
        let growth = median(q4) - median(q2)
        if let limit = options.rssGrowthLimitKiB, growth > limit {
            problems.append("resident memory grew \(growth) KiB from the second quarter to the last (limit \(limit) KiB)")
        }

        say(String(format: "calls: %d sent, %d answered in %.1f s (%.0f calls/s); %d connections opened; closed by the bus: %d raw, %d sd-bus",
                   s.sent, s.answered, seconds, Double(s.sent) / max(seconds, 0.001), s.connectionsOpened, s.droppedRaw, s.droppedConnections))
        say("accepted: " + s.ok.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        say("errors: " + s.errors.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        if !s.notSent.isEmpty { say("not sent (our sd-bus refused to build them): " + s.notSent.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) }
        say("raw calls: " + s.raw.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        say("slowest answers: " + s.slowest.sorted { $0.value > $1.value }.prefix(4).map { String(format: "%@ %.2f s", $0.key, $0.value) }.joined(separator: ", "))
        say("alarmd: pid \(watch.pid) \(watch.processAlive ? "alive" : "GONE"), name owner \(owner.isEmpty ? "none" : owner) (was \(watch.uniqueName)), \(watch.ownerChanges.count) owner changes")
        say("victims: \(victims.ids.count) alarms of \(Victims.app), \(victims.changes().isEmpty ? "unchanged" : "CHANGED")")
        say("store: integrity_check \(store.integrity); \(store.alarms.map(String.init) ?? "?") alarms stored, \(shownCount) shown (\(shown.count) not near due)")
        say("RSS: before \(mib(s.rss.first?.kib ?? 0)), second quarter \(mib(median(q2))), last quarter \(mib(median(q4))), after \(mib(s.rss.last?.kib ?? 0)); growth \(growth) KiB after warm-up")

        if options.restartCheck, let spawned {
            // Through the store and back: every alarm that time leaves alone comes back as it was.
            let before = try settledAlarms(watch.control, margin: 120)
            spawned.stop()
            try spawned.start()
            let control = try Client(address: address)
            let after = try settledAlarms(control, margin: 0)
            let lost = before.keys.filter { after[$0] == nil }, changed = before.keys.filter { after[$0] != nil && after[$0] != before[$0] }
            if !lost.isEmpty { problems.append("\(lost.count) alarms lost through a restart: \(lost.prefix(5))") }
            if !changed.isEmpty { problems.append("\(changed.count) alarms changed through a restart: \(changed.prefix(5))") }
            say("restart: \(before.count) alarms before, \(lost.count) lost, \(changed.count) changed")
        }
    } catch {
        problems.append("\(error)")
    }
    if let spawned {
        spawned.stop()
        if options.keep {
            let kept = "/tmp/alarmd-fuzz-kept-\(getpid())"
            try? FileManager.default.copyItem(atPath: spawned.state.path, toPath: kept)
            say("kept: \(kept)")
        }
    }
    for p in problems { say("FAIL: \(p)") }
    say(problems.isEmpty ? "RESULT: PASS" : "RESULT: FAIL (\(problems.count) problems; --seed \(options.seed) replays the run)")
    return problems.isEmpty ? 0 : 1
}

exit(fuzzMain())
