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
    private let soundDirectories: [String]
    private let icons: OwnIcons
    let clock: DaemonClock
    private let localtimePath: String
    private let maxReplyBytes: Int?
    private let crashAfterAnnounce: Bool
    /// Applies, persists and announces every change; set up in `run`, with the objects that use it.
    private let committer: Committer
    private var deadline: DeadlineTimer?
    private var zoneWatcher: ZoneWatcher?
    private var power: PowerMonitor?
    /// Whether alarms can wake the machine; decided when the wake-capable timer is tried.
    private var wakeSupported = false
    /// The system bus (logind, timedated), when there is one.
    private var systemBus: Bus?
    /// Realtime and boottime when they were last known to agree, to measure clock steps.
    private var anchor: (realtime: UInt64, boottime: UInt64) = (0, 0)
    /// How this store began, when alarmd had to set a damaged one aside.
    private let storeRecovery: StoreRecovery?
    private var recoveryNotice: StoreRecoveryNotice?

    public init(options: Options) throws {
        identity = Identity(procRoot: options.procRoot)
        soundDirectories = options.soundDirectories ?? Daemon.defaultSoundDirectories()
        icons = OwnIcons(directory: options.iconDirectory)
        config = Daemon.loadConfig(options.configFile ?? Daemon.defaultConfigFile())
        let opened = try StoreOpener.open(directory: options.stateDirectory ?? Store.defaultDirectory())
        store = opened.store
        storeRecovery = opened.recovery
        clock = DaemonClock(testClockFile: options.testClockFile)
        localtimePath = options.localtime
        maxReplyBytes = options.maxReplyBytes
        crashAfterAnnounce = options.crashAfterAnnounce
        engine = AlarmEngine(clock: clock, timeZone: ZoneWatcher.resolve(options.localtime), policy: config.policy,
                             limits: config.limits, ringTimeout: config.ringTimeout)
        engine.missedGrace = config.missedGrace
        engine.load(alarms: opened.alarms, authorizations: opened.authorizations)
        Log.info("store \(store.path): \(opened.alarms.count) alarms loaded\(opened.skipped > 0 ? ", \(opened.skipped) unreadable" : ""), "
            + "checked in \(String(format: "%.1f", Double(opened.checkUSec) / 1000)) ms")

        loop = try EventLoop()
        bus = try options.busAddress.map { address throws(BusError) in try Bus.connect(address: address) } ?? Bus.session()
        committer = try Committer(engine: engine, store: store, loop: loop)
    }

    /// Exports the objects, takes the well-known name, and runs until SIGTERM/SIGINT.
    public func run() throws -> Int32 {
        try loop.exitOnSignals()
        try bus.attach(loop)
        if let limit = maxReplyBytes { bus.maxReplyBytes = limit }
        // Calls that already arrived join the transaction of this loop pass.
        committer.drainPending = { [bus] in bus.processPending() }
        committer.afterChange = { [unowned self] in self.rearm() }
        if crashAfterAnnounce {
            committer.betweenAnnounceAndWrite = { [bus] in
                bus.flush()
                Log.warning("test: crashing after the announcement, before the write")
                abort()
            }
        }

        let notifier = try Notifier(bus: bus)
        let prompter = AuthorizationPrompter(engine: engine, sink: committer, notifier: notifier, loop: loop, config: config)
        let manager = ManagerObject(engine: engine, committer: committer, identity: identity, prompter: prompter,
                                    maxReplyBytes: bus.maxReplyBytes, limits: (config.callLimit, config.shellCallLimit),
                                    facts: .init(wakeSupported: { [unowned self] in self.wakeSupported }, storePath: store.path,
                                                 storeRecovery: storeRecovery?.properties ?? []))
        try bus.addCallFilter(path: AlarmID.managerPath) { [unowned manager] m in manager.filterManagedObjects(m) }
        try bus.export(manager, path: AlarmID.managerPath, interface: Interfaces.manager, members: Interfaces.managerMembers)
        try bus.exportFallback(AlarmObjects(engine: engine, identity: identity), prefix: AlarmID.alarmPathPrefix,
                               interface: Interfaces.alarm, members: Interfaces.alarmMembers)
        try bus.addObjectManager(path: AlarmID.managerPath)
        let output = OutputGuard(store: store, loop: loop, config: config)
        let alerts = try Alerts(engine: engine, sink: committer, notifier: notifier, bus: bus, loop: loop,
                                soundDirectories: soundDirectories, icons: icons, output: output,
                                systemBus: { [unowned self] in self.systemBus })
        // Signals first, then the desktop side, which may submit again (a sound error).
        committer.subscribe(BusAnnouncer(bus: bus, engine: engine))
        committer.subscribe(alerts)

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
        if let file = clock.file {
            try bus.export(TestClockObject(clock: clock) { [unowned self] delta in self.clockStepped(delta: delta) },
                           path: "/org/alarmd/TestClock1", interface: "org.alarmd.TestClock1", members: TestClockObject.members)
            Log.warning("test clock enabled (\(file)): now is \(Log.time(clock.now()))")
        }
        zoneWatcher = ZoneWatcher(loop: loop, localtime: localtimePath) { [unowned self] zone in
            self.committer.submit(self.engine.planTimeZoneChange(to: zone), "time-zone change")
        }
        connectSystemBus()
        try bus.requestName(Interfaces.busName)
        Log.info("ready: \(Interfaces.busName) on \(bus.uniqueName), \(engine.count) alarms, zone \(engine.timeZone.identifier)")
        // Only now, with the name owned, may start-up transitions (alarms due while down) be signalled.
        // A sink left raised by a run that ended while ringing is put back first, then resumed alarms hold it anew.
        output.start()
        alerts.resume()
        if let storeRecovery {
            recoveryNotice = StoreRecoveryNotice(recovery: storeRecovery, notifier: notifier, store: store)
            recoveryNotice?.start()
        }
        clockStepped(delta: stepSinceLastRun())
        rearm()
        let r = loop.run()
        // Ringing alarms stay alerting across the restart; the output goes back to the user meanwhile.
        output.finish()
        saveAnchor()
        store.close()
        Log.info("exiting: store closed")
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
                self.committer.submit(self.engine.planClockStep(delta: 0), "resume")
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
        committer.submit(engine.planClockStep(delta: delta), "clock step")
        saveAnchor()
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
        guard let text = readTextFile(path) else { return DaemonConfig() }
        let (config, warnings) = DaemonConfig.parse(text, file: path)
        for w in warnings { Log.warning(w) }
        Log.info("configuration \(path): unknown apps \(config.policy.unknownApps.rawValue), shell \(config.policy.shellAuthorized ? "allowed" : "denied"), \(config.limits.maxAlarmsPerApp) alarms per app")
        return config
    }

    /// One kernel timer, armed for the earliest deadline of all alarms; off when there is none.
    private func rearm() {
        deadline?.arm(at: clock.real(engine.nextDeadline))
    }

    /// What time alone causes rings at once; the committer writes it in this same loop pass.
    private func deadlineReached() {
        committer.fire(engine.planDue())
        rearm()
    }
}
