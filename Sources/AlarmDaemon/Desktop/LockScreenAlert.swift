// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus
import SystemFiles

/// The ringing alarm above the Plasma 6 lock screen: while the session's screen is locked, each
/// alerting episode of an alarm starts `alarmd-lockscreen-alert --alarm ID` once
/// (applets/plasma/alert/README.md), which shows it over the lock screen and ends by itself. One per
/// alarmd, however many applets the panels hold.
///
/// Whether the screen is locked is `org.freedesktop.ScreenSaver` at `/ScreenSaver` (KDE's ksmserver
/// and KWin serve it): `GetActive` at start and whenever the name gets an owner, then its
/// `ActiveChanged(b)` signal; never polled, never activated. An episode begins when an alarm becomes
/// alerting and ends when it leaves that state or goes: the program starts when one begins while
/// locked, or when the screen locks during one that has not started it yet, never twice for one
/// episode (unlocking and locking again starts no second window). These are the rules the applet's
/// plugin followed when it started the program itself, one per applet.
///
/// The program is `<prefix>/libexec/alarmd/alarmd-lockscreen-alert` beside the running alarmd
/// (`<prefix>/bin`; the Plasma 6 applet's build installs it there), or what the environment's
/// `ALARMD_LOCKSCREEN_ALERT` names (a test and debug hook). Where it is not an executable file nothing
/// is started (one log line for the daemon's life). It inherits alarmd's environment and stderr, so
/// its own lines go to alarmd's log; sd-event reaps it.
///
/// An alarmd started before the Plasma session (D-Bus activation, systemd's user manager) has no
/// `WAYLAND_DISPLAY`, and the program could not show (it exits 2). Then each start first reads the
/// systemd user manager's `Environment` (`org.freedesktop.systemd1` on the session bus, never
/// activated, asynchronously), into which startplasma exported the session's variables, and gives the
/// program those alarmd lacks (SessionEnvironment), in its environment only. Read at each start, not
/// once: a new login (alarmd lingering on) brings a new display. Where no manager answers, or its
/// environment has no display either, the program starts with alarmd's environment, as before, and
/// the log says so once.
final class LockScreenAlert: ChangeSubscriber {
    static let name = "org.freedesktop.ScreenSaver"
    static let path = "/ScreenSaver"
    /// Errors that say "no screen saver here": no owner, or one that serves no `GetActive` at `/ScreenSaver`.
    static let absent = ScreenWaker.absent
    /// The systemd user manager on the session bus, whose `Environment` holds what the session exported.
    static let manager = (name: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
                          interface: "org.freedesktop.systemd1.Manager")

    private let bus: Bus
    private let loop: EventLoop
    private let engine: EngineView
    let program: String
    /// alarmd's own environment, which the program inherits.
    private let environment: [String: String]
    /// Whether the screen is locked, as last heard.
    private var locked = false
    /// Bumped by every signal and owner change: a `GetActive` reply older than them is stale.
    private var query: UInt64 = 0
    /// The alarms alerting now (their episodes), and those whose episode has started the program.
    private var alerting: Set<String> = []
    private var started: Set<String> = []
    /// The missing program is said once, and so is a start without a Wayland display.
    private var saidMissing = false
    private var saidNoDisplay = false
    /// The starts waiting for the manager's environment: alarm → the start's number. An episode that
    /// ends meanwhile drops its entry, and a reply for a start no longer listed starts nothing.
    private var waiting: [String: UInt64] = [:]
    private var starts: UInt64 = 0

    init(bus: Bus, loop: EventLoop, engine: EngineView, environment: [String: String] = processEnvironment()) throws(BusError) {
        self.bus = bus
        self.loop = loop
        self.engine = engine
        self.environment = environment
        program = LockScreenAlert.program(environment: environment)
        try bus.addMatch("type='signal',sender='\(LockScreenAlert.name)',path='\(LockScreenAlert.path)',interface='\(LockScreenAlert.name)',member='ActiveChanged'") { [unowned self] m in
            guard case .bool(let active)? = try? m.read() else { return }
            self.query += 1  // newer than any GetActive still on its way
            self.screen(locked: active)
        }
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(LockScreenAlert.name)'") { [unowned self] m in
            guard let args = try? m.readAll(), args.count == 3, case .string(let owner) = args[2] else { return }
            // A new screen saver (or none) says nothing of the lock until asked.
            self.query += 1
            self.locked = false
            if !owner.isEmpty { self.askLocked() }
        }
    }

    /// The program's path: `ALARMD_LOCKSCREEN_ALERT` when set, else beside the running alarmd.
    static func program(environment: [String: String], executable: String? = linkTarget("/proc/self/exe")) -> String {
        if let given = environment["ALARMD_LOCKSCREEN_ALERT"], !given.isEmpty { return given }
        let prefix = parentDirectory(parentDirectory(executable ?? CommandLine.arguments[0]))
        return prefix + "/libexec/alarmd/alarmd-lockscreen-alert"
    }

    /// Once the daemon owns its name: the alarms already alerting (resumed at start) begin their
    /// episodes, and the screen saver is asked.
    func start() {
        alerting = Set(engine.alarms.values.filter { $0.state == .alerting }.map(\.id))
        askLocked()
    }

    func applied(_ change: AppliedChange) {
        for a in change.mutation.upserts {
            if a.state == .alerting {
                alerting.insert(a.id)
            } else {
                alerting.remove(a.id)
                started.remove(a.id)
                waiting[a.id] = nil
            }
        }
        for r in change.mutation.removals {
            alerting.remove(r.alarm.id)
            started.remove(r.alarm.id)
            waiting[r.alarm.id] = nil
        }
        if locked { startPending() }
    }

    private func askLocked() {
        query += 1
        let asked = query
        do {
            try bus.callAsync(LockScreenAlert.name, LockScreenAlert.path, LockScreenAlert.name, "GetActive", [],
                              timeoutUSec: 10_000_000, autoStart: false) { [weak self] reply in
                guard let self, asked == self.query else { return }
                if let e = reply.error {
                    if !LockScreenAlert.absent.contains(e.name) { Log.info("\(LockScreenAlert.name): GetActive failed (\(e.name)): taken as unlocked") }
                    return
                }
                guard case .bool(let active)? = try? reply.read() else { return }
                self.screen(locked: active)
            }
        } catch {
            Log.info("\(LockScreenAlert.name): GetActive not sent: \(error)")
        }
    }

    private func screen(locked active: Bool) {
        guard active != locked else { return }
        locked = active
        if active { startPending() }
    }

    /// Every episode under way that has not started the program starts it (an alarm stopped later in
    /// the same loop pass, already announced, is no longer alerting: its episode ends with that change).
    private func startPending() {
        for id in alerting.sorted() where !started.contains(id) && engine.alarms[id]?.state == .alerting {
            started.insert(id)
            launch(alarm: id)
        }
    }

    private func launch(alarm id: String) {
        guard access(program, X_OK) == 0 else {
            if !saidMissing {
                saidMissing = true
                Log.info("the screen is locked and alarm \(id) rings, but there is no lock-screen alert at \(program): none is shown (said once)")
            }
            return
        }
        guard !SessionEnvironment.hasDisplay(environment) else { return spawn(alarm: id) }
        starts += 1
        let start = starts
        waiting[id] = start
        sessionEnvironment { [weak self] manager, why in
            guard let self, self.waiting[id] == start else { return }
            self.waiting[id] = nil
            let added = SessionEnvironment.additions(own: self.environment, manager: manager)
            if added.isEmpty, !self.saidNoDisplay {
                self.saidNoDisplay = true
                Log.info("alarmd's environment has no \(SessionEnvironment.display), and \(why ?? "the systemd user manager's has none either"): "
                         + "the lock-screen alert starts with alarmd's environment (said once)")
            }
            self.spawn(alarm: id, setting: added)
        }
    }

    /// Reads the systemd user manager's `Environment`; `done` gets it as names and values, or nothing
    /// and why when no manager answered. Never activates one: a user manager is there before anything
    /// that could ask, or not at all.
    private func sessionEnvironment(_ done: @escaping ([String: String], String?) -> Void) {
        let m = LockScreenAlert.manager
        do {
            // A user manager answers a property at once; 5 s bounds how late a hung one delays the window.
            try bus.callAsync(m.name, m.path, "org.freedesktop.DBus.Properties", "Get", [.string(m.interface), .string("Environment")],
                              timeoutUSec: 5_000_000, autoStart: false) { reply in
                if let e = reply.error { return done([:], "no systemd user manager answered (\(e.name))") }
                guard case .array(_, let items)? = (try? reply.read())?.unwrapped else {
                    return done([:], "the systemd user manager's Environment is not a list of strings")
                }
                done(SessionEnvironment.assignments(items.compactMap { if case .string(let s) = $0 { s } else { nil } }), nil)
            }
        } catch {
            done([:], "the systemd user manager could not be asked (\(error))")
        }
    }

    private func spawn(alarm id: String, setting added: [String: String] = [:]) {
        let program = self.program
        do {
            let pid = try loop.spawn(program, ["--alarm", id], stderr: .inherit, setting: added) { status, _ in
                guard status != 0 else { return }
                Log.warning("lock-screen alert for alarm \(id) failed: \(LockScreenAlert.describe(status))")
            }
            let from = added.isEmpty ? "" : " with " + added.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                + " from the systemd user manager's environment"
            Log.info("lock-screen alert for alarm \(id) started (pid \(pid))\(from)")
        } catch {
            Log.warning("lock-screen alert for alarm \(id) not started: \(program): \(error)")
        }
    }

    /// A wait status, with what the program's exit statuses mean (its README).
    static func describe(_ status: Int32) -> String {
        guard status & 0x7f == 0 else { return "killed by signal \(status & 0x7f)" }
        let code = (status >> 8) & 0xff
        let why = switch code {
        case 1: " (bad arguments, or alarmd unreachable)"
        case 2: " (no Wayland display to connect to)"
        case 3: " (the compositor does not offer it kde_lockscreen_overlay_v1)"
        case 4: " (its window could not be made)"
        default: ""
        }
        return "exit status \(code)\(why)"
    }
}
