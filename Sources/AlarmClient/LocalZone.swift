import AlarmCore
import SystemFiles

extension Zone {
    /// The local zone from the system's zone database, as `date` finds it (`TZ`, else
    /// `/etc/localtime`), read once: what a client shows times in.
    public static let local: Zone = ZoneSource.local.initial().zone
}
