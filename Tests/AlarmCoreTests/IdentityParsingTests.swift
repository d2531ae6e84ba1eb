// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Foundation
import Testing

@Suite struct IdentityParsingTests {
    /// As written by Flatpak 1.14 for `flatpak run org.gnome.Clocks`.
    static let clocksInfo = """
        [Application]
        name=org.gnome.Clocks
        runtime=runtime/org.gnome.Platform/x86_64/45

        [Instance]
        instance-id=3360424614
        instance-path=/home/user/.var/app/org.gnome.Clocks
        app-path=/var/lib/flatpak/app/org.gnome.Clocks/x86_64/stable/5b3a/files
        original-app-path=/var/lib/flatpak/app/org.gnome.Clocks/x86_64/stable/5b3a/files
        branch=stable
        arch=x86_64
        flatpak-version=1.14.4
        session-bus-proxy=true
        system-bus-proxy=true
        devel=false

        [Context]
        shared=network;ipc;
        sockets=x11;wayland;pulseaudio;fallback-x11;
        devices=dri;

        [Session Bus Policy]
        org.freedesktop.Notifications=talk
        org.alarmd.AlarmManager1=talk
        """

    /// `flatpak run --command=sh org.freedesktop.Platform//23.08`: a runtime, no application.
    static let runtimeInfo = """
        [Runtime]
        name=org.freedesktop.Platform
        runtime=runtime/org.freedesktop.Platform/x86_64/23.08

        [Instance]
        instance-id=1808431171
        branch=23.08
        arch=x86_64
        flatpak-version=1.14.4
        """

    @Test func flatpakApplicationName() {
        #expect(SandboxIdentity.flatpakApp(infoFile: Self.clocksInfo) == "org.gnome.Clocks")
        #expect(SandboxIdentity.flatpakApp(infoFile: Self.runtimeInfo) == nil)
        #expect(SandboxIdentity.flatpakApp(infoFile: "") == nil)
        #expect(SandboxIdentity.flatpakApp(infoFile: "[Application]\nname=not an id\n") == nil)
        // The name in another group does not count.
        #expect(SandboxIdentity.flatpakApp(infoFile: "[Instance]\nname=org.evil.App\n") == nil)
    }

    @Test(arguments: [
        ("snap.firefox.firefox (enforce)", "snap.firefox"),
        ("snap.spotify.spotify (complain)", "snap.spotify"),
        ("snap.code.code", "snap.code"),
        ("snap.lxd.hook.configure (enforce)", "snap.lxd"),
        ("snap.gnome-clocks.gnome-clocks (enforce)", "snap.gnome-clocks"),
    ])
    func snapLabels(_ label: String, _ app: String) {
        #expect(SandboxIdentity.snapApp(appArmorLabel: label) == app)
    }

    @Test(arguments: ["unconfined", "snap-update-ns.firefox (enforce)", "/usr/bin/evince (enforce)", "snap.firefox",
                      "snap..x", "libreoffice-soffice (enforce)", "system_u:system_r:unconfined_t:s0", ""])
    func notSnaps(_ label: String) {
        #expect(SandboxIdentity.snapApp(appArmorLabel: label) == nil)
    }

    @Test func resolutionOrder() {
        // A sandbox wins over whatever the caller registered.
        #expect(SandboxIdentity.resolve(root: .flatpakInfo(Self.clocksInfo), appArmorLabel: "snap.x.y", registered: "org.other.App")
                == .app("org.gnome.Clocks", sandboxed: true))
        #expect(SandboxIdentity.resolve(root: .plain, appArmorLabel: "snap.firefox.firefox (enforce)", registered: "org.mozilla.firefox")
                == .app("snap.firefox", sandboxed: true))
        #expect(SandboxIdentity.resolve(root: .plain, appArmorLabel: "unconfined", registered: "org.example.Clock")
                == .app("org.example.Clock", sandboxed: false))
        #expect(SandboxIdentity.resolve(root: .plain, appArmorLabel: nil, registered: nil) == .shell)
        // A sandbox that cannot be told is never the user's own tool.
        if case .unidentified = SandboxIdentity.resolve(root: .flatpakInfo(Self.runtimeInfo), appArmorLabel: nil, registered: nil) {} else {
            Issue.record("a runtime-only Flatpak must not be the shell")
        }
        #expect(SandboxIdentity.resolve(root: .unreadableInfo("x"), appArmorLabel: nil, registered: nil).caller == nil)
    }

    /// Each refusal names its real cause: a root process on the user's bus is not "a Flatpak sandbox".
    @Test func refusalsNameTheirCause() {
        func why(_ root: SandboxIdentity.Root) -> String {
            if case .unidentified(let why) = SandboxIdentity.resolve(root: root, appArmorLabel: nil, registered: "org.example.App") { return why }
            return "not refused"
        }
        let uninspectable = why(.uninspectable("/proc/42/root: Permission denied"))
        #expect(uninspectable.contains("may not look into its root") && uninspectable.contains("Permission denied")
                && uninspectable.contains("another user") && !uninspectable.contains("Flatpak"), "\(uninspectable)")
        #expect(why(.unreadableInfo("/proc/42/root/.flatpak-info cannot be read")).contains("cannot be read"))
        #expect(why(.flatpakInfo(Self.runtimeInfo)).contains("without an application name"))
    }

    @Test func desktopEntryNames() {
        let entry = "[Desktop Entry]\nType=Application\nName=Clocks\nName[de]=Uhren\nName[pt_BR]=Relógios\n\n[Desktop Action New]\nName=New Alarm\n"
        #expect(DesktopEntry.displayName(entry) == "Clocks")
        #expect(DesktopEntry.displayName(entry, languages: ["de_DE", "de"]) == "Uhren")
        #expect(DesktopEntry.displayName(entry, languages: ["pt_BR", "pt"]) == "Relógios")
        #expect(DesktopEntry.displayName("[Desktop Action New]\nName=New Alarm\n") == nil)
    }

    @Test func appIds() {
        for ok in ["org.gnome.Clocks", "com.example.My_App", "io.github.some-one.Timer", "snap.firefox"] {
            #expect((try? AppID.validate(ok)) == ok)
        }
        for bad in ["", "clocks", "org..x", ".org.x", "org.1x", "org.x y", String(repeating: "a.", count: 200) + "b"] {
            #expect((try? AppID.validate(bad)) == nil, "\(bad)")
        }
    }
}

@Suite struct DaemonConfigTests {
    @Test func defaultsWithoutAFile() {
        let (c, warnings) = DaemonConfig.parse("", file: "alarmd.conf")
        #expect(c == DaemonConfig() && warnings.isEmpty)
        #expect(c.policy.unknownApps == .ask && c.policy.shellAuthorized && c.promptTimeout == 120)
        #expect(c.limits.maxAlarmsPerApp == 1024 && c.limits.maxAlarmsShell == 0 && c.ringTimeout == 600 && c.missedGrace == 60)
    }

    @Test func callLimits() {
        #expect(DaemonConfig().callLimit == .init(burst: 1_000, perSecond: 500) && DaemonConfig().shellCallLimit.isUnlimited)
        let (c, warnings) = DaemonConfig.parse("[limits]\ncalls_burst = 10\ncalls_per_second = 0\nshell_calls_burst = 5\nshell_calls_per_second = 2\n", file: "f")
        #expect(warnings.isEmpty)
        #expect(c.callLimit == .init(burst: 10, perSecond: 0) && c.callLimit.isUnlimited, "0 = unlimited")
        #expect(c.shellCallLimit == .init(burst: 5, perSecond: 2) && !c.shellCallLimit.isUnlimited)
        let (bad, w) = DaemonConfig.parse("[limits]\ncalls_burst = -1\n", file: "f")
        #expect(bad.callLimit.burst == 1_000 && w.count == 1 && w[0].contains("calls_burst"))
    }

    @Test func maxSoundBytes() {
        #expect(DaemonConfig().maxSoundBytes == 8 << 20, "8 MiB by default")
        for (text, bytes) in [("0", 0), ("1000", 1000), ("512K", 512 << 10), ("512KiB", 512 << 10), ("8M", 8 << 20),
                              ("3MiB", 3 << 20), ("64M", 64 << 20), ("67108864", 64 << 20)] {
            let (c, warnings) = DaemonConfig.parse("[limits]\nmax_sound_bytes = \(text)\n", file: "f")
            #expect(warnings.isEmpty && c.maxSoundBytes == bytes, "\(text)")
        }
        // Over libcanberra's 64 MiB, negative, a fraction, another unit, spaces, digits of another script,
        // a number that overflows: each reported, the default kept.
        for text in ["65M", "67108865", "-1", "1.5M", "8G", "8 M", "8m", "M", "", "٣M", "99999999999999999999"] {
            let (c, warnings) = DaemonConfig.parse("[limits]\nmax_sound_bytes = \(text)\n", file: "f")
            #expect(c.maxSoundBytes == 8 << 20 && warnings.count == 1, "'\(text)': \(warnings)")
            #expect(warnings.first?.contains("f:2: max_sound_bytes: '\(text)' is not a size between 0 and 64 MiB") == true, "\(warnings)")
        }
    }

    @Test func maxWaitingCalls() {
        #expect(DaemonConfig().maxWaitingCalls == 16)
        for (text, n) in [("1", 1), ("3", 3), ("10000", 10_000)] {
            let (c, warnings) = DaemonConfig.parse("[limits]\nmax_waiting_calls = \(text)\n", file: "f")
            #expect(warnings.isEmpty && c.maxWaitingCalls == n, "\(text): \(warnings)")
        }
        // 0 would refuse every first Schedule of an undecided app without asking: refused, as the rest.
        for text in ["0", "-1", "10001", "x", ""] {
            let (c, warnings) = DaemonConfig.parse("[limits]\nmax_waiting_calls = \(text)\n", file: "f")
            #expect(c.maxWaitingCalls == 16 && warnings.count == 1 && warnings[0].contains("f:2: max_waiting_calls"), "'\(text)': \(warnings)")
        }
    }

    @Test func everyKey() {
        let (c, warnings) = DaemonConfig.parse("""
            # comment
            [authorization]
            default = deny
            shell = deny
            prompt_timeout = 30
            [limits]
            max_alarms_per_app = 10
            max_alarms_shell = 5
            [ringing]
            ring_timeout = 120
            [time]
            missed_grace = 0
            """, file: "f")
        #expect(warnings.isEmpty)
        #expect(c.policy == AuthorizationPolicy(unknownApps: .deny, shellAuthorized: false))
        #expect(c.promptTimeout == 30 && c.limits == Limits(maxAlarmsPerApp: 10, maxAlarmsShell: 5) && c.ringTimeout == 120 && c.missedGrace == 0)
        #expect(c.policy.initialState(for: .user) == .denied && c.policy.initialState(for: .app("org.x.Y")) == .denied)
    }

    @Test func malformedLinesAreReportedWithFileAndLineAndDefaultsKept() {
        let (c, warnings) = DaemonConfig.parse("""
            [authorization]
            default = sometimes
            prompt_timeout = -3
            shell
            [limits
            max_alarms_per_app = 7
            [ringing]
            ring_timeout = 0
            colour = red
            """, file: "/home/u/.config/alarmd/alarmd.conf")
        #expect(c.policy.unknownApps == .ask && c.promptTimeout == 120 && c.ringTimeout == 600)
        #expect(c.limits.maxAlarmsPerApp == 1024, "a key after a broken group header belongs to no group")
        let lines = warnings.map { $0.split(separator: ":").dropFirst().first.map(String.init) ?? "" }
        #expect(lines.count == 7 && Set(lines) == ["2", "3", "4", "5", "6", "8", "9"], "\(warnings)")
        #expect(warnings.allSatisfy { $0.hasPrefix("/home/u/.config/alarmd/alarmd.conf:") })
    }
}

extension DaemonConfigTests {
    /// The shipped example documents the defaults exactly.
    @Test func shippedExampleIsTheDefaults() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let text = try String(contentsOf: url.appendingPathComponent("data/alarmd.conf.example"), encoding: .utf8)
        let (c, warnings) = DaemonConfig.parse(text, file: "alarmd.conf")
        #expect(warnings.isEmpty && c == DaemonConfig())
    }
}
