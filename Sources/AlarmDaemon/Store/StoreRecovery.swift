// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// The recovery that began the current store: the store alarmd found, why it could not use it,
/// where it kept it, when, and how to get its alarms back. It is written into the fresh store
/// itself, so the `StoreRecovery` property keeps telling it after a restart, and the one
/// notification is shown even when the first session had no notification server; when the user
/// puts the old store back, this record goes with the store it described.
struct StoreRecovery: Equatable {
    typealias Key = Contract.StoreRecovery

    var reason: String
    var detail: String
    var keptPath: String
    /// UTC, ISO 8601.
    var time: String
    var hint: String

    /// The `a{ss}` of the property.
    var properties: [(String, String)] {
        [(Key.reason, reason), (Key.detail, detail), (Key.keptPath, keptPath), (Key.time, time), (Key.hint, hint)]
    }

    var damage: StoreDamage {
        StoreDamage(reason: StoreDamage.Reason(rawValue: reason) ?? .corrupt, detail: detail)
    }

    private static let prefix = "store_recovery."
    /// When the notification was shown; absent until it was.
    private static let shownKey = prefix + "notified"

    func save(to store: Store) throws {
        try store.setMeta(properties.map { (StoreRecovery.prefix + $0.0, $0.1) })
    }

    /// The record the store holds, if it began with a recovery.
    static func load(from store: Store) throws -> StoreRecovery? {
        func field(_ key: String) throws -> String? { try store.meta(prefix + key) }
        guard let reason = try field(Key.reason), let kept = try field(Key.keptPath) else { return nil }
        return StoreRecovery(reason: reason, detail: try field(Key.detail) ?? "", keptPath: kept, time: try field(Key.time) ?? "",
                             hint: try field(Key.hint) ?? "")
    }

    static func wasShown(in store: Store) -> Bool {
        store.metaIfReadable(shownKey) != nil
    }

    static func markShown(in store: Store, at usec: UInt64) throws {
        try store.setMeta(shownKey, KeptStoreName.isoTime(usec))
    }
}

extension StoreRecovery {
    init(damage: StoreDamage, store: String, kept: String, at usec: UInt64) {
        self.init(reason: damage.reason.rawValue, detail: damage.detail, keptPath: kept, time: KeptStoreName.isoTime(usec),
                  hint: damage.hint(store: store, kept: kept))
    }
}
