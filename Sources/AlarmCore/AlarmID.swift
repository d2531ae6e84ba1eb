import Foundation

/// Alarm ids are lowercase UUIDs; object paths carry them with '-' replaced by '_'.
public enum AlarmID {
    public static let managerPath = Contract.managerPath
    public static let alarmPathPrefix = Contract.alarmPathPrefix

    /// Accepts a UUID in any case, or in its object-path form; returns the canonical id.
    public static func normalize(_ text: String, key: String = "id") throws(AlarmError) -> String {
        let dashed = text.replacingOccurrences(of: "_", with: "-")
        guard dashed.count == 36, let uuid = UUID(uuidString: dashed) else {
            throw .invalidArgument(key: key, reason: "'\(text.prefix(64))' is not a UUID (such as 0b6c2e2a-4f4e-4c41-9d2b-8f0e8c1c9a77)")
        }
        return uuid.uuidString.lowercased()
    }

    public static func make() -> String { UUID().uuidString.lowercased() }

    public static func path(of id: String) -> String {
        alarmPathPrefix + "/" + id.replacingOccurrences(of: "-", with: "_")
    }

    /// The id an alarm object path names, or nil when the path is not an alarm path.
    public static func id(fromPath path: String) -> String? {
        let prefix = alarmPathPrefix + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return try? normalize(String(path.dropFirst(prefix.count)))
    }
}
