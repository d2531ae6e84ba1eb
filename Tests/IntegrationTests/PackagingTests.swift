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
        for (file, objectPath, name) in [("org.alarmd.AlarmManager1.xml", managerPath, "org.alarmd.AlarmManager1"),
                                         ("org.alarmd.Alarm1.xml", path, "org.alarmd.Alarm1")] {
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
