import AlarmCore

/// Which app each bus connection speaks for. Cached per connection and dropped when the connection
/// goes away, so a unique name reused by the bus can never inherit an identity.
final class Identity {
    private var registered: [String: String] = [:]

    /// The app id of `sender`: its registered id, else the empty id (the user's own tools).
    func app(for sender: String) -> String { registered[sender] ?? "" }

    /// `RegisterApp`: once per connection; the same id again is harmless, a different one refused.
    func register(sender: String, app: String) throws(AlarmError) {
        let id = try AppID.validate(app)
        if let existing = registered[sender] {
            if existing == id { return }
            throw .invalidState("this connection is already registered as '\(existing)'")
        }
        registered[sender] = id
        Log.info("connection \(sender) registered as app \(id)")
    }

    func forget(sender: String) {
        registered.removeValue(forKey: sender)
    }
}
