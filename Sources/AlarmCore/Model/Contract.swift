// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// The names of docs/API.md, defined once: the daemon serves them, every client (AlarmClient,
/// alarmctl, the tests) calls them.
public enum Contract {
    public static let busName = "org.alarmd.AlarmManager1"
    public static let managerPath = "/org/alarmd/AlarmManager1"
    public static let managerInterface = "org.alarmd.AlarmManager1"
    public static let alarmInterface = "org.alarmd.Alarm1"
    public static let alarmPathPrefix = "/org/alarmd/AlarmManager1/alarm"
    public static let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// The manager property `StoreRecovery` (an extension, `a{ss}`, const): why the store alarmd runs on
    /// began empty, when alarmd found the one before it damaged and kept it aside; empty for a store
    /// that never replaced one.
    public enum StoreRecovery {
        public static let property = "StoreRecovery"
        /// Its keys: the reason, what SQLite or the system said, the kept file, when (UTC, ISO 8601),
        /// and how to get the old alarms back.
        public static let reason = "reason"
        public static let detail = "detail"
        public static let keptPath = "kept_path"
        public static let time = "time"
        public static let hint = "hint"
        /// The `category` hint of the one notification that tells the user.
        public static let notificationCategory = "x-alarmd.store-recovery"

        public enum Reason: String, CaseIterable, Sendable {
            case corrupt, truncated, unreadable
            case newerSchema = "newer-schema"
        }
    }

    /// Error names of the contract (and the standard ones alarmd answers with).
    public enum ErrorName {
        public static let notAuthorized = "org.alarmd.Error.NotAuthorized"
        public static let notFound = "org.alarmd.Error.NotFound"
        public static let invalidState = "org.alarmd.Error.InvalidState"
        public static let invalidArgument = "org.alarmd.Error.InvalidArgument"
        public static let alreadyExists = "org.alarmd.Error.AlreadyExists"
        public static let limitReached = "org.alarmd.Error.LimitReached"
        public static let ioError = "org.freedesktop.DBus.Error.IOError"
        public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    }
}
