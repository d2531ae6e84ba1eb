// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus
import SystemFiles

/// The imperative shell, assembled in one straight function (as timedated's `run()` and mako's
/// `init_dbus`): each part is made in order and given, at init, only the capabilities it needs — the
/// committer alone holds the engine; everyone else reads an `EngineView` and changes things by handing
/// the committer a `Command`. One event-loop thread owns the bus, the single deadline timer and the
/// engine: nothing here runs concurrently, so nothing here locks. The store's commits alone run on a
/// writer thread of their own (`StoreWriter`), so that the loop never waits for the disk; the store
/// serializes its entry points itself.
public enum Daemon {
    public static let version = "0.1.0"

    /// Builds the daemon, takes the well-known name, and runs until SIGTERM/SIGINT.
    public static func run(options: Options) throws -> Int32 {
        // The core: configuration, the stored alarms, the engine over them.
        let config = loadConfig(options.configFile ?? defaultConfigFile())
        let stateDirectory = options.stateDirectory ?? Store.defaultDirectory()
        let opened = try StoreOpener.open(directory: stateDirectory)
        let store = opened.store
        let clock = SystemClock(offset: options.testClockFile.map(TestClock1.savedOffset) ?? 0, machine: { SystemClock.realtime })
        // Read once: the engine starts with it, and the watcher follows it from there.
        let zoneSource = ZoneSource(localtime: options.localtime, environment: processEnvironment(),
                                    report: { Log.warning($0) })
        let startZone = zoneSource.initial()
        let engine = AlarmEngine(clock: clock, timeZone: startZone.zone, policy: config.policy,
                                 limits: config.limits, ringTimeout: config.ringTimeout, missedGrace: config.missedGrace)
        engine.load(alarms: opened.alarms, authorizations: opened.authorizations)
        Log.info("store \(store.path): \(opened.alarms.count) alarms loaded\(opened.skipped > 0 ? ", \(opened.skipped) unreadable" : ""), "
            + "checked in \(fixed(Double(opened.checkUSec) / 1000, digits: 1)) ms")

        // The loop, the bus, and the committer: the one way to change anything.
        let loop = try EventLoop()
        try loop.exitOnSignals()
        let bus = try options.busAddress.map { address throws(BusError) in try Bus.connect(address: address) } ?? Bus.session()
        try bus.attach(loop)
        if let limit = options.maxReplyBytes { bus.maxReplyBytes = limit }
        let crash: (() -> Void)? = options.crashAfterAnnounce ? {
            bus.flush()
            Log.warning("test: crashing after the announcement, before the write")
            abort()
        } : nil
        let committer = try Committer(engine: engine, store: store, clock: clock, loop: loop, bus: bus,
                                      betweenAnnounceAndWrite: crash)
        let view = committer.view
        // The copies of apps' sound files live beside the store that names them.
        let soundCopies = SoundCopies(stateDirectory: stateDirectory, maxBytes: config.maxSoundBytes, engine: view)
        soundCopies.collect(keepAll: opened.recovery != nil)
        committer.whenEachIsDurable { soundCopies.durable($0) }
        Log.info(committer.wakeCapable ? "alarms wake the machine (CLOCK_REALTIME_ALARM)"
                                       : "alarms cannot wake the machine (no RTC wake alarm, or no CAP_WAKE_ALARM): CLOCK_REALTIME")

        // The machine: the system bus (logind, timedated) when there is one, the local time zone.
        let zoneWatcher = ZoneWatcher(loop: loop, source: zoneSource, current: startZone) { [unowned committer] zone in
            committer.decide(.timeZoneChange(zone), "time-zone change")
        }
        let system = SystemBus(loop: loop, committer: committer, zoneWatcher: zoneWatcher,
                               beforeSleep: { [unowned committer] in committer.armForSleep() })

        // The desktop: notifications, the prompt, sound and the output.
        let notifier = try Notifier(bus: bus)
        let prompter = AuthorizationPrompter(engine: view, committer: committer, notifier: notifier, loop: loop, config: config)
        let output = OutputGuard(store: store, loop: loop, config: config)
        let alerts = try Alerts(engine: view, sink: committer, notifier: notifier, bus: bus, loop: loop,
                                soundDirectories: options.soundDirectories ?? defaultSoundDirectories(),
                                icons: OwnIcons(directory: options.iconDirectory), output: output, systemBus: system.bus)
        // Plasma 6: the ringing alarm above the lock screen, once per alerting episode while locked.
        let lockScreenAlert = try LockScreenAlert(bus: bus, loop: loop, engine: view)

        // The contract on the bus: one file per interface.
        let identity = Identity(procRoot: options.procRoot)
        let manager = Manager1(engine: view, committer: committer, identity: identity, prompter: prompter, soundCopies: soundCopies, bus: bus,
                               limits: (config.callLimit, config.shellCallLimit),
                               facts: .init(version: version, wakeSupported: committer.wakeCapable, storePath: store.path,
                                            storeRecovery: opened.recovery?.properties ?? []))
        try bus.addCallFilter(path: Contract.managerPath) { [unowned manager] m in manager.filterManagedObjects(m) }
        try bus.export(manager, path: Contract.managerPath, Manager1.interface)
        try bus.exportFallback(Alarm1(engine: view, identity: identity), prefix: Contract.alarmPathPrefix, Alarm1.interface)
        try bus.addObjectManager(path: Contract.managerPath)
        if let file = options.testClockFile {
            try bus.export(TestClock1(clock: clock, file: file, committer: committer), path: TestClock1.path, TestClock1.interface)
            Log.warning("test clock enabled (\(file)): now is \(Log.time(clock.now()))")
        }
        // Signals first, then the desktop side, which may submit again (a sound error).
        committer.subscribe(manager)
        committer.subscribe(alerts)
        committer.subscribe(lockScreenAlert)
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'") { m in
            // A connection that went away loses its registered identity and its call budget.
            if let args = try? m.readAll(), args.count == 3, case .string(let name) = args[0],
               case .string(let newOwner) = args[2], newOwner.isEmpty, name.hasPrefix(":") {
                identity.forget(sender: name)
                manager.forget(sender: name)
            }
        }

        try bus.requestName(Contract.busName)
        Log.info("ready: \(Contract.busName) on \(bus.uniqueName), \(view.count) alarms, zone \(view.timeZone.name)")
        // Only now, with the name owned, may start-up transitions (alarms due while down) be signalled.
        // A sink left raised by a run that ended while ringing is put back first, then resumed alarms hold it anew.
        output.start()
        alerts.resume()
        lockScreenAlert.start()
        // A phone's: alarms ring through feedbackd's silent profile only from its allow-list.
        FeedbackAllowList.start(stateDirectory: stateDirectory)
        let recoveryNotice = opened.recovery.map { StoreRecoveryNotice(recovery: $0, notifier: notifier, store: store) }
        recoveryNotice?.start()
        committer.start()
        // Before sd-bus closes the bus at the loop's exit: the notifications go with this alarmd.
        try loop.beforeExit { alerts.finish() }

        let r = withExtendedLifetime((zoneWatcher, system, recoveryNotice)) { loop.run() }
        // Ringing alarms stay alerting across the restart; the output goes back to the user meanwhile.
        output.finish()
        committer.finish()
        store.close()
        Log.info("exiting: store closed")
        bus.flush()
        // The objects it serves hold it (to emit signals): let them go with it.
        bus.close()
        system.bus?.close()
        return r
    }

    /// alarmd's own sounds: `$XDG_DATA_HOME` and `$XDG_DATA_DIRS` `alarmd/sounds`, and the
    /// `share/alarmd/sounds` beside the installed binary.
    static func defaultSoundDirectories() -> [String] {
        let exe = linkTarget("/proc/self/exe") ?? CommandLine.arguments[0]
        let prefix = parentDirectory(parentDirectory(exe))
        return AppDirectory.dataDirectories().map { $0 + "/alarmd/sounds" } + [prefix + "/share/alarmd/sounds"]
    }

    static func defaultConfigFile() -> String {
        let env = processEnvironment()
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? homeDirectory() + "/.config"
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
}
