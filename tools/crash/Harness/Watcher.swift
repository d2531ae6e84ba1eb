// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import CrashModel
import SDBus
import TestSupport

/// The subscriber: one connection that sees who owns alarmd's name (each new owner is a new *run*
/// of alarmd) and every signal alarmd sends, and turns them into rings and ends of rings for the
/// model.
///
/// `PropertiesChanged` carries only what changed, so the fire time of a ring comes from a mirror of
/// each alarm's state and fire time, kept from the signals. A kill can lose signals of changes that
/// were durable, which would leave the mirror stale: so signals of a new run are held until the
/// harness has read the store after the restart (nobody calls alarmd in between, and nothing but a
/// call ends a ring here), and then take their fire times from that read.
final class Watcher {
    let bus: Bus
    private let model: CrashModel
    /// The unique name of alarmd's current run, "" while nobody owns the name.
    private(set) var owner = ""
    /// Runs of alarmd that took the name so far (the first is 1).
    private(set) var runs = 0
    private var runOf: [String: Int] = [:]
    /// Signals of runs up to this one are handled as they come; later ones are held.
    private var liveRun = 0

    private enum Event {
        case added(id: String, state: String, fire: USec)
        case changed(id: String, state: String?, fire: USec?)
        case removed(id: String, reason: String)
    }

    private var held: [(run: Int, at: USec, event: Event)] = []
    private var mirror: [String: (state: String, fire: USec)] = [:]

    init(address: String, model: CrashModel) throws {
        bus = try Bus.connect(address: address)
        self.model = model
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(managerName)'") { [unowned self] m in
            guard let a = try? m.readAll(), a.count == 3, case .string(let new) = a[2] else { return }
            owner = new
            if !new.isEmpty {
                runs += 1
                runOf[new] = runs
            }
        }
        try bus.addMatch("type='signal',sender='\(managerName)'") { [unowned self] m in received(m) }
        // A round trip: the matches are in place before anything is started.
        _ = try bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId")
    }

    /// Asks the next run of alarmd for its signals (`Watch`), before it starts: the bus holds the
    /// call until it takes its name.
    func watchNextRun() throws {
        try bus.callAsync(managerName, managerPath, managerInterface, "Watch", [], timeoutUSec: 120_000_000) { _ in }
    }

    /// Rings held because their run's store has not been read yet, by alarm id.
    var heldRings: Set<String> {
        Set(held.compactMap { h in
            if case .changed(let id, "alerting"?, _) = h.event { return id }
            return nil
        })
    }

    private func received(_ m: Message) {
        let at = realUSec()
        guard let args = try? m.readAll() else { return }
        let path = m.path ?? ""
        var event: Event?
        switch (m.interface, m.member) {
        case ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
            guard let id = AlarmID.id(fromPath: path), args.count >= 2, args[0] == .string(alarmInterface) else { return }
            let changed = Dictionary(args[1].vardictEntries ?? [], uniquingKeysWith: { a, _ in a })
            event = .changed(id: id, state: changed["State"].map { Observed.string($0) },
                             fire: changed["FireTimeUSec"].map { Observed.uint($0) })
        case (Contract.objectManagerInterface, "InterfacesAdded"):
            guard args.count >= 2, case .objectPath(let p) = args[0], let id = AlarmID.id(fromPath: p),
                  case .dict(_, _, let entries) = args[1],
                  let props = entries.first(where: { $0.key == .string(alarmInterface) })?.value.vardictEntries else { return }
            let d = Dictionary(props, uniquingKeysWith: { a, _ in a })
            event = .added(id: id, state: Observed.string(d["State"]), fire: Observed.uint(d["FireTimeUSec"]))
        case (managerInterface, "AlarmRemoved"):
            guard args.count == 3, case .string(let id) = args[0], case .string(let reason) = args[2] else { return }
            event = .removed(id: id, reason: reason)
        default:
            return
        }
        guard let event else { return }
        let run = runOf[m.sender ?? ""] ?? runs
        if run <= liveRun {
            handle(event, run: run, at: at)
        } else {
            held.append((run, at, event))
        }
    }

    private func handle(_ event: Event, run: Int, at: USec) {
        switch event {
        case .added(let id, let state, let fire):
            mirror[id] = (state, fire)
        case .changed(let id, let state, let fire):
            let before = mirror[id] ?? ("", 0)
            let now = (state: state ?? before.state, fire: fire ?? before.fire)
            if before.state != "alerting" && now.state == "alerting" { model.rang(id, fire: now.fire, run: run, at: at) }
            if before.state.hasPrefix("alerting") && !now.state.hasPrefix("alerting") { model.ringEnded(id, fire: before.fire) }
            mirror[id] = now
        case .removed(let id, let reason):
            if let m = mirror[id], m.state.hasPrefix("alerting") { model.ringEnded(id, fire: m.fire) }
            model.removed(id, reason: reason)
            mirror[id] = nil
        }
    }

    /// The store as read after the restart, every client's alarms: the held signals are judged with
    /// its fire times, and the mirror starts from it.
    func caughtUp(with store: [String: [String: Value]]) {
        for h in held {
            switch h.event {
            case .changed(let id, "alerting"?, _):
                if let o = store[id], Observed.string(o["State"]) == "alerting" {
                    model.rang(id, fire: Observed.uint(o["FireTimeUSec"]), run: h.run, at: h.at)
                } else {
                    model.report(.lostRing, "\(id) announced ringing by run \(h.run) of alarmd, yet not ringing when read after it")
                }
            case .removed(let id, let reason):
                model.removed(id, reason: reason)
            case .added, .changed:
                break
            }
        }
        let announced = heldRings
        held = []
        // An alarm read as ringing that this run has not been seen announcing either was ringing
        // before it started (then no announcement comes), or rang at its start and the
        // announcement, sent before the answer to the read but on this other connection, is still
        // on its way. "alerting?" lets that announcement count as the ring it is.
        mirror = store.mapValues { o in
            let state = Observed.string(o["State"])
            return (state == "alerting" && !announced.contains(Observed.string(o["Id"])) ? "alerting?" : state, Observed.uint(o["FireTimeUSec"]))
        }
        liveRun = runs
    }
}
