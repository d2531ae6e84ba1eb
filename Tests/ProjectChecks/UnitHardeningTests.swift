// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import Glibc
import TestSupport
import Testing

/// systemd/alarmd.service is as confined as a user unit can be, and alarmd can still do its work in it.
/// Three levels: what `systemd-analyze` says of the unit file, what the file must and must not say,
/// and (as root) the built alarmd run for real by a systemd user manager under the unit
/// (Tests/unit-sandbox/run).
@Suite struct UnitHardeningTests {
    /// The exposure `systemd-analyze security --offline=yes --user` gives the unit, which its comment
    /// states and explains: the floor for a user unit that keeps Flatpak identity (see the unit).
    static let exposureFloor = 5.9

    /// Settings the unit must not use; its comment says why of each (ignored by a user manager, fatal
    /// to the unit, or breaking alarmd).
    static let refused = ["PrivateUsers", "ProtectProc", "ProcSubset", "ProtectSystem", "ProtectHome", "ReadWritePaths",
                          "PrivateTmp", "PrivateMounts", "PrivateNetwork", "PrivateIPC", "ProtectKernelTunables",
                          "ProtectControlGroups", "ProtectHostname", "IPAddressDeny", "DevicePolicy", "DeviceAllow",
                          "StateDirectory", "ConfigurationDirectory", "CapabilityBoundingSet", "ProtectClock",
                          "ProtectKernelModules", "ProtectKernelLogs", "PrivateDevices", "User", "DynamicUser",
                          "RootDirectory", "RemoveIPC", "AmbientCapabilities"]

    func unitText() throws -> String {
        try String(contentsOfFile: Products.sourceRoot + "/systemd/alarmd.service", encoding: .utf8)
    }

    /// `[Service]` assignments of a unit: key → values, in order.
    func serviceSettings(_ unit: String) -> [String: [String]] {
        var settings: [String: [String]] = [:]
        var section = ""
        for raw in unit.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") { section = line; continue }
            guard section == "[Service]", let eq = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<eq]), default: []].append(String(line[line.index(after: eq)...]))
        }
        return settings
    }

    /// Runs systemd-analyze on the unit as `make install` renders it (ExecStart = the built alarmd),
    /// with `dropIns` in alarmd.service.d/ beside it. XDG_RUNTIME_DIR is a private 0700 directory:
    /// without one `--user` fails ("Failed to lookup RuntimeDirectory path").
    func analyze(_ args: [String], dropIns: [String] = []) throws -> (status: Int32, out: String, err: String) {
        let dir = TempDir("alarmd-unit")
        let runtime = TempDir("alarmd-runtime")  // mkdtemp: 0700
        let rendered = try unitText().replacingOccurrences(of: "/usr/local/bin/alarmd", with: Products.alarmd)
        try rendered.write(toFile: dir.path + "/alarmd.service", atomically: true, encoding: .utf8)
        if !dropIns.isEmpty {
            try FileManager.default.createDirectory(atPath: dir.path + "/alarmd.service.d", withIntermediateDirectories: true)
            for name in dropIns {
                try FileManager.default.copyItem(atPath: Products.sourceRoot + "/systemd/" + name, toPath: dir.path + "/alarmd.service.d/" + name)
            }
        }
        let man = try shippedManPages()
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime.path
        env["MANPATH"] = man.path
        return try withExtendedLifetime((dir, runtime, man)) {
            try runCommand("/usr/bin/systemd-analyze", args + [dir.path + "/alarmd.service"], environment: env)
        }
    }

    func exposure(dropIns: [String] = []) throws -> Double {
        let r = try analyze(["security", "--offline=yes", "--user"], dropIns: dropIns)
        #expect(r.status == 0, "systemd-analyze security: \(r.err)")
        let line = try #require(r.out.split(separator: "\n").first { $0.contains("Overall exposure level for alarmd.service:") },
                                "no overall exposure in:\n\(r.out)\(r.err)")
        let number = line.split(separator: ":").last!.split(separator: " ").first!
        return try #require(Double(number), "cannot read the exposure in '\(line)'")
    }

    @Test func exposureIsTheDocumentedFloor() throws {
        let value = try exposure()
        #expect(value <= Self.exposureFloor, "systemd-analyze rates the unit \(value), more than \(Self.exposureFloor)")
        #expect(try unitText().contains("rates this unit \(String(format: "%.1f", value))"),
                "the unit's comment does not state the exposure systemd-analyze gives it (\(value))")
    }

    /// The wake drop-in composes with the unit: it verifies, and adds the ambient capability only.
    @Test func wakeDropInVerifies() throws {
        let r = try analyze(["verify", "--user"], dropIns: ["wake-alarm.conf"])
        #expect(r.status == 0)
        #expect(r.err.isEmpty, "systemd-analyze said: \(r.err)")
        let dropIn = try String(contentsOfFile: Products.sourceRoot + "/systemd/wake-alarm.conf", encoding: .utf8)
        #expect(serviceSettings(dropIn) == ["AmbientCapabilities": ["CAP_WAKE_ALARM"]])
        #expect(try exposure(dropIns: ["wake-alarm.conf"]) <= Self.exposureFloor + 0.1)
    }

    @Test func keepsWhatAlarmdNeeds() throws {
        let unit = try unitText()
        let s = serviceSettings(unit)
        // The session bus, the system bus and the sound server are local sockets.
        let families = try #require(s["RestrictAddressFamilies"], "no RestrictAddressFamilies=")
        #expect(families.allSatisfy { !$0.hasPrefix("~") } && families.contains { $0.split(separator: " ").contains("AF_UNIX") },
                "RestrictAddressFamilies= must allow AF_UNIX: \(families)")
        #expect(s["NoNewPrivileges"] == ["yes"])
        #expect(s["UMask"] == ["0077"])
        #expect(s["SystemCallErrorNumber"] == ["EPERM"], "a refused system call must fail, not kill alarmd")
        for key in Self.refused {
            #expect(s[key] == nil, "\(key)= is set; the unit's comment explains why it must not be")
            #expect(unit.contains("\(key)="), "the unit's comment does not say why \(key)= is not used")
        }
    }

    /// The system calls alarmd makes pass the unit's filter (systemd's own group definitions,
    /// expanded): its timer, the time-zone watch, the event loop, the sound library's memfd.
    @Test func systemCallFilterAllowsWhatAlarmdCalls() throws {
        let r = try runCommand("/usr/bin/systemd-analyze", ["syscall-filter"])
        try #require(r.status == 0, "systemd-analyze syscall-filter: \(r.err)")
        var groups: [String: [String]] = [:]
        var current: String?
        for raw in r.out.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if raw.hasPrefix("@") { current = String(line.split(separator: " ").first!); groups[current!] = []; continue }
            if let current { groups[current]!.append(String(line.split(separator: " ").first!)) }
        }
        func expand(_ item: String) -> Set<String> {
            guard item.hasPrefix("@") else { return [item] }
            return (groups[item] ?? []).reduce(into: Set<String>()) { $0.formUnion(expand($1)) }
        }
        var allowed = Set<String>()
        for value in serviceSettings(try unitText())["SystemCallFilter"] ?? [] {
            let deny = value.hasPrefix("~")
            let items = (deny ? String(value.dropFirst()) : value).split(separator: " ").map(String.init)
            let set = items.reduce(into: Set<String>()) { $0.formUnion(expand($1)) }
            if deny { allowed.subtract(set) } else { allowed.formUnion(set) }
        }
        #expect(allowed.count > 100, "could not read systemd's system call groups")
        for call in ["timerfd_create", "timerfd_settime", "clock_gettime", "inotify_init1", "inotify_add_watch",
                     "epoll_create1", "epoll_ctl", "epoll_wait", "signalfd4", "eventfd2", "memfd_create", "mmap",
                     "mprotect", "sendmsg", "recvmsg", "connect", "socket", "fsync", "fdatasync", "pwrite64",
                     "execve", "clone3", "pipe2", "futex", "getrandom", "prctl"] {
            #expect(allowed.contains(call), "the unit's SystemCallFilter= refuses \(call)")
        }
    }

    /// systemd/alarmd-wake-generator, run as a user manager runs it (a child of a process named systemd,
    /// as a normal user, with the output directories as arguments), writes the wake drop-in exactly when
    /// that parent holds CAP_WAKE_ALARM and systemd (what `systemctl --version` says) is not 255 or 256.
    /// The parent is /bin/sh under the name systemd, given the capability or not by setpriv; a
    /// `systemctl` earlier on PATH tells the version. The real managers (systemd 252 and 257) run it in
    /// Tests/package/run. Needs root (setpriv switches to nobody, with or without the capability).
    @Test(.enabled(if: geteuid() == 0, "needs root")) func wakeGeneratorFollowsTheManagersCapability() throws {
        let dir = TempDir("alarmd-generator")
        chmod(dir.path, 0o755)
        let fm = FileManager.default
        // Every program here is written with writeExecutable: a plain copy races with other tests' children (ETXTBSY).
        let generator = dir.path + "/alarmd-wake-generator"
        try copyExecutable(Products.sourceRoot + "/systemd/alarmd-wake-generator", to: generator)
        let text = try String(contentsOfFile: generator, encoding: .utf8)
        #expect(text.contains("SPDX-License-Identifier: LGPL-2.1-or-later"))
        try fm.createDirectory(atPath: dir.path + "/bin", withIntermediateDirectories: true)
        // The shell itself, not Debian's /bin/sh link to it: the process name is the file's.
        let shell = URL(fileURLWithPath: "/bin/sh").resolvingSymlinksInPath().path
        try copyExecutable(shell, to: dir.path + "/bin/systemd")
        try copyExecutable(shell, to: dir.path + "/bin/other")

        /// Whether the generator wrote the drop-in (and that it says what it must), run under `parent`.
        func generates(capability: Bool, version: String, parent: String = "systemd", scope: String = "user") throws -> Bool {
            let fake = dir.path + "/bin/systemctl"
            try writeExecutable("#!/bin/sh\necho 'systemd \(version) (\(version).1-1)'\necho '+PAM +AUDIT'\n", to: fake)
            let out = dir.path + "/out"
            try? fm.removeItem(atPath: out)
            try fm.createDirectory(atPath: out, withIntermediateDirectories: false)
            chmod(out, 0o777)
            let caps = capability ? ["--inh-caps", "+wake_alarm", "--ambient-caps", "+wake_alarm"] : []
            let r = try runCommand("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups"] + caps +
                                   [dir.path + "/bin/" + parent, "-c", "\"$0\" \"$1\" /nonexistent/early /nonexistent/late; true",
                                    generator, out],
                                   environment: ["PATH": dir.path + "/bin:/usr/bin:/bin", "SYSTEMD_SCOPE": scope])
            #expect(r.status == 0 && r.err.isEmpty, "the generator failed or complained: \(r.status) \(r.err)")
            let dropIn = out + "/alarmd.service.d/wake-alarm.conf"
            guard let conf = try? String(contentsOfFile: dropIn, encoding: .utf8) else {
                #expect((try fm.contentsOfDirectory(atPath: out)).isEmpty, "wrote something other than the drop-in")
                return false
            }
            #expect(serviceSettings(conf) == ["AmbientCapabilities": ["CAP_WAKE_ALARM"]], "\(conf)")
            return true
        }
        for version in ["252", "254", "257", "262"] {
            #expect(try generates(capability: true, version: version), "systemd \(version) with CAP_WAKE_ALARM: the drop-in")
            #expect(try !generates(capability: false, version: version), "systemd \(version) without: nothing")
        }
        for version in ["255", "256"] {
            #expect(try !generates(capability: true, version: version), "systemd \(version) refuses it: nothing")
        }
        #expect(try !generates(capability: true, version: "257", parent: "other"), "no manager among its parents: nothing")
        #expect(try !generates(capability: true, version: "257", scope: "system"), "run by the system manager: nothing")
    }

    /// The real thing: a systemd user manager runs the built alarmd under the shipped unit, and
    /// alarmd rings, reaches logind, tells a Flatpak app from your tools, and (with the drop-in)
    /// may arm a wake alarm. Needs root (a user, a cgroup, a mount namespace).
    @Test(.enabled(if: geteuid() == 0, "needs root")) func runsUnderARealUserManager() throws {
        let script = Products.sourceRoot + "/Tests/unit-sandbox/run"
        var env = ProcessInfo.processInfo.environment
        env["ALARMD_BIN_DIR"] = Products.directory
        let r = try runCommand(script, [], environment: env, timeout: 240)
        #expect(r.status == 0, "Tests/unit-sandbox/run:\n\(r.out)\(r.err)")
        #expect(r.out.contains(" passed, 0 failed"), "\(r.out)")
    }
}
