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
