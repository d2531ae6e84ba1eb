// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// Who a caller is, from what the kernel and its sandbox say of it — never from what it claims.
public enum CallerIdentity: Equatable, Sendable {
    /// The user's own tools (alarmctl, busctl, scripts): the empty app id.
    case shell
    /// An app; `sandboxed` apps cannot claim another id.
    case app(String, sandboxed: Bool)
    /// A sandboxed process whose app cannot be told: it may do nothing.
    case unidentified(String)

    /// Who the engine serves it as; nil for a caller that may do nothing.
    public var caller: Caller? {
        switch self {
        case .shell: return .user
        case .app(let id, _): return .app(id)
        case .unidentified: return nil
        }
    }
}

public enum SandboxIdentity {
    /// The app of a Flatpak sandbox from its `/.flatpak-info` (`[Application] name=`).
    /// A file without an application (a bare runtime) names no app.
    static func flatpakApp(infoFile text: String) -> String? {
        let file = KeyFile(text)
        guard let name = file["Application", "name"], (try? AppID.validate(name)) != nil else { return nil }
        return name
    }

    /// The snap of an AppArmor label: `snap.<name>.<app>` or `snap.<name>.hook.<hook>`, optionally
    /// followed by ` (enforce)`/` (complain)`. The app id is `snap.<name>`: authorization is per snap,
    /// as it is per Flatpak app. Other labels (`unconfined`, `snap-update-ns.<name>`, …) are not snaps.
    static func snapApp(appArmorLabel label: String) -> String? {
        let profile = label.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let parts = profile.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "snap", !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
        let id = "snap.\(parts[1])"
        return (try? AppID.validate(id)) != nil ? id : nil
    }

    /// What alarmd could see of a caller's root (`/proc/PID/root`), where a Flatpak app keeps `/.flatpak-info`.
    public enum Root: Equatable, Sendable {
        /// No `/.flatpak-info` there: not a Flatpak sandbox.
        case plain
        /// The text of its `/.flatpak-info`.
        case flatpakInfo(String)
        /// A `/.flatpak-info` that is there but cannot be read (why).
        case unreadableInfo(String)
        /// A root alarmd may not look into (why): a process of another user (root on the user's bus),
        /// or one in a user namespace of its own.
        case uninspectable(String)
    }

    /// Resolution order of the contract: sandbox (Flatpak, then Snap), then `RegisterApp`, then the shell.
    /// A caller whose root cannot be seen is never taken for the user's own tool (failing open would let
    /// a sandbox pass for one); the reason says which case it is, since the remedy differs.
    public static func resolve(root: Root, appArmorLabel: String?, registered: String?) -> CallerIdentity {
        switch root {
        case .flatpakInfo(let info):
            if let app = flatpakApp(infoFile: info) { return .app(app, sandboxed: true) }
            return .unidentified("a Flatpak sandbox without an application name in its /.flatpak-info")
        case .unreadableInfo(let why):
            return .unidentified("a Flatpak sandbox whose /.flatpak-info cannot be read (\(why))")
        case .uninspectable(let why):
            return .unidentified("alarmd may not look into its root to tell whether it is sandboxed (\(why)); "
                                 + "a process of another user (such as root) or in a user namespace of its own cannot use alarmd")
        case .plain:
            break
        }
        if let label = appArmorLabel, let snap = snapApp(appArmorLabel: label) { return .app(snap, sandboxed: true) }
        if let registered { return .app(registered, sandboxed: false) }
        return .shell
    }
}
