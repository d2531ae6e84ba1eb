// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Gettext
import SDBus

/// `org.alarmd.Alarm1`, whole: every alarm object below `/org/alarmd/AlarmManager1/alarm`, served by one
/// fallback vtable (logind-session-dbus style), and visible only to its own app and the user's tools.
/// Its property table at the end of this file is the one list of its properties: the vtable, the
/// dictionaries of `GetAlarms`, and the names PropertiesChanged announces are all made from it.
public final class Alarm1: BusObject {
    private let engine: EngineView
    private let identity: Identity

    init(engine: EngineView, identity: Identity) {
        self.engine = engine
        self.identity = identity
    }

    public func exists(path: String, caller message: Message?) -> Bool {
        guard let key = AlarmID.key(fromPath: path), let a = engine.alarms[key], let caller = identity.viewer(of: message) else { return false }
        return caller.owns(a)
    }

    public func children(caller message: Message?) -> [String] {
        guard let caller = identity.viewer(of: message) else { return [] }
        return engine.alarms(visibleTo: caller).map(\.path)
    }

    private func alarm(at path: String) -> Alarm? {
        guard let key = key(fromPath: path) else { return nil }
        return engine.alarms[key]
    }

    /// sd-bus asks for one object's properties one by one (InterfacesAdded holds all of them):
    /// the path of the last question is usually the path of the next.
    private var lastPath = "", lastKey: AlarmKey?

    private func key(fromPath path: String) -> AlarmKey? {
        if path != lastPath {
            lastPath = path
            lastKey = AlarmID.key(fromPath: path)
        }
        return lastKey
    }

    // MARK: values and changes, from the table

    /// Every property of `alarm` in table order, as `GetAlarms` lists it and InterfacesAdded carries it.
    public static func properties(of alarm: Alarm, now: USec) -> [(String, Value)] {
        rows.map { ($0.name, $0.value(alarm, now)) }
    }

    /// Every property name, in introspection order.
    public static let propertyNames = rows.map(\.name)

    /// Properties computed from the clock: never announced by PropertiesChanged.
    public static let computedProperties = Set(rows.filter { $0.change == .computed }.map(\.name))

    /// Every emits-change property that differs between two versions, with its new value: one
    /// PropertiesChanged carries them all.
    static func changes(from old: Alarm, to new: Alarm) -> [(String, Value)] {
        rows.compactMap { row in
            guard row.change != .computed else { return nil }
            let value = row.value(new, 0)
            return value == row.value(old, 0) ? nil : (row.name, value)
        }
    }

    /// What sd-bus lists for an alarm object: its own interface and the standard ones.
    static let objectInterfaces = ["org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable",
                                   "org.freedesktop.DBus.Properties", Contract.alarmInterface]

    // MARK: the interface

    /// One property: its name, signature, how it changes, and its value for an alarm at an instant.
    struct Row: Sendable {
        let name: String
        let signature: String
        let change: PropertyChange
        let value: @Sendable (Alarm, USec) -> Value

        init(_ name: String, _ signature: String, _ change: PropertyChange = .emitsChange, _ value: @escaping @Sendable (Alarm, USec) -> Value) {
            self.name = name
            self.signature = signature
            self.change = change
            self.value = value
        }
    }

    /// The whole of `org.alarmd.Alarm1` (docs/API.md; `dbus/org.alarmd.Alarm1.xml` is its
    /// introspection, kept identical by a test). It has no methods: an alarm is changed through the manager.
    static let rows: [Row] = [
        Row("Id", "s") { a, _ in .string(a.id) },
        Row("AppId", "s") { a, _ in .string(a.appId) },
        Row("Kind", "s") { a, _ in .string(a.kind.rawValue) },
        Row("State", "s") { a, _ in .string(a.state.rawValue) },
        Row("Schedule", "a{sv}") { a, _ in .vardict(a.config.schedule.entries) },
        // The contract's 0 for what the state does not have (no fire time while paused, no countdown).
        Row("FireTimeUSec", "t") { a, _ in .uint64(a.flat.fireTime) },
        Row("CountdownStartUSec", "t") { a, _ in .uint64(a.flat.countdownStart) },
        Row("CountdownTotalUSec", "t") { a, _ in .uint64(a.flat.countdownTotal) },
        Row("ElapsedUSec", "t") { a, _ in .uint64(a.flat.elapsed) },
        Row("PreAlert", "u") { a, _ in .uint32(a.config.preAlert) },
        Row("PostAlert", "u") { a, _ in .uint32(a.config.postAlert) },
        // The standard texts in the session's language, as the notifications show them.
        Row("Presentation", "a{sv}") { a, _ in .vardict(a.effectivePresentation.shown(in: Translation.current).entries) },
        Row("Phase", "s") { a, _ in .string(a.phase.rawValue) },
        Row("Metadata", "a{sv}") { a, _ in a.config.metadata },
        Row("Sound", "s") { a, _ in .string(a.config.sound) },
        Row("Ring", "b") { a, _ in .bool(a.config.ring) },
        Row("VolumeRamp", "u") { a, _ in .uint32(a.config.volumeRamp) },
        Row("SoundError", "s") { a, _ in .string(a.soundError ?? "") },
        Row("Enabled", "b") { a, _ in .bool(a.config.enabled) },
        Row("Progress", "d", .computed) { a, now in .double(a.progress(now: now)) },
        Row("RemainingUSec", "t", .computed) { a, now in .uint64(a.remaining(now: now)) },
    ]

    static let interface = Interface<Alarm1>(Contract.alarmInterface, properties: rows.map { row in
        .init(row.name, row.signature, row.change) { object, path in
            object.alarm(at: path).map { row.value($0, object.engine.clock.now()) }
        }
    })
}
