// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import SDBus

/// The typed face of `org.alarmd.AlarmManager1`: every method and property of docs/API.md.
///
/// Each method is one blocking call to alarmd over ``bus``, which waits at most 25 seconds for the
/// reply. A call to an alarmd that is not running starts it through D-Bus activation where it is
/// installed. A failed call throws the `BusError` alarmd or the bus answered with: its `name` is one
/// of the error names of docs/API.md (also in `Contract.ErrorName`), its `message` says what was
/// wrong in words; ``ClientFailure`` sorts it by what a person can do about it. What an app calls,
/// and in which order, is in docs/app-developers.md ("What an app does").
public final class AlarmManagerProxy {
    /// The connection every call goes over; an ``AlarmMirror`` made on this proxy listens on it too.
    public let bus: Bus

    /// A proxy on a connection the caller already has.
    ///
    /// - Parameter bus: The connection to alarmd's bus. Names an app gives with ``registerApp(_:)``
    ///   belong to this connection.
    public init(bus: Bus) { self.bus = bus }

    /// The session bus, or the bus at `address`.
    ///
    /// - Parameter address: A D-Bus address such as `unix:path=/run/user/1000/bus`, as alarmctl's
    ///   `--address` takes it (a private bus, in tests); nil for the session bus
    ///   (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    /// - Throws: `BusError` when there is no such bus or it refuses the connection.
    public convenience init(address: String?) throws(BusError) {
        let bus: Bus
        if let address { bus = try Bus.connect(address: address) } else { bus = try Bus.session() }
        self.init(bus: bus)
    }

    /// Calls a method of `org.alarmd.AlarmManager1` on alarmd's manager object by its name: for the
    /// methods this proxy has no typed form of, such as `GetAlarmsPage`.
    ///
    /// - Parameters:
    ///   - member: The method's name, as docs/API.md writes it (`GetAlarmsPage`).
    ///   - args: Its arguments, in the types of its D-Bus signature.
    /// - Returns: The values of the reply, in order; none for a method that returns nothing.
    /// - Throws: `BusError`, with the name of the error alarmd or the bus answered with.
    @discardableResult
    public func call(_ member: String, _ args: [Value] = []) throws(BusError) -> [Value] {
        try bus.call(Contract.busName, Contract.managerPath, Contract.managerInterface, member, args)
    }

    /// Whether alarmd owns its name now (without starting it through D-Bus activation).
    ///
    /// False also when the bus cannot be asked.
    public var isRunning: Bool {
        let r = try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                              [.string(Contract.busName)])
        return r?.first == .bool(true)
    }

    // MARK: signals

    /// Asks alarmd to send this connection its signals (`Watch`): `InterfacesAdded`,
    /// `InterfacesRemoved` and `PropertiesChanged` of the alarms the caller may see, `AlarmRemoved`,
    /// `AuthorizationChanged`, and the manager's `NextFireTimeUSec` changes.
    ///
    /// alarmd broadcasts none of them: each is addressed to a connection that watches, and tells it
    /// only of its own app's alarms (all of them for the user's own tools). A watch lasts until the
    /// connection closes or calls ``unwatch()``; call it again whenever alarmd (re)appears on the bus,
    /// after subscribing and before reading the alarms, so no change falls in between.
    ///
    /// - Throws: `BusError`: `org.alarmd.Error.NotAuthorized` for a caller alarmd cannot identify.
    public func watch() throws(BusError) { try call("Watch") }

    /// Stops the signals ``watch()`` asked for (`Unwatch`); harmless when not watching.
    ///
    /// - Throws: `BusError` when the call fails (alarmd not running).
    public func unwatch() throws(BusError) { try call("Unwatch") }

    // MARK: identity and authorization

    /// Names the calling app (`RegisterApp`), once per connection, before its first other call.
    ///
    /// An app in a Flatpak sandbox or a Snap is known by its sandbox and need not call it
    /// (docs/API.md, "App identity and authorization").
    ///
    /// - Parameter appId: The app's reverse-DNS id, such as `org.example.Clock`: its desktop
    ///   entry's file name without `.desktop`, where alarmd finds the name and icon it shows.
    /// - Throws: `BusError`: `org.alarmd.Error.InvalidArgument` for an id that is not a valid app
    ///   id, `InvalidState` when this connection already gave another id (the same one again is
    ///   harmless), `NotAuthorized` when a sandboxed app names an id other than its own.
    public func registerApp(_ appId: String) throws(BusError) { try call("RegisterApp", [.string(appId)]) }

    /// The caller's authorization state (`GetAuthorizationState`), without asking the user.
    ///
    /// - Returns: `authorized`, `denied` or `notDetermined`; nil for a state this library does not
    ///   know (a newer alarmd's).
    /// - Throws: `BusError` when the call fails.
    public func authorizationState() throws(BusError) -> AuthorizationState? {
        try call("GetAuthorizationState").first?.stringValue.flatMap(AuthorizationState.init(rawValue:))
    }

    /// Asks the user whether the caller may ring alarms (`RequestAuthorization`), when it is
    /// `notDetermined`; otherwise answers at once.
    ///
    /// The reply comes when the user answers the prompt. A prompt left longer than the 25 seconds this
    /// proxy waits ends the call with a timeout error (which ``ClientFailure`` reads as
    /// ``ClientFailure/notRunning``), while the prompt stays: the answer, when it comes, is announced
    /// as ``MirrorEvent/authorizationChanged(app:state:)``, and ``authorizationState()`` reads it.
    ///
    /// - Parameter usage: Why the app rings alarms, in words for the user (AlarmKit's usage
    ///   description); not empty, at most 512 characters.
    /// - Returns: The state after the question: `authorized`, `denied` or `notDetermined` (the
    ///   prompt closed, or timed out, without an answer); nil for a state this library does not know.
    /// - Throws: `BusError`: `org.alarmd.Error.InvalidArgument` for an empty or too long `usage`.
    public func requestAuthorization(usage: String) throws(BusError) -> AuthorizationState? {
        try call("RequestAuthorization", [.string(usage)]).first?.stringValue.flatMap(AuthorizationState.init(rawValue:))
    }

    /// Grants, denies or resets an app's authorization (`SetAuthorization`): for the user's own
    /// tools only, as `alarmctl auth` is.
    ///
    /// Denying an app removes its alarms (``MirrorEvent/removed(_:reason:)`` with the reason
    /// `revoked`).
    ///
    /// - Parameters:
    ///   - app: The app's id; empty for the user's own tools.
    ///   - state: `authorized`, `denied` or `notDetermined` (reset).
    /// - Throws: `BusError`: `org.alarmd.Error.NotAuthorized` when the caller is an app,
    ///   `InvalidArgument` for an id that is not an app id.
    public func setAuthorization(app: String, state: AuthorizationState) throws(BusError) {
        try call("SetAuthorization", [.string(app), .string(state.rawValue)])
    }

    /// Every app alarmd knows and its authorization state (`ListAuthorizations`): for the user's
    /// own tools only.
    ///
    /// - Returns: One pair per app, in no particular order; the state nil where this library does
    ///   not know it (a newer alarmd's).
    /// - Throws: `BusError`: `org.alarmd.Error.NotAuthorized` when the caller is an app.
    public func authorizations() throws(BusError) -> [(app: String, state: AuthorizationState?)] {
        guard case .dict(_, _, let entries)? = try call("ListAuthorizations").first else { return [] }
        return entries.compactMap { e in
            guard let app = e.key.stringValue, let state = e.value.stringValue else { return nil }
            return (app, AuthorizationState(rawValue: state))
        }
    }

    // MARK: alarms

    /// Schedules and returns the new alarm's id.
    ///
    /// An alarm rings at a time of day (`hour`, `minute`, and `weekdays` to repeat) or at an instant
    /// (`fixed_date`); a timer after a `duration` or at an `end_date`. The keys, their types and
    /// limits are docs/API.md's "Configuration keys".
    ///
    /// ```swift
    /// let id = try proxy.schedule([("title", .string("Tea")), ("duration", .uint64(4 * 60))])
    /// ```
    ///
    /// - Parameters:
    ///   - id: The alarm's id, a UUID of the caller's choosing; empty for a new one.
    ///   - configuration: The configuration keys and their values, each key once.
    /// - Returns: The alarm's id: a lowercase UUID.
    /// - Throws: `BusError`: `org.alarmd.Error.NotAuthorized` when the app is not authorized (an
    ///   undecided app is asked, as by ``requestAuthorization(usage:)``), `InvalidArgument` naming
    ///   the key that is wrong, `AlreadyExists` for an `id` in use, `LimitReached` when the app has as
    ///   many alarms as it may, or calls faster than it may.
    @discardableResult
    public func schedule(id: String = "", _ configuration: [(String, Value)]) throws(BusError) -> String {
        let r = try call("Schedule", [.string(id), .vardict(configuration)])
        guard case .objectPath(let p)? = r.first, let id = AlarmID.id(fromPath: p) else {
            throw BusError(BusError.failed, "Schedule answered without an alarm path")
        }
        return id
    }

    /// Changes some keys of an alarm and keeps the others (`Update`).
    ///
    /// A new `duration` or `end_date` re-arms the countdown.
    ///
    /// - Parameters:
    ///   - id: The alarm's id.
    ///   - changes: The keys to set, as ``schedule(id:_:)`` takes them.
    ///   - clear: The keys to take back to their defaults (`weekdays`: no longer repeat).
    /// - Throws: `BusError`: `org.alarmd.Error.NotFound` for an alarm the caller does not own,
    ///   `InvalidArgument` naming a key that is wrong.
    public func update(_ id: String, changes: [(String, Value)], clear: [String] = []) throws(BusError) {
        try call("Update", [.string(id), .vardict(changes), .strings(clear)])
    }

    /// Removes an alarm in any state, a repeating one with all its occurrences (`Cancel`).
    ///
    /// - Parameter id: The alarm's id.
    /// - Throws: `BusError`: `org.alarmd.Error.NotFound` for an alarm the caller does not own.
    public func cancel(_ id: String) throws(BusError) { try call("Cancel", [.string(id)]) }
    /// Switches an alarm on or off (`Update` of `enabled`): one that is off keeps everything but never
    /// rings; switched on, it rings at its next occurrence from then.
    ///
    /// - Throws: `BusError`: `org.alarmd.Error.NotFound` for an alarm the caller does not own,
    ///   `InvalidArgument` for a timer (pause it instead) or a one-shot whose date has passed.
    public func setEnabled(_ id: String, _ on: Bool) throws(BusError) {
        try update(id, changes: [("enabled", .bool(on))])
    }
    /// Stops a ringing alarm (`Stop`): a one-shot is removed, a repeating alarm rescheduled to its
    /// next occurrence.
    ///
    /// - Parameter id: The alarm's id.
    /// - Throws: `BusError`: `org.alarmd.Error.NotFound` for an alarm the caller does not own,
    ///   `InvalidState` when it is not ringing.
    public func stop(_ id: String) throws(BusError) { try call("Stop", [.string(id)]) }
    /// Pauses a countdown (`Pause`); its remaining time stays as it is until ``resume(_:)``.
    ///
    /// - Parameter id: The alarm's id.
    /// - Throws: `BusError`: `org.alarmd.Error.NotFound` for an alarm the caller does not own,
    ///   `InvalidState` when it is not counting down.
    public func pause(_ id: String) throws(BusError) { try call("Pause", [.string(id)]) }
    /// Resumes a paused countdown (`Resume`).
    ///
    /// - Parameter id: The alarm's id.
    /// - Throws: `BusError`: `org.alarmd.Error.NotFound` for an alarm the caller does not own,
    ///   `InvalidState` when it is not paused.
    public func resume(_ id: String) throws(BusError) { try call("Resume", [.string(id)]) }
    /// Snooze (or repeat) an alerting alarm: AlarmKit's countdown intent.
    ///
    /// The alarm counts down its `post_alert` seconds and rings again (`Countdown`).
    ///
    /// - Parameter id: The alarm's id.
    /// - Throws: `BusError`: `org.alarmd.Error.NotFound` for an alarm the caller does not own,
    ///   `InvalidState` when it is not ringing.
    public func countdown(_ id: String) throws(BusError) { try call("Countdown", [.string(id)]) }

    /// Every alarm the caller may see; pages through `GetAlarmsPage` when one reply cannot hold them.
    ///
    /// An app sees its own alarms, the user's own tools every app's.
    ///
    /// - Returns: The alarms, in no particular order (``AlarmSnapshot/readingOrder(_:)`` sorts them).
    /// - Throws: `BusError` when the call fails.
    public func alarms() throws(BusError) -> [AlarmSnapshot] {
        do {
            guard case .array(_, let items)? = try call("GetAlarms").first else { return [] }
            return items.compactMap(AlarmSnapshot.init)
        } catch where error.name == Contract.ErrorName.limitsExceeded {
            var out: [AlarmSnapshot] = [], after = ""
            repeat {
                let r = try call("GetAlarmsPage", [.string(after), .uint32(0)])
                guard r.count == 2, case .array(_, let items) = r[0], case .string(let next) = r[1] else { break }
                out += items.compactMap(AlarmSnapshot.init)
                after = next
            } while !after.isEmpty
            return out
        }
    }

    // MARK: an app's own sound

    /// The value of `sound_file` for the file at `path`, opened here for reading: an app's own sound,
    /// handed to alarmd open, which keeps a copy of it and rings with that (an extension of the
    /// contract, docs/API.md).
    ///
    /// A sandboxed app cannot give alarmd a path (it means nothing outside the sandbox), but it can
    /// give it the open file. Put the value into the configuration of ``schedule(id:_:)`` or the
    /// changes of ``update(_:changes:clear:)``, instead of `sound`:
    ///
    /// ```swift
    /// let ring = try AlarmManagerProxy.soundFile(atPath: "/app/share/sounds/ring.oga")
    /// try proxy.schedule([("title", .string("Tea")), ("duration", .uint64(240)), ("sound_file", ring)])
    /// ```
    ///
    /// alarmd answers `org.alarmd.Error.InvalidArgument`, naming `sound_file` and why, for a file
    /// that is not a WAV (PCM) or Ogg Vorbis file libcanberra can play, one larger than its
    /// `max_sound_bytes` (8 MiB unless configured), and for anything that is not a regular file.
    ///
    /// - Parameter path: The sound file, absolute or relative to the working directory.
    /// - Returns: The open file as a `Value`; it is closed once the value and every copy of it are gone.
    /// - Throws: `BusError` saying why the file cannot be opened (its message names `path`).
    public static func soundFile(atPath path: String) throws(BusError) -> Value {
        .unixFD(try UnixFD.open(readingFrom: path))
    }

    /// The value of `sound_file` for a file the app already holds open, as ``soundFile(atPath:)``
    /// makes it from a path.
    ///
    /// alarmd reads the file from its start whatever the descriptor's offset, which it leaves as it
    /// is.
    ///
    /// - Parameter descriptor: An open descriptor of the sound file, readable. It stays the caller's
    ///   to close: the value holds a duplicate of its own.
    /// - Returns: A duplicate of `descriptor` as a `Value`, closed once the value and every copy of it
    ///   are gone.
    /// - Throws: `BusError` when `descriptor` cannot be duplicated (it is not open).
    public static func soundFile(descriptor: Int32) throws(BusError) -> Value {
        .unixFD(try UnixFD.duplicate(descriptor))
    }

    // MARK: properties

    /// Reads a property of `org.alarmd.AlarmManager1`: for those this proxy has no typed form of.
    ///
    /// - Parameter name: The property's name, as docs/API.md writes it (`NextFireTimeUSec`).
    /// - Returns: Its value, out of its variant; an empty string when the reply holds none.
    /// - Throws: `BusError`, such as `org.freedesktop.DBus.Error.UnknownProperty` for a name
    ///   alarmd does not have.
    public func property(_ name: String) throws(BusError) -> Value {
        let r = try bus.call(Contract.busName, Contract.managerPath, Contract.propertiesInterface, "Get",
                             [.string(Contract.managerInterface), .string(name)])
        return r.first?.unwrapped ?? .string("")
    }

    /// alarmd's version (`Version`); empty when it cannot be read.
    public var version: String { (try? property("Version"))?.stringValue ?? "" }
    /// Realtime µs of the earliest pending alert of any app, 0 if none.
    ///
    /// 0 also when it cannot be read (`NextFireTimeUSec`).
    public var nextFireTime: USec {
        if case .uint64(let t)? = try? property("NextFireTimeUSec") { return t }
        return 0
    }
    /// Whether alarms wake the machine from suspend, as alarmd found at start-up (`WakeSupported`);
    /// false when it cannot be read.
    public var wakeSupported: Bool { (try? property("WakeSupported"))?.boolValue ?? false }
    /// Where alarmd keeps its alarms (an extension: `StorePath`).
    ///
    /// Empty when it cannot be read.
    public var storePath: String { (try? property("StorePath"))?.stringValue ?? "" }
    /// Why the store began empty, when alarmd set a damaged one aside (an extension:
    /// `StoreRecovery`, keys in `Contract.StoreRecovery`); empty otherwise, and from an alarmd
    /// that predates it.
    public var storeRecovery: [String: String] {
        guard case .dict(_, _, let entries)? = try? property(Contract.StoreRecovery.property) else { return [:] }
        return Dictionary(entries.compactMap { e in e.key.stringValue.flatMap { k in e.value.stringValue.map { (k, $0) } } },
                          uniquingKeysWith: { a, _ in a })
    }
}
