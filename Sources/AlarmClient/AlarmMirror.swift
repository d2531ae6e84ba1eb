// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// What changed in the mirror, in the order alarmd announced it.
///
/// ``AlarmMirror`` hands each to its `onEvent` handler after applying it, so the mirror already
/// holds the new state.
public enum MirrorEvent: Sendable {
    /// Everything was (re)read: at start, and whenever alarmd (re)appears.
    case loaded
    /// A new alarm (`InterfacesAdded`), with all its properties.
    case added(AlarmSnapshot)
    /// An alarm's properties changed (one `PropertiesChanged`): the alarm before and after, and
    /// the names of the properties the signal carried new values of, sorted.
    case changed(old: AlarmSnapshot, new: AlarmSnapshot, names: [String])
    /// An alarm went, as it was last mirrored.
    ///
    /// `reason` from AlarmRemoved (`stopped`, `cancelled`, …); nil when only InterfacesRemoved
    /// told, or for a reason this library does not know (a newer alarmd's).
    case removed(AlarmSnapshot, reason: RemovalReason?)
    /// An app's authorization changed (`AuthorizationChanged`): the app's id and its new state,
    /// `authorized`, `denied` or `notDetermined` (nil for a state this library does not know).
    case authorizationChanged(app: String, state: AuthorizationState?)
    /// ``AlarmMirror/nextFireTime`` moved (`NextFireTimeUSec`); its new value.
    case nextFireTimeChanged(USec)
    /// alarmd took its name on the bus (it started, or started again); the mirror has just read
    /// everything anew, with a ``loaded`` before this event.
    case daemonStarted
    /// alarmd left the bus: the mirror is empty and not ``AlarmMirror/running`` until
    /// ``daemonStarted``. The alarms are kept by alarmd, not lost.
    case daemonStopped
}

/// A live copy of every alarm the caller may see, kept by alarmd's signals alone: the ObjectManager's
/// InterfacesAdded/Removed, PropertiesChanged and AlarmRemoved, and the name's owner. Nothing polls;
/// the owner of `bus` dispatches (an sd-event loop, or `Bus.processOnce`).
///
/// A panel or an app's window makes one mirror and redraws from ``alarms`` (or ``sorted``) in its
/// `onEvent` handler, which runs on the thread that dispatches the bus. Keep the mirror for as long
/// as it is to follow alarmd: the bus holds its subscriptions weakly, and a mirror that is gone is
/// told nothing more. Between signals, ``AlarmSnapshot/remaining(at:)`` and
/// ``AlarmSnapshot/progress(at:)`` give a countdown's figures from the clock alone.
///
/// ```swift
/// let loop = try EventLoop()
/// try proxy.bus.attach(loop)
/// let mirror = try AlarmMirror(proxy: proxy) { mirror, _ in
///     draw(PanelView.make(alarms: mirror.sorted, running: mirror.running, now: SystemClock().now()))
/// }
/// let status = withExtendedLifetime(mirror) { loop.run() }
/// ```
public final class AlarmMirror {
    /// The proxy the mirror reads through; its bus carries the signals the mirror follows.
    public let proxy: AlarmManagerProxy
    /// Every alarm the caller may see, by id; empty while alarmd is not running.
    public private(set) var alarms: [String: AlarmSnapshot] = [:]
    /// Whether alarmd is on the bus: as found at the last ``reload()``, false from its
    /// ``MirrorEvent/daemonStopped``.
    public private(set) var running = false
    /// ``AlarmManagerProxy/nextFireTime``, kept by the signals; 0 while alarmd is not running.
    public private(set) var nextFireTime: USec = 0
    private let onEvent: (AlarmMirror, MirrorEvent) -> Void

    /// Subscribes to alarmd's signals on `proxy`'s bus, watches (``AlarmManagerProxy/watch()``), then reads every alarm.
    ///
    /// `onEvent` gets the mirror too: the first event (`loaded`) comes before this init returns.
    ///
    /// - Parameters:
    ///   - proxy: The proxy to read through; the mirror listens on its bus.
    ///   - onEvent: Runs after each change is applied, with the mirror and what changed.
    /// - Throws: `BusError` when the bus refuses a subscription (a closed connection). alarmd not
    ///   running is no error: the mirror starts empty and fills when alarmd appears.
    public init(proxy: AlarmManagerProxy, onEvent: @escaping (AlarmMirror, MirrorEvent) -> Void) throws(BusError) {
        self.proxy = proxy
        self.onEvent = onEvent
        let bus = proxy.bus
        let sender = "sender='\(Contract.busName)'"
        // Subscribe first, then read: a change made in between arrives as a signal after the reply.
        try bus.addMatch("type='signal',\(sender),path='\(Contract.managerPath)',interface='\(Contract.objectManagerInterface)'") { [weak self] m in
            self?.objectManagerSignal(m)
        }
        try bus.addMatch("type='signal',\(sender),interface='\(Contract.propertiesInterface)',member='PropertiesChanged',path_namespace='\(Contract.managerPath)'") { [weak self] m in
            self?.propertiesChanged(m)
        }
        try bus.addMatch("type='signal',\(sender),path='\(Contract.managerPath)',interface='\(Contract.managerInterface)'") { [weak self] m in
            self?.managerSignal(m)
        }
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Contract.busName)'") { [weak self] m in
            self?.ownerChanged(m)
        }
        reload()
    }

    /// Alarms in the order a person reads them (``AlarmSnapshot/readingOrder(_:)``).
    public var sorted: [AlarmSnapshot] { AlarmSnapshot.readingOrder(Array(alarms.values)) }

    /// Reads everything anew (alarmd not running leaves the mirror empty).
    ///
    /// The mirror does this itself at start and whenever alarmd appears, and reports
    /// ``MirrorEvent/loaded`` after it. More alarms than one reply can hold are read page by page; a
    /// read that fails otherwise leaves the mirror empty.
    public func reload() {
        running = proxy.isRunning
        guard running else {
            alarms = [:]
            nextFireTime = 0
            onEvent(self, .loaded)
            return
        }
        // Watch first, then read: a change made in between arrives as a signal after the reply.
        try? proxy.watch()
        do {
            alarms = Dictionary(try managedObjects().map { ($0.id, $0) }, uniquingKeysWith: { _, new in new })
        } catch where error.name == Contract.ErrorName.limitsExceeded {
            alarms = Dictionary(((try? proxy.alarms()) ?? []).map { ($0.id, $0) }, uniquingKeysWith: { _, new in new })
        } catch {
            alarms = [:]
        }
        nextFireTime = proxy.nextFireTime
        onEvent(self, .loaded)
    }

    private func managedObjects() throws(BusError) -> [AlarmSnapshot] {
        let r = try proxy.bus.call(Contract.busName, Contract.managerPath, Contract.objectManagerInterface, "GetManagedObjects")
        guard case .dict(_, _, let objects)? = r.first else { return [] }
        return objects.compactMap { object in AlarmMirror.alarmInterface(in: object.value).flatMap(AlarmSnapshot.init) }
    }

    /// The `org.alarmd.Alarm1` property map inside an `a{sa{sv}}` of interfaces.
    private static func alarmInterface(in interfaces: Value) -> Value? {
        guard case .dict(_, _, let entries) = interfaces else { return nil }
        return entries.first { $0.key.stringValue == Contract.alarmInterface }?.value
    }

    private func objectManagerSignal(_ m: Message) {
        guard let args = try? m.readAll(), args.count == 2, case .objectPath(let path) = args[0],
              let id = AlarmID.id(fromPath: path) else { return }
        switch m.member {
        case "InterfacesAdded":
            guard let props = AlarmMirror.alarmInterface(in: args[1]), let snapshot = AlarmSnapshot(props) else { return }
            alarms[id] = snapshot
            onEvent(self, .added(snapshot))
        case "InterfacesRemoved":
            if let old = alarms.removeValue(forKey: id) { onEvent(self, .removed(old, reason: nil)) }
        default: break
        }
    }

    private func propertiesChanged(_ m: Message) {
        guard let args = try? m.readAll(), args.count == 3, case .string(let interface) = args[0],
              let changed = args[1].vardictEntries else { return }
        let values = Dictionary(changed, uniquingKeysWith: { _, new in new })
        if interface == Contract.managerInterface, case .uint64(let t)? = values["NextFireTimeUSec"] {
            nextFireTime = t
            onEvent(self, .nextFireTimeChanged(t))
            return
        }
        guard interface == Contract.alarmInterface, let path = m.path, let id = AlarmID.id(fromPath: path),
              let old = alarms[id] else { return }
        var new = old
        new.apply(changed: values, invalidated: (args[2].arrayStrings ?? []))
        alarms[id] = new
        onEvent(self, .changed(old: old, new: new, names: values.keys.sorted()))
    }

    private func managerSignal(_ m: Message) {
        guard let args = try? m.readAll() else { return }
        let strings = args.compactMap(\.stringValue)
        switch m.member {
        case "AlarmRemoved" where strings.count == 3:
            // Sent before InterfacesRemoved, so the reason is known when the alarm goes.
            if let id = try? AlarmID.normalize(strings[0]), let old = alarms.removeValue(forKey: id) {
                onEvent(self, .removed(old, reason: RemovalReason(rawValue: strings[2])))
            }
        case "AuthorizationChanged" where strings.count == 2:
            onEvent(self, .authorizationChanged(app: strings[0], state: AuthorizationState(rawValue: strings[1])))
        default: break
        }
    }

    private func ownerChanged(_ m: Message) {
        guard let args = try? m.readAll(), args.count == 3, case .string(let newOwner) = args[2] else { return }
        if newOwner.isEmpty {
            guard running else { return }
            running = false
            alarms = [:]
            nextFireTime = 0
            onEvent(self, .daemonStopped)
        } else {
            reload()
            onEvent(self, .daemonStarted)
        }
    }
}

extension Value {
    /// The strings of an `as`, nil for any other shape.
    var arrayStrings: [String]? {
        guard case .array(_, let items) = self else { return nil }
        return items.compactMap(\.stringValue)
    }
}
