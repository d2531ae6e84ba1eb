// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import FoundationXML
import SDBus
import TestSupport
import Testing

/// `dbus/` and `systemd/` agree with the daemon and with the tools that consume them.
@Suite(.serialized) struct PackagingTests {
    /// An element in a canonical, order-preserving form: tag, sorted attributes, children.
    /// Whitespace and comments do not matter; attribute order and empty-vs-self-closed do not either.
    /// Qt's type annotations (`org.qtproject.*`) are for Qt's code generator only; sd-bus cannot emit them.
    func canonical(_ e: XMLElement) -> String {
        let attrs = (e.attributes ?? []).map { "\($0.name ?? "")=\($0.stringValue ?? "")" }.sorted().joined(separator: " ")
        let children = (e.children ?? []).compactMap { $0 as? XMLElement }
            .filter { !($0.name == "annotation" && ($0.attribute(forName: "name")?.stringValue ?? "").hasPrefix("org.qtproject.")) }
            .map(canonical).joined()
        return "<\(e.name ?? "") \(attrs)>\(children)</>"
    }

    func interface(_ name: String, in xml: String) throws -> String {
        let doc = try XMLDocument(xmlString: xml, options: [])
        let nodes = try doc.nodes(forXPath: "//interface[@name='\(name)']")
        let e = try #require(nodes.first as? XMLElement, "no interface \(name)")
        return canonical(e)
    }

    @Test func introspectionFilesMatchTheRunningDaemon() throws {
        let h = try Harness()
        let path = try h.client.schedule([("title", .string("x")), ("duration", .uint32(60))])
        for (file, objectPath, name) in [("org.alarmd.AlarmManager1.xml", managerPath, managerInterface),
                                         ("org.alarmd.Alarm1.xml", path, alarmInterface)] {
            let live = try interface(name, in: try h.client.introspect(objectPath))
            let shipped = try interface(name, in: try String(contentsOfFile: Products.sourceRoot + "/dbus/" + file, encoding: .utf8))
            #expect(live == shipped, "dbus/\(file) differs from the daemon:\nlive:    \(live)\nshipped: \(shipped)")
        }
        // The manager object also serves the object manager the contract promises.
        #expect(try h.client.introspect(managerPath).contains("org.freedesktop.DBus.ObjectManager"))
    }

    @Test func introspectionFilesAreValid() throws {
        let dtd = "/usr/share/xml/dbus-1/introspect.dtd"
        try #require(FileManager.default.fileExists(atPath: dtd), "libdbus-1-dev provides the DTD")
        for file in ["org.alarmd.AlarmManager1.xml", "org.alarmd.Alarm1.xml"] {
            let r = try runCommand("/usr/bin/xmllint", ["--noout", "--dtdvalid", dtd, Products.sourceRoot + "/dbus/" + file])
            #expect(r.status == 0, "\(file): \(r.err)")
        }
    }

    /// `systemd-analyze verify --user` accepts the unit without a single warning.
    @Test func systemdUnitVerifies() throws {
        let dir = TempDir("alarmd-unit")
        let unit = try String(contentsOfFile: Products.sourceRoot + "/systemd/alarmd.service", encoding: .utf8)
        #expect(unit.contains("Type=dbus") && unit.contains("BusName=org.alarmd.AlarmManager1"))
        // `systemctl --user help alarmd` opens alarmd's own pages (verify below checks `man` finds each).
        #expect(unit.contains("\nDocumentation=man:alarmd(8) "), "\(unit)")
        let man = try shippedManPages()
        // Verify the unit as installed: ExecStart pointing at a real binary.
        let rendered = unit.replacingOccurrences(of: "/usr/local/bin/alarmd", with: Products.alarmd)
        try rendered.write(toFile: dir.path + "/alarmd.service", atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = dir.path
        env["MANPATH"] = man.path
        let r = try runCommand("/usr/bin/systemd-analyze", ["verify", "--user", dir.path + "/alarmd.service"], environment: env)
        #expect(r.status == 0)
        #expect(r.err.isEmpty, "systemd-analyze said: \(r.err)")
    }

    /// The activation file starts the daemon on the first call to its name.
    @Test func dbusActivationStartsTheDaemon() throws {
        let services = TempDir("alarmd-services")
        let state = TempDir("alarmd-activated")
        let file = try String(contentsOfFile: Products.sourceRoot + "/dbus/org.alarmd.AlarmManager1.service", encoding: .utf8)
        let rendered = file.replacingOccurrences(of: "Exec=/usr/local/bin/alarmd", with: "Exec=\(Products.alarmd) --state-dir \(state.path)")
        #expect(rendered != file)
        try rendered.write(toFile: services.path + "/org.alarmd.AlarmManager1.service", atomically: true, encoding: .utf8)
        let bus = try TestBus(serviceDirectory: services.path)
        let client = try Client(address: bus.address)
        #expect(!client.nameHasOwner(managerName))
        #expect(try client.call("GetAuthorizationState") == [.string("authorized")])
        #expect(client.nameHasOwner(managerName))
        #expect(FileManager.default.fileExists(atPath: state.path + "/alarmd.sqlite"))
    }

    /// `make install DESTDIR=… PREFIX=/usr` puts every file where the system looks for it, without a
    /// file capability; the installed alarmd starts for a normal user; `make uninstall` takes every
    /// installed file and the directories it made away again.
    @Test func makeInstallAndUninstall() throws {
        let root = TempDir("alarmd-destdir")
        chmod(root.path, 0o755)
        // make install takes what `make` built (BUILT=); a build cannot run inside `swift test`, which
        // holds the build directory's lock: the products this test runs next to stand in.
        // As `sudo make install` runs it: sudo's secure_path, which has no Swift toolchain.
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        env.removeValue(forKey: "SWIFT")
        let built = "BUILT=\(Products.directory)"

        // Nothing built: refused before anything is installed, with what to do.
        let unbuilt = try runCommand("/usr/bin/make", ["-C", Products.sourceRoot, "install", "DESTDIR=\(root.path)", "PREFIX=/usr",
                                                     "BUILT=\(root.path)/nothing"], environment: env)
        #expect(unbuilt.status != 0 && unbuilt.err.contains("Run `make` first, as yourself, then `sudo make install`"), "\(unbuilt.err)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: root.path)).isEmpty, "nothing installed")

        // What was there before: an empty include directory (Debian ships /usr/local/include so) and
        // another package's manual page. Uninstalling must leave both.
        let fm = FileManager.default
        try fm.createDirectory(atPath: root.path + "/usr/include", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root.path + "/usr/share/man/man1", withIntermediateDirectories: true)
        try Data("other".utf8).write(to: URL(fileURLWithPath: root.path + "/usr/share/man/man1/other.1"))
        let before = Set(fm.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])

        // Installed twice, as an upgrade from source does: the second creates no directory, and must
        // not make uninstall forget those the first created.
        for _ in 1...2 {
            let install = try runCommand("/usr/bin/make", ["-C", Products.sourceRoot, "install", "DESTDIR=\(root.path)", "PREFIX=/usr", built],
                                         environment: env)
            try #require(install.status == 0, "make install: \(install.err)")
        }
        #expect(fm.fileExists(atPath: root.path + "/usr/include/alarmd/alarmd-qt.h"))
        let copies = [("docs/man/alarmctl.1", "usr/share/man/man1/alarmctl.1"),
                      ("docs/man/alarmd.conf.5", "usr/share/man/man5/alarmd.conf.5"),
                      ("docs/man/alarmd.8", "usr/share/man/man8/alarmd.8"),
                      ("data/completions/alarmctl.bash", "usr/share/bash-completion/completions/alarmctl"),
                      ("data/completions/_alarmctl", "usr/share/zsh/vendor-completions/_alarmctl"),
                      ("data/completions/alarmctl.fish", "usr/share/fish/vendor_completions.d/alarmctl.fish"),
                      ("dbus/alarmd-qt.h", "usr/include/alarmd/alarmd-qt.h"),
                      ("dbus/org.alarmd.AlarmManager1.xml", "usr/share/dbus-1/interfaces/org.alarmd.AlarmManager1.xml"),
                      ("dbus/org.alarmd.Alarm1.xml", "usr/share/dbus-1/interfaces/org.alarmd.Alarm1.xml"),
                      ("data/alarmd.conf.example", "usr/share/doc/alarmd/alarmd.conf.example"),
                      ("systemd/wake-alarm.conf", "usr/share/doc/alarmd/wake-alarm.conf"),
                      ("systemd/alarmd-wake-generator", "usr/lib/systemd/user-generators/alarmd-wake-generator")]
        for (source, installed) in copies {
            let want = FileManager.default.contents(atPath: Products.sourceRoot + "/" + source)
            let got = FileManager.default.contents(atPath: root.path + "/" + installed)
            #expect(got != nil, "make install did not install /\(installed)")
            #expect(got == nil || got == want, "/\(installed) differs from \(source)")
        }
        for installed in ["usr/bin/alarmd", "usr/share/dbus-1/services/org.alarmd.AlarmManager1.service",
                          "usr/lib/systemd/user/alarmd.service"] {
            #expect(FileManager.default.fileExists(atPath: root.path + "/" + installed), "make install did not install /\(installed)")
        }
        // The user generator is a program the user manager runs.
        #expect(access(root.path + "/usr/lib/systemd/user-generators/alarmd-wake-generator", X_OK) == 0,
                "the wake generator is not installed executable")
        // bash-completion finds a command's completion by the command's name.
        let bash = try runCommand("/bin/bash", ["-c", "source \(root.path)/usr/share/bash-completion/completions/alarmctl && complete -p alarmctl"])
        #expect(bash.out.hasPrefix("complete -F "), "the installed bash completion does not register for alarmctl: \(bash.err)")

        // No file capability: with one, alarmd runs in secure-execution mode and cannot find any
        // normal user's session bus. And installed, it starts for a normal user.
        let caps = try runCommand("/usr/sbin/getcap", [root.path + "/usr/bin/alarmd"])
        #expect(caps.status == 0 && caps.out.isEmpty, "alarmd was given a file capability: \(caps.out)")
        try installedAlarmdServesANormalUser(root: root.path)

        // The icon cache install writes where it installs for real (no DESTDIR): stale once the icons
        // are gone, so uninstall takes it along when no other icon is left.
        try Data("cache".utf8).write(to: URL(fileURLWithPath: root.path + "/usr/share/icons/hicolor/icon-theme.cache"))
        // Another package's file, put since into a directory alarmd's install created.
        let foreign = "usr/share/dbus-1/services/org.example.Other.service"
        try Data("other".utf8).write(to: URL(fileURLWithPath: root.path + "/" + foreign))
        let uninstall = try runCommand("/usr/bin/make", ["-C", Products.sourceRoot, "uninstall", "DESTDIR=\(root.path)", "PREFIX=/usr"], environment: env)
        #expect(uninstall.status == 0, "make uninstall: \(uninstall.err)")
        // Exactly what was there before, and the other file with the directories that hold it: every
        // installed file is gone, every directory install created too, none that was there before.
        let after = Set(fm.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
        let kept = ["usr/share/dbus-1", "usr/share/dbus-1/services", foreign]
        let expected = before.union(kept)
        #expect(after == expected, "make uninstall left \(after.subtracting(expected).sorted()), took \(expected.subtracting(after).sorted())")
        #expect(uninstall.out.contains("  /usr/share/dbus-1/services, which install created: it now holds other files"), "\(uninstall.out)")
    }

    /// `make` and `make run` install only what building and running need (never the test tool-chain),
    /// `make run` builds alarmctl too, and `make install` builds nothing (root has no toolchain).
    @Test func makeTargetsPullInOnlyWhatTheyNeed() throws {
        func dryRun(_ target: String) throws -> [String] {
            let r = try runCommand("/usr/bin/make", ["-C", Products.sourceRoot, "-n", target, "BUILT=/nonexistent"])
            try #require(r.status == 0, "make -n \(target): \(r.err)")
            return r.out.split(separator: "\n").map(String.init)
        }
        let build = try dryRun("all")
        #expect(build.contains("scripts/install-deps build") && !build.contains { $0.contains("install-deps all") }, "\(build)")
        // The release build (scripts/swift-release) links the Swift runtime in and packs relocations.
        #expect(build.contains { $0.contains("scripts/swift-release .build-release") && $0.hasSuffix("--product alarmd") })
        #expect(build.contains { $0.contains("scripts/swift-release .build-release") && $0.hasSuffix("--product alarmctl") })
        let release = try String(contentsOfFile: Products.sourceRoot + "/scripts/swift-release", encoding: .utf8)
        #expect(release.contains("--static-swift-stdlib") && release.contains("pack-relative-relocs"))
        let run = try dryRun("run")
        #expect(run.contains { $0.hasSuffix("--product alarmctl") }, "make run builds alarmctl: \(run)")
        #expect(run.contains("scripts/install-deps run") && !run.contains { $0.contains("install-deps all") }, "\(run)")
        let install = try dryRun("install")
        #expect(!install.contains { $0.contains("swift") || $0.contains("install-deps") }, "\(install)")
        // `make test` alone pulls in the test tool-chain (the desktops' too), once, before it builds
        // anything; the targets it runs, and the other test and tool targets, install nothing.
        let test = try dryRun("test")
        let installs = try #require(test.firstIndex(of: "scripts/install-deps all"), "\(test)")
        #expect(test.contains("scripts/install-desktop-deps") && test.contains("scripts/install-gnome-deps")
                && test.contains("scripts/install-plasma-deps"), "\(test)")
        #expect(test.firstIndex { $0.contains("swift") || $0.contains("dpkg-buildpackage") }.map { $0 > installs } == true, "\(test)")
        #expect(test.filter { $0.contains("scripts/install-") }.count == 4, "installs once: \(test)")
        #expect(try dryRun("deps").contains("scripts/install-deps all"))
        for part in ["lint-reuse", "test-swift", "test-asan", "test-tsan", "test-desktop", "test-gnome", "test-plasma", "test-plasma6",
                     "test-plasma-lockscreen", "test-package", "test-flatpak",
                     "test-unit-sandbox", "valgrind-leaks", "bench", "crash-test", "fuzz-core", "fuzz-bus"] {
            let lines = try dryRun(part)
            #expect(!lines.contains { $0.contains("scripts/install-") || $0.contains("apt-get") }, "make \(part) installs: \(lines)")
        }
        let deps = try String(contentsOfFile: Products.sourceRoot + "/scripts/install-deps", encoding: .utf8)
        let buildList = deps.components(separatedBy: "build=(")[1].components(separatedBy: ")\n")[0]
        for testOnly in ["valgrind", "qtbase5-dev", "zsh", "fish", "pulseaudio "] { #expect(!buildList.contains(testOnly), "\(testOnly)") }
    }

    /// After uninstalling, each user's alarms and enable links and an alarmd still running from the
    /// deleted binary are named, with what to do; an alarmd run from elsewhere (a checkout) is not.
    @Test func uninstallSaysWhatItLeaves() throws {
        let top = TempDir("alarmd-leftovers")
        let home = top.path + "/home/ada"
        try FileManager.default.createDirectory(atPath: home + "/.local/state/alarmd", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/.config/systemd/user/default.target.wants", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home + "/.config/systemd/user/default.target.wants/alarmd.service",
                                                   withDestinationPath: "/usr/local/lib/systemd/user/alarmd.service")
        try "ada:x:1000:1000:Ada:\(home):/bin/bash\nbob:x:1001:1001:Bob:\(top.path)/home/bob:/bin/bash\n"
            .write(toFile: top.path + "/passwd", atomically: true, encoding: .utf8)
        // An alarmd started from the prefix, whose binary is then uninstalled, and one from a checkout.
        let prefix = top.path + "/prefix"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        // Copied by cp, not in this process: a file this process has open for writing would be inherited
        // by the children other tests fork meanwhile, and exec'ing it would fail with ETXTBSY.
        try #require(try runCommand("/bin/cp", [Products.alarmd, prefix + "/bin/alarmd"]).status == 0)
        let bus = try TestBus()
        let installed = try ChildProcess(prefix + "/bin/alarmd", ["--bus-address", bus.address, "--state-dir", top.path + "/s1"],
                                         environment: hermeticEnvironment())
        defer { installed.stop() }
        let probe = try Client(address: bus.address)
        try #require(eventually(timeout: 20) { probe.nameHasOwner(managerName) })
        try FileManager.default.removeItem(atPath: prefix + "/bin/alarmd")
        var env = ProcessInfo.processInfo.environment
        env["PREFIX"] = prefix
        env["DESTDIR"] = ""
        env["ALARMD_PASSWD"] = top.path + "/passwd"
        let r = try runCommand(Products.sourceRoot + "/scripts/uninstall-leftovers", [], environment: env)
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "make uninstall left, on purpose:", "\(r.out)")
        #expect(lines.contains("  ada's alarms in \(home)/.local/state/alarmd (delete it to forget them)"), "\(r.out)")
        #expect(lines.contains { $0.contains("ada's enable link \(home)/.config/systemd/user/default.target.wants/alarmd.service")
                                 && $0.contains("systemctl --user disable alarmd") }, "\(r.out)")
        #expect(lines.contains { $0.contains("alarmd still running") && $0.contains("pid \(installed.pid)") }, "\(r.out)")
        #expect(!r.out.contains("bob"), "bob has no alarms")
        // The daemons of this test run, from the build directory, are no leftover of the prefix.
        #expect(lines.filter { $0.contains("still running") }.count == 1, "\(r.out)")
    }

    /// The installed alarmd (from `root`), started by D-Bus activation on a bus that `nobody` runs, as
    /// `nobody`: `alarmctl timer` (the installed one, as that user) gets its timer. A root process on
    /// that bus is refused, and told why: alarmd may not look into its /proc/PID/root.
    func installedAlarmdServesANormalUser(root: String) throws {
        try #require(getuid() == 0, "needs root to become another user")
        let nobody: uid_t = 65_534
        let top = TempDir("alarmd-installed")
        chmod(top.path, 0o755)
        for d in ["home", "run"] {
            try FileManager.default.createDirectory(atPath: "\(top.path)/\(d)", withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            chown("\(top.path)/\(d)", nobody, nobody)
        }
        let services = top.path + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: false)
        let installed = try String(contentsOfFile: root + "/usr/share/dbus-1/services/org.alarmd.AlarmManager1.service", encoding: .utf8)
        #expect(installed.contains("Exec=/usr/bin/alarmd\n"), "make install names the installed binary: \(installed)")
        try installed.replacingOccurrences(of: "Exec=/usr/bin/alarmd", with: "Exec=\(root)/usr/bin/alarmd")
            .write(toFile: services + "/org.alarmd.AlarmManager1.service", atomically: true, encoding: .utf8)
        let socket = top.path + "/run/bus"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:path=\(socket)</listen><auth>EXTERNAL</auth>
            <servicedir>\(services)</servicedir>
            <policy context="default"><allow user="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
            <allow own="*"/></policy></busconfig>
            """.write(toFile: top.path + "/bus.conf", atomically: true, encoding: .utf8)
        let address = "unix:path=\(socket)"
        var env = hermeticEnvironment()
        env["HOME"] = top.path + "/home"
        env["XDG_RUNTIME_DIR"] = top.path + "/run"
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        ["XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"].forEach { env.removeValue(forKey: $0) }
        let asNobody = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"]
        let bus = try ChildProcess("/usr/bin/setpriv", asNobody + ["/usr/bin/dbus-daemon", "--config-file=\(top.path)/bus.conf", "--nofork"],
                                   environment: env, stderrPath: top.path + "/bus.log")
        defer { bus.stop() }
        try #require(eventually(timeout: 10) { access(socket, F_OK) == 0 }, "nobody's bus did not start: \(readText(top.path + "/bus.log"))")

        let timer = try runCommand("/usr/bin/setpriv", asNobody + [root + "/usr/bin/alarmctl", "timer", "5m", "--title", "Tea"], environment: env)
        #expect(timer.status == 0 && timer.out.contains("Tea"), "alarmctl as nobody: \(timer.out)\(timer.err)\n\(readText(top.path + "/bus.log"))")
        let probe = try Client(address: address)
        let owner = try probe.bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "GetConnectionUnixUser", [.string(managerName)])
        #expect(owner == [.uint32(nobody)], "alarmd runs as the user whose bus it serves")
        #expect(FileManager.default.fileExists(atPath: top.path + "/home/.local/state/alarmd/alarmd.sqlite"))

        let refused = callError { () throws(BusError) in _ = try probe.call("GetAuthorizationState") }
        #expect(refused?.name == "org.alarmd.Error.NotAuthorized", "\(String(describing: refused))")
        #expect(refused?.message.contains("may not look into its root") == true && refused?.message.contains("Flatpak") == false,
                "the real cause, not a Flatpak sandbox: \(refused?.message ?? "")")
        // alarmd stops with its bus; the state it wrote stays the user's.
        var st = stat()
        #expect(stat(top.path + "/home/.local/state/alarmd/alarmd.sqlite", &st) == 0 && st.st_uid == nobody)
    }

    /// Every `busctl` example of the README and docs/ runs against a real daemon, in the order a reader
    /// meets them: it succeeds, or reaches alarmd and is refused by it ("Call failed: …", e.g. Stop on an
    /// alarm that is not ringing) — never a typo in a signature or an argument count.
    @Test func documentedBusctlExamplesRun() throws {
        let h = try Harness()
        var commands: [String] = []
        for (_, doc) in try readerDocuments() {
            var pending = ""
            var inCode = false
            for raw in doc.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = String(raw)
                if line.hasPrefix("```") { inCode.toggle(); continue }
                guard inCode else { continue }
                let text = pending + line.trimmingCharacters(in: .whitespaces)
                if text.hasSuffix("\\") { pending = String(text.dropLast()) + " "; continue }
                pending = ""
                if text.hasPrefix("busctl --user") && !text.contains(" monitor ") { commands.append(text) }
                if text.hasPrefix("M=") || text.hasPrefix("ID=") { commands.append(text) }
            }
        }
        #expect(commands.filter { $0.hasPrefix("busctl") }.count >= 20)
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = h.bus.address
        var script = ""
        for c in commands {
            let command = c.components(separatedBy: "   #").first!.components(separatedBy: " # ").first!
            script += command + "\n"
            guard command.hasPrefix("busctl") else { continue }
            let r = try runCommand("/bin/sh", ["-c", script.split(separator: "\n").filter { $0.hasPrefix("M=") || $0.hasPrefix("ID=") }.joined(separator: "\n") + "\n" + command],
                                   environment: env)
            #expect(r.status == 0 || r.err.hasPrefix("Call failed:"), "\(command)\n\(r.err)")
        }
        // The examples left alarms behind: they really were scheduled.
        #expect(try h.client.alarms().count >= 2)
    }
}
