import AlarmCore
import SDBus

/// Every `org.alarmd.Alarm1` object, served by one fallback vtable (logind-session-dbus style).
final class AlarmObjects: BusObject {
    private let engine: AlarmEngine
    private let identity: Identity

    init(engine: AlarmEngine, identity: Identity) {
        self.engine = engine
        self.identity = identity
    }

    /// Whose alarms the caller may see; nil for a caller that may see none.
    private func visibleApp(_ caller: Message?) -> String? {
        // Outside a call (signals built by sd-bus itself) every object exists.
        guard let caller else { return "" }
        return try? identity.appId(of: caller)
    }

    func exists(path: String, caller: Message?) -> Bool {
        guard let key = AlarmID.key(fromPath: path), let a = engine.alarms[key], let app = visibleApp(caller) else { return false }
        return app.isEmpty || a.appId == app
    }

    func children(caller: Message?) -> [String] {
        guard let app = visibleApp(caller) else { return [] }
        return engine.alarms(visibleTo: app).map(\.path)
    }

    func property(_ name: String, path: String) -> Value? {
        guard let key = key(fromPath: path), let a = engine.alarms[key] else { return nil }
        return a.property(name, now: engine.clock.now())
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

    func handle(_ call: MethodCall) throws(BusError) -> MethodResult {
        throw BusError("org.freedesktop.DBus.Error.UnknownMethod", "org.alarmd.Alarm1 has no methods")
    }
}
