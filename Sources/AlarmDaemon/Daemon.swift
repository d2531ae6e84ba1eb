import AlarmCore
import Foundation
import SDBus

/// The imperative shell: one event-loop thread owns the bus, the single deadline timer, the store
/// and the engine. Nothing here runs concurrently, so nothing here locks.
public final class Daemon {
    let loop: EventLoop
    let bus: Bus
    let store: Store
    let engine: AlarmEngine
    let identity: Identity
    let config: DaemonConfig
    private(set) var notifier: Notifier!
    private(set) var prompter: AuthorizationPrompter!
    private(set) var alerts: Alerts!
    private let soundDirectories: [String]
    let clock: DaemonClock
    private let localtimePath: String
    private let maxReplyBytes: Int?
    private var deadline: DeadlineTimer?
    private var zoneWatcher: ZoneWatcher?
    private var power: PowerMonitor?
    private var announcedNextFire: USec = 0
    /// Whether alarms can wake the machine; decided when the wake-capable timer is tried.
    var wakeSupported = false
    /// The system bus (logind, timedated), when there is one.
    private(set) var systemBus: Bus?
    /// Realtime and boottime when they were last known to agree, to measure clock steps.
    private var anchor: (realtime: UInt64, boottime: UInt64) = (0, 0)

    public init(options: Options) throws {
        identity = Identity(procRoot: options.procRoot)
        soundDirectories = options.soundDirectories ?? Daemon.defaultSoundDirectories()
        config = Daemon.loadConfig(options.configFile ?? Daemon.defaultConfigFile())
        store = try Store(directory: options.stateDirectory ?? Store.defaultDirectory())
        clock = DaemonClock(testClockFile: options.testClockFile)
        localtimePath = options.localtime
        maxReplyBytes = options.maxReplyBytes
        engine = AlarmEngine(clock: clock, timeZone: ZoneWatcher.resolve(options.localtime), policy: config.policy,
                             limits: config.limits, ringTimeout: config.ringTimeout)
        engine.missedGrace = config.missedGrace
        let (alarms, skipped) = try store.loadAlarms()
        engine.load(alarms: alarms, authorizations: try store.loadAuthorizations())
        Log.info("store \(store.path): \(alarms.count) alarms loaded\(skipped > 0 ? ", \(skipped) unreadable" : "")")

        loop = try EventLoop()
        bus = try options.busAddress.map { address throws(BusError) in try Bus.connect(address: address) } ?? Bus.session()
    }

    /// Exports the objects, takes the well-known name, and runs until SIGTERM/SIGINT.
    public func run() throws -> Int32 {
        try loop.exitOnSignals()
        try bus.attach(loop)
        if let limit = maxReplyBytes { bus.maxReplyBytes = limit }
        let manager = ManagerObject(daemon: self)
        try bus.addCallFilter(path: AlarmID.managerPath) { [unowned manager] m in manager.filterManagedObjects(m) }
        try bus.export(manager, path: AlarmID.managerPath, interface: Interfaces.manager, members: Interfaces.managerMembers)
        try bus.exportFallback(AlarmObjects(daemon: self), prefix: AlarmID.alarmPathPrefix, interface: Interfaces.alarm,
                               members: Interfaces.alarmMembers)
        try bus.addObjectManager(path: AlarmID.managerPath)
        notifier = try Notifier(bus: bus)
        prompter = AuthorizationPrompter(daemon: self)
        alerts = try Alerts(daemon: self, soundDirectories: soundDirectories)
        notifier.onServerAppeared = { [unowned self] in self.alerts.notificationServerAppeared() }
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'") { [unowned self] m in
            // A connection that went away loses its registered identity.
            if let args = try? m.readAll(), args.count == 3, case .string(let name) = args[0],
               case .string(let newOwner) = args[2], newOwner.isEmpty, name.hasPrefix(":") {
                self.identity.forget(sender: name)
                manager.forget(sender: name)
            }
        }
        let timer = try DeadlineTimer(loop: loop, onExpire: { [unowned self] in self.deadlineReached() },
                                      onClockStep: { [unowned self] in self.clockStepped(delta: self.measuredStep()) })
        deadline = timer
        wakeSupported = timer.wakeCapable
        Log.info(wakeSupported ? "alarms wake the machine (CLOCK_REALTIME_ALARM)"
                               : "alarms cannot wake the machine (no RTC wake alarm, or no CAP_WAKE_ALARM): CLOCK_REALTIME")
        if clock.file != nil {
            try bus.export(TestClockObject(daemon: self), path: "/org/alarmd/TestClock1", interface: "org.alarmd.TestClock1",
                           members: TestClockObject.members)
            Log.warning("test clock enabled (\(clock.file!)): now is \(Log.time(clock.now()))")
        }
        zoneWatcher = ZoneWatcher(loop: loop, localtime: localtimePath) { [unowned self] zone in
            self.perform("time-zone change") { self.engine.planTimeZoneChange(to: zone) }
        }
        connectSystemBus()
        announcedNextFire = engine.nextFireTime
        try bus.requestName(Interfaces.busName)
        Log.info("ready: \(Interfaces.busName) on \(bus.uniqueName), \(engine.count) alarms, zone \(engine.timeZone.identifier)")
        // Only now, with the name owned, may start-up transitions (alarms due while down) be signalled.
        alerts.resume()
        clockStepped(delta: stepSinceLastRun())
        let r = loop.run()
        saveAnchor()
        Log.info("exiting")
        bus.flush()
        return r
    }

    /// logind (suspend, sleep inhibitors) and timedated live on the system bus; without one alarmd
    /// still works, and says what it cannot do.
    private func connectSystemBus() {
        do {
            let system = try Bus.system()
            try system.attachSecondary(loop)
            systemBus = system
            power = try PowerMonitor(system: system) { [unowned self] in
                self.perform("resume") { self.engine.planClockStep(delta: 0) }
            }
            try system.addMatch("type='signal',sender='org.freedesktop.timedate1',path='/org/freedesktop/timedate1',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'") { [unowned self] _ in
                self.zoneWatcher?.recheck()
            }
        } catch {
            Log.warning("no system bus (\(error.message)): no suspend handling, no sleep inhibitor")
        }
    }

    // MARK: time

    /// How far the wall clock moved apart from the time that really passed since the anchor.
    private func measuredStep() -> Int64 {
        let rt = clock.now(), bt = Clocks.boottime
        return Int64(bitPattern: rt &- anchor.realtime) &- Int64(bitPattern: bt &- anchor.boottime)
    }

    /// The step across the daemon's downtime, when the machine has not rebooted since the anchor.
    private func stepSinceLastRun() -> Int64 {
        guard let text = try? store.meta("clock_anchor") else { return 0 }
        let parts = text.split(separator: " ")
        guard parts.count == 3, let rt = UInt64(parts[0]), let bt = UInt64(parts[1]), parts[2] == Clocks.bootID else { return 0 }
        anchor = (rt, bt)
        return measuredStep()
    }

    private func saveAnchor() {
        anchor = (clock.now(), Clocks.boottime)
        do { try store.setMeta("clock_anchor", "\(anchor.realtime) \(anchor.boottime) \(Clocks.bootID)") } catch {
            Log.error("store: clock anchor not saved: \(error)")
        }
    }

    /// The wall clock stepped by `delta` µs (or was found to have, at start-up): countdowns keep their
    /// remaining time, and everything now due rings or is missed.
    func clockStepped(delta measured: Int64) {
        // Below 10 ms it is the jitter of reading two clocks, not a step.
        let delta = abs(measured) < 10_000 ? 0 : measured
        if delta != 0 { Log.info("wall clock stepped by \(Double(delta) / 1e6) s; recomputing deadlines") }
        perform("clock step") { self.engine.planClockStep(delta: delta) }
        saveAnchor()
    }

    /// Commits a plan made by the daemon itself (not a method call); failures are logged.
    private func perform(_ what: String, _ plan: () -> Mutation) {
        do { try commit(plan()) } catch { Log.error("\(what): change not saved: \(error.message)") }
        rearm()
    }

    /// alarmd's own sounds: `$XDG_DATA_HOME` and `$XDG_DATA_DIRS` `alarmd/sounds`, and the
    /// `share/alarmd/sounds` beside the installed binary.
    static func defaultSoundDirectories() -> [String] {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let prefix = ((exe as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        return AppDirectory.dataDirectories().map { $0 + "/alarmd/sounds" } + [prefix + "/share/alarmd/sounds"]
    }

    static func defaultConfigFile() -> String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (env["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/alarmd/alarmd.conf"
    }

    /// A missing file is the defaults; a malformed line is reported and its default kept.
    static func loadConfig(_ path: String) -> DaemonConfig {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return DaemonConfig() }
        let (config, warnings) = DaemonConfig.parse(text, file: path)
        for w in warnings { Log.warning(w) }
        Log.info("configuration \(path): unknown apps \(config.policy.unknownApps.rawValue), shell \(config.policy.shellAuthorized ? "allowed" : "denied"), \(config.limits.maxAlarmsPerApp) alarms per app")
        return config
    }

    /// Persists `m`, then announces it. Throws (having changed nothing) when it cannot be made durable.
    func commit(_ m: Mutation) throws(AlarmError) {
        guard !m.isEmpty else { return }
        do {
            try store.commit(m)
        } catch {
            Log.error("store: \(error); change not applied")
            throw .ioError("the change could not be saved: \(error)")
        }
        announce(m)
    }

    private func announce(_ m: Mutation) {
        // AlarmRemoved and InterfacesRemoved go out while the object still exists for sd-bus.
        for r in m.removals {
            Log.info("alarm \(r.alarm.id) (app '\(r.alarm.appId)') removed: \(r.reason.rawValue)")
            emit { () throws(BusError) in
                try bus.emitSignal(path: AlarmID.managerPath, interface: Interfaces.manager, member: "AlarmRemoved",
                                   [.string(r.alarm.id), .string(r.alarm.appId), .string(r.reason.rawValue)])
                try bus.emitObjectRemoved(path: r.alarm.path)
            }
        }
        let before = Dictionary(uniqueKeysWithValues: m.upserts.compactMap { a in engine.alarms[a.id].map { (a.id, $0) } })
        let timedOut = Set(m.timedOut.map(\.id))
        engine.apply(m)
        for a in m.upserts {
            if let old = before[a.id] {
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
        // Only now the desktop side: ringing, notifications. They may commit again (a sound error),
        // which must come after this change's own signals.
        if !m.missed.isEmpty { alerts.missed(m.missed) }
        for r in m.removals {
            alerts.changed(old: r.alarm, new: nil, timedOut: timedOut.contains(r.alarm.id), snoozed: false)
            if r.reason == .completed { alerts.completed(r.alarm) }
        }
        for a in m.upserts {
            alerts.changed(old: before[a.id], new: a, timedOut: timedOut.contains(a.id), snoozed: m.snoozed.contains(a.id))
        }
        alerts.settle()
        rearm()
    }

    private func emit(_ body: () throws(BusError) -> Void) {
        do { try body() } catch { Log.warning("signal not sent: \(error)") }
    }

    /// One kernel timer, armed for the earliest deadline of all alarms; off when there is none.
    private func rearm() {
        deadline?.arm(at: clock.real(engine.nextDeadline))
    }

    private func deadlineReached() {
        let m = engine.planDue()
        do {
            try commit(m)
        } catch {
            // The store refused: try again shortly rather than lose the transition.
            Log.error("due transitions not saved (\(error.message)); retrying in 1 s")
            deadline?.arm(at: clock.real(engine.clock.now() + usecPerSecond))
            return
        }
        rearm()
    }
}
