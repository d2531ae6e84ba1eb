import AlarmCore
import SDBus

/// Tells the bus what changed: AlarmRemoved before InterfacesRemoved, PropertiesChanged (one signal per
/// change, every changed property), InterfacesAdded, AuthorizationChanged, and the manager's
/// NextFireTimeUSec when it moved.
final class BusAnnouncer: ChangeSubscriber {
    private let bus: Bus
    private let engine: AlarmEngine
    private var announcedNextFire: USec

    /// What sd-bus lists for an alarm object: its own interface and the standard ones.
    static let objectInterfaces = ["org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable",
                                   "org.freedesktop.DBus.Properties", Contract.alarmInterface]

    init(bus: Bus, engine: AlarmEngine) {
        self.bus = bus
        self.engine = engine
        announcedNextFire = engine.nextFireTime
    }

    func applied(_ change: AppliedChange) {
        let m = change.mutation
        for r in m.removals {
            Log.info("alarm \(r.alarm.id) (app '\(r.alarm.appId)') removed: \(r.reason.rawValue)")
            emit { () throws(BusError) in
                try bus.emitSignal(path: AlarmID.managerPath, interface: Interfaces.manager, member: "AlarmRemoved",
                                   [.string(r.alarm.id), .string(r.alarm.appId), .string(r.reason.rawValue)])
                // The object is already gone from the engine: sd-bus would find no interfaces to list.
                try bus.emitSignal(path: AlarmID.managerPath, interface: Contract.objectManagerInterface, member: "InterfacesRemoved",
                                   [.objectPath(r.alarm.path), .strings(BusAnnouncer.objectInterfaces)])
            }
        }
        for a in m.upserts {
            // A later change of the same pass may have removed it; its own signals said so.
            guard engine.alarms[a.id] != nil else { continue }
            if let old = change.before[a.id] {
                let changed = Alarm.changedProperties(from: old, to: a)
                if old.state != a.state { Log.info("alarm \(a.id): \(old.state.rawValue) → \(a.state.rawValue)") }
                emit { () throws(BusError) in try bus.emitPropertiesChanged(path: a.path, interface: Interfaces.alarm, changed) }
            } else {
                Log.info("alarm \(a.id) (app '\(a.appId)', \(a.kind.rawValue)) added: \(a.state.rawValue), fires \(Log.time(a.fireTime))")
                emit { () throws(BusError) in try bus.emitObjectAdded(path: a.path) }
            }
        }
        for (app, state) in m.authorizations {
            Log.info("authorization of '\(app)': \(state.rawValue)")
            emit { () throws(BusError) in
                try bus.emitSignal(path: AlarmID.managerPath, interface: Interfaces.manager, member: "AuthorizationChanged",
                                   [.string(app), .string(state.rawValue)])
            }
        }
        if engine.nextFireTime != announcedNextFire {
            announcedNextFire = engine.nextFireTime
            emit { () throws(BusError) in
                try bus.emitPropertiesChanged(path: AlarmID.managerPath, interface: Interfaces.manager, ["NextFireTimeUSec"])
            }
        }
    }

    private func emit(_ body: () throws(BusError) -> Void) {
        do { try body() } catch { Log.warning("signal not sent: \(error)") }
    }
}
