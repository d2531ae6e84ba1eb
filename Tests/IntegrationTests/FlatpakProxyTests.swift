// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// A Flatpak app reaches alarmd as flatpak connects it: flatpak runs `xdg-dbus-proxy` inside a
/// bubblewrap sandbox that holds the app's `/.flatpak-info` (so a service reading the peer's
/// `/proc/PID/root/.flatpak-info` sees the app), and runs the app in a sandbox of its own whose
/// session bus is the proxy's socket. Here the same two sandboxes hold the real proxy and the
/// Python example of docs/app-developers.md (or gdbus), against the real alarmd.
@Suite struct FlatpakProxyTests {
    static let appId = "org.alarmd.examples.FlatpakTimer"

    /// The files both sandboxes share: the app's `.flatpak-info`, the proxies' sockets.
    final class Sandbox {
        let dir = TempDir("alarmd-flatpak")
        var info: String { dir.path + "/flatpak-info" }

        init() throws {
            try "[Application]\nname=\(FlatpakProxyTests.appId)\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n"
                .write(toFile: info, atomically: true, encoding: .utf8)
        }

        /// What flatpak's sandboxes have in common here: /usr from the host, a private /proc of a new
        /// pid namespace, the app's `/.flatpak-info`; nothing else of the host.
        var base: [String] {
            ["--unshare-pid", "--die-with-parent", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib",
             "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
             "--proc", "/proc", "--dev", "/dev", "--ro-bind", info, "/.flatpak-info"]
        }
    }

    /// `xdg-dbus-proxy` from `bus` to a socket of its own, run in the app's sandbox with `options`
    /// (`--filter`, `--talk=…`), ready once it has written its byte to `--fd`.
    final class Proxy {
        let socket: String
        private let process: ChildProcess
        /// The reading end of the proxy's `--fd`: the proxy exits when it is closed.
        private let readyFD: Int32

        init(_ sandbox: Sandbox, bus: TestBus, name: String, options: [String]) throws {
            socket = sandbox.dir.path + "/\(name).sock"
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw TestFailure("pipe") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }   // only the dup2'ed copy reaches the proxy
            readyFD = fds[0]
            process = try ChildProcess("/usr/bin/bwrap",
                                       sandbox.base + ["--bind", bus.dir.path, bus.dir.path, "--bind", sandbox.dir.path, sandbox.dir.path,
                                                       "--", "/usr/bin/xdg-dbus-proxy", "--fd=1", bus.address, socket] + options,
                                       stdoutPipe: fds[1], stderrPath: sandbox.dir.path + "/\(name).log")
            close(fds[1])
            var ready = pollfd(fd: readyFD, events: Int16(POLLIN), revents: 0)
            var byte: UInt8 = 0
            guard poll(&ready, 1, 10_000) == 1, read(readyFD, &byte, 1) == 1, byte == UInt8(ascii: "x") else {
                throw TestFailure("xdg-dbus-proxy did not get ready: \(readText(sandbox.dir.path + "/\(name).log"))")
            }
        }

        deinit {
            process.stop()
            close(readyFD)
        }
    }

    /// bwrap's arguments for the app's sandbox, up to its command: the proxy's socket as its session
    /// bus, the repository's examples at /app/examples, and each of `files` (host path, sandbox path).
    func appSandbox(_ sandbox: Sandbox, _ proxy: Proxy, files: [(String, String)] = []) -> [String] {
        sandbox.base + ["--bind", proxy.socket, "/run/flatpak/bus", "--ro-bind", Products.sourceRoot + "/examples", "/app/examples"]
            + files.flatMap { ["--ro-bind", $0.0, $0.1] }
            + ["--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/flatpak/bus", "--"]
    }

    static let appEnvironment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"]

    /// Runs `command` as the app, in its sandbox (`appSandbox`).
    func asApp(_ sandbox: Sandbox, _ proxy: Proxy, _ command: [String]) throws -> (status: Int32, out: String, err: String) {
        try runCommand("/usr/bin/bwrap", appSandbox(sandbox, proxy) + command, environment: Self.appEnvironment)
    }

    func gdbusCall(_ method: String, _ args: [String] = []) -> [String] {
        ["/usr/bin/gdbus", "call", "--session", "--dest", managerName, "--object-path", managerPath,
         "--method", "\(managerInterface).\(method)"] + args
    }

    @Test func anAppWithTheTalkNameIsKnownByItsFlatpakIdAndReceivesItsSignals() throws {
        let h = try Harness()
        let sandbox = try Sandbox()
        let proxy = try Proxy(sandbox, bus: h.bus, name: "talk", options: ["--filter", "--talk=\(managerName)"])

        // Through the proxy alarmd knows the app as a Flatpak app, not as the user's own tool
        // (which the same call answers with "authorized").
        let state = try asApp(sandbox, proxy, gdbusCall("GetAuthorizationState"))
        #expect(state.status == 0 && state.out == "('notDetermined',)\n", "\(state)")
        #expect(try h.client.call("GetAuthorizationState") == [.string("authorized")])
        // The user's-tools-only methods are refused with the contract's error.
        let grant = try asApp(sandbox, proxy, gdbusCall("SetAuthorization", [Self.appId, "authorized"]))
        #expect(grant.status != 0 && grant.err.contains("org.alarmd.Error.NotAuthorized"), "\(grant)")
        let list = try asApp(sandbox, proxy, gdbusCall("ListAuthorizations"))
        #expect(list.status != 0 && list.err.contains("org.alarmd.Error.NotAuthorized"), "\(list)")
        #expect(try h.client.call("ListAuthorizations") == [.dict(key: "s", value: "s", [])], "the app's attempt changed nothing")

        // The user allows it, as `alarmctl auth allow` does; then the Python example, run
        // as the app, schedules its timer and sees it ring and go through the proxy's signals.
        let allow = try runCommand(Products.alarmctl, ["--address", h.bus.address, "auth", "allow", Self.appId])
        #expect(allow.status == 0, "\(allow.err)")
        // A sandboxed app may name only its own id, and may not give a sound as a file path.
        #expect(try asApp(sandbox, proxy, gdbusCall("RegisterApp", [Self.appId])).status == 0)
        let claim = try asApp(sandbox, proxy, gdbusCall("RegisterApp", ["org.example.Clock"]))
        #expect(claim.status != 0 && claim.err.contains("org.alarmd.Error.NotAuthorized"), "\(claim)")
        let file = try asApp(sandbox, proxy, gdbusCall("Schedule", ["", "{'title': <'x'>, 'duration': <uint32 60>, 'sound': <'/usr/share/sounds/x.oga'>}"]))
        #expect(file.status != 0 && file.err.contains("org.alarmd.Error.InvalidArgument") && file.err.contains("sound"), "\(file)")
        // Nor have alarmd, outside its sandbox, open a local file or another scheme's handler for it.
        let tap = try asApp(sandbox, proxy, gdbusCall("Schedule", ["", "{'title': <'x'>, 'duration': <uint32 60>, 'tap_action': <'ghelp:gnome-terminal'>}"]))
        #expect(tap.status != 0 && tap.err.contains("org.alarmd.Error.InvalidArgument") && tap.err.contains("tap_action"), "\(tap)")
        let example = try asApp(sandbox, proxy, ["/usr/bin/python3", "/app/examples/python/alarmd-timer.py"])
        #expect(example.status == 0, "the example failed in the sandbox: \(example.out)\n\(example.err)")
        let steps = example.out.split(separator: "\n").map { $0.hasPrefix("scheduled ") ? "scheduled" : String($0) }
        #expect(steps == ["authorization: authorized", "scheduled", "ringing", "removed: stopped"], "\(example.out)")
        // alarmd's side: the alarm was the Flatpak app's (the example does not RegisterApp in a sandbox).
        try h.client.barrier()
        let removed = h.client.signals.named("AlarmRemoved").map { $0.args.compactMap { $0.stringValue } }
        #expect(removed.count == 1 && removed.first?.dropFirst().map { $0 } == [Self.appId, "stopped"], "\(removed)")
    }

    /// A watcher inside the sandbox: subscribes to every signal of alarmd, calls `Watch`, and prints
    /// each signal on a line (member, path, arguments) as it comes.
    static let watcher = """
        import sys
        from gi.repository import Gio, GLib
        bus = Gio.bus_get_sync(Gio.BusType.SESSION)
        def show(_c, _sender, path, iface, member, params):
            print(member, path, params.print_(False), flush=True)
        bus.signal_subscribe("org.alarmd.AlarmManager1", None, None, None, None, Gio.DBusSignalFlags.NONE, show)
        bus.call_sync("org.alarmd.AlarmManager1", "/org/alarmd/AlarmManager1", "org.alarmd.AlarmManager1", "Watch",
                      None, None, Gio.DBusCallFlags.NONE, -1, None)
        print("watching", flush=True)
        GLib.MainLoop().run()
        """

    /// The proxy passes the app every signal of a name it may talk to; alarmd broadcasts none, and
    /// addresses to a watching app only what concerns its own alarms: another app's alarm, made,
    /// changed and removed while the app watches, never reaches it, while its own does.
    @Test func anAppHearsOfItsOwnAlarmsOnlyThroughTheProxy() throws {
        let h = try Harness()
        let sandbox = try Sandbox()
        let proxy = try Proxy(sandbox, bus: h.bus, name: "talk", options: ["--filter", "--talk=\(managerName)"])
        let monitor = try LiveCommand("/usr/bin/bwrap",
                                      sandbox.base + ["--bind", proxy.socket, "/run/flatpak/bus", "--setenv", "DBUS_SESSION_BUS_ADDRESS",
                                                      "unix:path=/run/flatpak/bus", "--", "/usr/bin/python3", "-c", Self.watcher],
                                      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"])
        #expect(monitor.waitFor(timeout: 10) { $0.contains("watching") }, "\(monitor.lines) \(monitor.stderr)")
        for app in ["org.example.Other", Self.appId] {
            try h.client.call("SetAuthorization", [.string(app), .string("authorized")])
        }
        let other = try h.app("org.example.Other")
        let theirs = try other.schedule([("title", .string("Someone else's tea")), ("duration", .uint32(600))])
        let theirId = try #require(AlarmID.id(fromPath: theirs))
        _ = try other.call("Pause", [.string(theirId)])
        _ = try other.call("Cancel", [.string(theirId)])
        // The user's own tool hears all of it; the app's own alarm, made last, reaches the app.
        #expect(h.client.waitFor { $0.named("AlarmRemoved").contains { $0.args.first?.stringValue == theirId } })
        let ours = try asApp(sandbox, proxy, gdbusCall("Schedule", ["", "{'title': <'Our tea'>, 'duration': <uint32 600>}"]))
        #expect(ours.status == 0, "\(ours)")
        #expect(monitor.waitFor { $0.contains { $0.hasPrefix("InterfacesAdded") && $0.contains("Our tea") } }, "\(monitor.lines)")
        let leaked = monitor.lines.filter { $0.contains(theirId) || $0.contains(theirs) || $0.contains("Someone else") || $0.contains("org.example.Other") }
        #expect(leaked.isEmpty, "another app's alarm reached the sandbox: \(leaked)")
        // Before its own alarm the app heard of its own authorization alone: not of the other app's,
        // nor when the other app's alarm would ring (no NextFireTimeUSec).
        let own = monitor.lines.firstIndex { $0.hasPrefix("InterfacesAdded") } ?? 0
        #expect(Array(monitor.lines[..<own]) == ["watching", "AuthorizationChanged \(managerPath) ('\(Self.appId)', 'authorized')"],
                "\(monitor.lines)")
    }

    /// A path the app knows means nothing outside its sandbox; an open file does: the app hands over
    /// its own sound (`sound_file`) through the proxy, and alarmd keeps a copy it rings with.
    @Test func anAppHandsOverItsOwnSoundThroughTheProxy() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n")
        let sandbox = try Sandbox()
        let proxy = try Proxy(sandbox, bus: h.bus, name: "talk", options: ["--filter", "--talk=\(managerName)"])
        let script = """
            import dbus
            bus = dbus.SessionBus()
            m = dbus.Interface(bus.get_object('\(managerName)', '\(managerPath)'), '\(managerInterface)')
            with open('/app/share/ring.oga', 'rb') as f:
                print(m.Schedule('', {'title': 'Own sound', 'duration': dbus.UInt32(600), 'sound_file': dbus.types.UnixFd(f)}))
            try:
                m.Schedule('', {'title': 'Path', 'duration': dbus.UInt32(600), 'sound': '/app/share/ring.oga'})
            except dbus.DBusException as e:
                print(e.get_dbus_name())
            """
        let app = try runCommand("/usr/bin/bwrap",
                                 sandbox.base + ["--bind", proxy.socket, "/run/flatpak/bus",
                                                 "--ro-bind", Products.sourceRoot + "/sounds/chime.oga", "/app/share/ring.oga",
                                                 "--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/flatpak/bus", "--",
                                                 "/usr/bin/python3", "-c", script],
                                 environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"])
        let lines = app.out.split(separator: "\n").map(String.init)
        #expect(app.status == 0 && lines.count == 2, "\(app.out)\n\(app.err)")
        #expect(lines.last == Contract.ErrorName.invalidArgument, "a path is still refused: \(lines)")
        let path = try #require(lines.first)
        #expect(try h.client.property(path, alarmInterface, "AppId") == .string(Self.appId))
        let copy = try h.client.property(path, alarmInterface, "Sound").stringValue ?? ""
        #expect(copy.hasPrefix(h.state.path + "/state/sounds/\(Self.appId)/") && copy.hasSuffix(".ogg"), "\(copy)")
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: Products.sourceRoot + "/sounds/chime.oga"))
    }

    /// The Python example as the Flatpak app of docs/app-developers.md ("A Flatpak app, end to end"):
    /// `--sound-file` hands over the app's own sound from /app/share; the timer rings with alarmd's copy,
    /// and the copy goes with the alarm.
    @Test func theExampleRingsWithItsOwnSoundFromTheSandbox() throws {
        let h = try Harness(config: "[authorization]\ndefault = allow\n")
        let sandbox = try Sandbox()
        let proxy = try Proxy(sandbox, bus: h.bus, name: "talk", options: ["--filter", "--talk=\(managerName)"])
        let original = Products.sourceRoot + "/sounds/chime.oga", inside = "/app/share/tea-timer/ring.oga"
        // Unbuffered, so that each step is seen as it is printed: the copy is read while the alarm lives.
        let example = try LiveCommand("/usr/bin/bwrap",
                                      appSandbox(sandbox, proxy, files: [(original, inside)])
                                          + ["/usr/bin/python3", "/app/examples/python/alarmd-timer.py", "--sound-file", inside],
                                      environment: Self.appEnvironment.merging(["PYTHONUNBUFFERED": "1"]) { $1 })
        #expect(example.waitFor(timeout: 10) { $0.contains { $0.hasPrefix("sound: ") } }, "\(example.lines) \(example.stderr)")
        let copy = String(example.lines.first { $0.hasPrefix("sound: ") }?.dropFirst("sound: ".count) ?? "")
        let bytes = FileManager.default.contents(atPath: copy)
        // The copy goes only after the example printed "ringing" and stopped the alarm (3 s after it was
        // scheduled): a copy already gone by then proves nothing, one read before must be the sound.
        #expect(bytes == FileManager.default.contents(atPath: original) || (bytes == nil && example.drain().contains("ringing")),
                "the copy holds the app's sound: \(copy)")
        let status = example.process.wait(timeout: 30)
        let steps = example.drain().map { $0.hasPrefix("scheduled ") ? "scheduled" : $0 }
        #expect(status == 0, "the example failed in the sandbox: \(steps)\n\(example.stderr)")
        #expect(steps == ["authorization: authorized", "scheduled", "sound: \(copy)", "ringing", "removed: stopped"], "\(steps)")
        #expect(copy.hasPrefix(h.state.path + "/state/sounds/\(Self.appId)/") && copy.hasSuffix(".ogg"), "\(copy)")
        #expect(eventually { !FileManager.default.fileExists(atPath: copy) }, "the copy outlived its alarm: \(copy)")
    }

    /// Without `--talk-name` alarmd does not exist for the app: the proxy answers for it.
    @Test func withoutTheTalkNameTheAppCannotReachAlarmd() throws {
        let h = try Harness()
        let sandbox = try Sandbox()
        let closed = try Proxy(sandbox, bus: h.bus, name: "closed", options: ["--filter"])
        let open = try Proxy(sandbox, bus: h.bus, name: "talk", options: ["--filter", "--talk=\(managerName)"])
        let refused = try asApp(sandbox, closed, gdbusCall("GetAuthorizationState"))
        #expect(refused.status != 0 && refused.err.contains("org.freedesktop.DBus.Error.ServiceUnknown"), "\(refused)")
        let hidden = try asApp(sandbox, closed, ["/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                                                 "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", managerName])
        #expect(hidden.out == "(false,)\n", "\(hidden)")
        let example = try asApp(sandbox, closed, ["/usr/bin/python3", "/app/examples/python/alarmd-timer.py"])
        #expect(example.status != 0 && example.err.contains("ServiceUnknown"), "\(example)")
        // In the same window, the same app through a proxy with the talk name does reach alarmd.
        let reached = try asApp(sandbox, open, gdbusCall("GetAuthorizationState"))
        #expect(reached.out == "('notDetermined',)\n", "\(reached)")
        #expect(h.client.nameHasOwner(managerName))
    }
}
