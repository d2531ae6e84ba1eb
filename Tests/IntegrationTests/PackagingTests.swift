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
        // Verify the unit as installed: ExecStart pointing at a real binary.
        let rendered = unit.replacingOccurrences(of: "/usr/local/bin/alarmd", with: Products.alarmd)
        try rendered.write(toFile: dir.path + "/alarmd.service", atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = dir.path
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

    /// `make install DESTDIR=… PREFIX=/usr` puts every file where the system looks for it, and
    /// `make uninstall` takes every installed file away again.
    @Test func makeInstallAndUninstall() throws {
        let root = TempDir("alarmd-destdir")
        // make install builds the release binaries, but a build cannot run inside `swift test`
        // (which holds the build directory's lock) and would take minutes: a stand-in for `swift`
        // hands make the products this test runs next to instead.
        let tools = TempDir("alarmd-tools")
        let swift = """
            #!/bin/sh
            case " $* " in *" --show-bin-path "*) echo '\(Products.directory)' ;; esac
            """
        try writeExecutable(swift, to: tools.path + "/swift")
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = tools.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")

        let install = try runCommand("/usr/bin/make", ["-C", Products.sourceRoot, "install", "DESTDIR=\(root.path)", "PREFIX=/usr"], environment: env)
        try #require(install.status == 0, "make install: \(install.err)")
        let copies = [("docs/man/alarmctl.1", "usr/share/man/man1/alarmctl.1"),
                      ("docs/man/alarmd.conf.5", "usr/share/man/man5/alarmd.conf.5"),
                      ("docs/man/alarmd.8", "usr/share/man/man8/alarmd.8"),
                      ("completions/alarmctl.bash", "usr/share/bash-completion/completions/alarmctl"),
                      ("completions/_alarmctl", "usr/share/zsh/vendor-completions/_alarmctl"),
                      ("completions/alarmctl.fish", "usr/share/fish/vendor_completions.d/alarmctl.fish"),
                      ("dbus/alarmd-qt.h", "usr/include/alarmd/alarmd-qt.h"),
                      ("dbus/org.alarmd.AlarmManager1.xml", "usr/share/dbus-1/interfaces/org.alarmd.AlarmManager1.xml"),
                      ("dbus/org.alarmd.Alarm1.xml", "usr/share/dbus-1/interfaces/org.alarmd.Alarm1.xml"),
                      ("config/alarmd.conf", "usr/share/doc/alarmd/alarmd.conf.example"),
                      ("systemd/wake-alarm.conf", "usr/share/doc/alarmd/wake-alarm.conf")]
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
        // bash-completion finds a command's completion by the command's name.
        let bash = try runCommand("/bin/bash", ["-c", "source \(root.path)/usr/share/bash-completion/completions/alarmctl && complete -p alarmctl"])
        #expect(bash.out.hasPrefix("complete -F "), "the installed bash completion does not register for alarmctl: \(bash.err)")

        let uninstall = try runCommand("/usr/bin/make", ["-C", Products.sourceRoot, "uninstall", "DESTDIR=\(root.path)", "PREFIX=/usr"], environment: env)
        #expect(uninstall.status == 0, "make uninstall: \(uninstall.err)")
        let left = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
            .filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: root.path + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        #expect(left.isEmpty, "make uninstall left \(left.sorted())")
    }

    /// Every `busctl` example of the README runs against a real daemon: it succeeds, or reaches
    /// alarmd and is refused by it ("Call failed: …", e.g. Stop on an alarm that is not ringing) —
    /// never a typo in a signature or an argument count.
    @Test func readmeBusctlExamplesRun() throws {
        let h = try Harness()
        let readme = try String(contentsOfFile: Products.sourceRoot + "/README.md", encoding: .utf8)
        var commands: [String] = []
        var pending = ""
        var inCode = false
        for raw in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("```") { inCode.toggle(); continue }
            guard inCode else { continue }
            let text = pending + line.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix("\\") { pending = String(text.dropLast()) + " "; continue }
            pending = ""
            if text.hasPrefix("busctl --user") && !text.contains(" monitor ") { commands.append(text) }
            if text.hasPrefix("M=") || text.hasPrefix("ID=") { commands.append(text) }
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
