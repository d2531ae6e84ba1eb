import AlarmCore
import SDBus

/// The D-Bus surface of docs/API.md. `dbus/*.xml` must agree with these lists (a test checks it).
enum Interfaces {
    static let busName = Contract.busName
    static let manager = Contract.managerInterface
    static let alarm = Contract.alarmInterface
    static let version = "0.1.0"

    static let managerMembers: [Member] = [
        .method("RegisterApp", in: [("app_id", "s")], out: []),
        .method("GetAuthorizationState", in: [], out: [("state", "s")]),
        .method("RequestAuthorization", in: [("usage_description", "s")], out: [("state", "s")]),
        .method("SetAuthorization", in: [("app_id", "s"), ("state", "s")], out: []),
        .method("ListAuthorizations", in: [], out: [("authorizations", "a{ss}")]),
        .method("Schedule", in: [("id", "s"), ("configuration", "a{sv}")], out: [("alarm", "o")]),
        .method("Update", in: [("id", "s"), ("changes", "a{sv}"), ("clear", "as")], out: []),
        .method("Cancel", in: [("id", "s")], out: []),
        .method("Stop", in: [("id", "s")], out: []),
        .method("Pause", in: [("id", "s")], out: []),
        .method("Resume", in: [("id", "s")], out: []),
        .method("Countdown", in: [("id", "s")], out: []),
        .method("GetAlarms", in: [], out: [("alarms", "aa{sv}")]),
        .method("GetAlarmsPage", in: [("after_id", "s"), ("max_count", "u")], out: [("alarms", "aa{sv}"), ("next_after_id", "s")]),
        .property("Version", "s", .const),
        .property("NextFireTimeUSec", "t", .emitsChange),
        .property("WakeSupported", "b", .const),
        .property("StorePath", "s", .const),
        .property(Contract.StoreRecovery.property, "a{ss}", .const),
        .signal("AlarmRemoved", [("id", "s"), ("app_id", "s"), ("reason", "s")]),
        .signal("AuthorizationChanged", [("app_id", "s"), ("state", "s")]),
    ]

    static let alarmMembers: [Member] = [
        .property("Id", "s", .emitsChange),
        .property("AppId", "s", .emitsChange),
        .property("Kind", "s", .emitsChange),
        .property("State", "s", .emitsChange),
        .property("Schedule", "a{sv}", .emitsChange),
        .property("FireTimeUSec", "t", .emitsChange),
        .property("CountdownStartUSec", "t", .emitsChange),
        .property("CountdownTotalUSec", "t", .emitsChange),
        .property("ElapsedUSec", "t", .emitsChange),
        .property("PreAlert", "u", .emitsChange),
        .property("PostAlert", "u", .emitsChange),
        .property("Presentation", "a{sv}", .emitsChange),
        .property("Phase", "s", .emitsChange),
        .property("Metadata", "a{sv}", .emitsChange),
        .property("Sound", "s", .emitsChange),
        .property("Ring", "b", .emitsChange),
        .property("VolumeRamp", "u", .emitsChange),
        .property("SoundError", "s", .emitsChange),
        .property("Progress", "d", .computed),
        .property("RemainingUSec", "t", .computed),
    ]
}
