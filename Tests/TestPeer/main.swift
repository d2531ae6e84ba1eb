// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus

// Peers that alarmd talks to but that cannot run here for real, each speaking its published
// protocol faithfully, with a control interface through which a test plays the user:
//
//   alarmd-test-peer --bus-address ADDRESS --notifications [--vendor Phosh]
//                                              org.freedesktop.Notifications (as Phosh's names itself)
//   alarmd-test-peer --bus-address ADDRESS --feedbackd PROFILE [--allow-important ID,…]
//                                              org.sigxcpu.Feedback (feedbackd), in PROFILE (full, quiet, silent)
//   alarmd-test-peer --bus-address ADDRESS --app APP_ID      org.freedesktop.Application of APP_ID
//   alarmd-test-peer --bus-address ADDRESS --logind          org.freedesktop.login1 (Inhibit)
//   alarmd-test-peer --bus-address ADDRESS --portal          org.freedesktop.portal.OpenURI
//   alarmd-test-peer --bus-address ADDRESS --timedated       org.freedesktop.timedate1 (PropertiesChanged)
//   alarmd-test-peer --bus-address ADDRESS --screensaver [PATH,…] [--screensaver-name NAME] [--locked]
//                                              org.freedesktop.ScreenSaver (or NAME, e.g. org.xfce.ScreenSaver)
//                                              at PATH (default /org/freedesktop/ScreenSaver); --locked: GetActive
//                                              says true from the start
//   alarmd-test-peer --bus-address ADDRESS --systemd-manager org.freedesktop.systemd1 (a user manager's
//                                              Environment, starting as this process's own, and SetEnvironment)

let args = CommandLine.arguments
func value(after flag: String) -> String? {
    guard let i = args.firstIndex(of: flag), i + 1 < args.count else { return nil }
    return args[i + 1]
}
guard let address = value(after: "--bus-address") else {
    FileHandle.standardError.write("usage: alarmd-test-peer --bus-address ADDRESS (--notifications | --app ID | --logind)\n".data(using: .utf8)!)
    exit(2)
}
do {
    let loop = try EventLoop()
    try loop.exitOnSignals()
    let bus = try Bus.connect(address: address)
    try bus.attach(loop)
    var peers: [AnyObject] = []
    if args.contains("--notifications") { peers.append(try NotificationServer.serve(on: bus, vendor: value(after: "--vendor"))) }
    if let profile = value(after: "--feedbackd") {
        let allowed = value(after: "--allow-important").map { $0.split(separator: ",").map(String.init) } ?? []
        peers.append(try FakeFeedbackd.serve(on: bus, profile: profile, allowed: allowed))
    }
    if let app = value(after: "--app") { peers.append(try TestApp.serve(app, on: bus)) }
    if args.contains("--logind") { peers.append(try FakeLogind.serve(on: bus, loop: loop)) }
    if args.contains("--portal") { peers.append(try FakePortal.serve(on: bus)) }
    if args.contains("--timedated") { peers.append(try FakeTimedated.serve(on: bus)) }
    if args.contains("--screensaver") {
        let given = value(after: "--screensaver").flatMap { $0.hasPrefix("/") ? $0 : nil }
        let paths = given?.split(separator: ",").map(String.init) ?? ["/org/freedesktop/ScreenSaver"]
        let name = value(after: "--screensaver-name") ?? "org.freedesktop.ScreenSaver"
        peers.append(try FakeScreenSaver.serve(on: bus, name: name, paths: paths, active: args.contains("--locked")))
    }
    if args.contains("--systemd-manager") { peers.append(try FakeSystemdManager.serve(on: bus)) }
    let code = loop.run()
    withExtendedLifetime(peers) {}
    exit(code)
} catch {
    FileHandle.standardError.write("alarmd-test-peer: \(error)\n".data(using: .utf8)!)
    exit(1)
}
