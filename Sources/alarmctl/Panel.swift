// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import FoundationEssentials
import AlarmClient
import AlarmCore
import Glibc
import SDBus

/// `alarmctl panel`: one line per change for waybar, i3bar or polybar; once a second only while a
/// countdown is shown; nothing more while idle.
final class Panel {
    let proxy: AlarmManagerProxy
    let out: Output
    let address: String?
    private var live: Live?
    private var format = PanelFormat.plain
    private var last: String?
    private var lines = 0
    private var shown: PanelView?
    private var pendingInput: [UInt8] = []
    /// polybar takes only the first line of what it reads at once (measured: two lines written
    /// together show the first); lines for it are spaced, the latest view always printed last.
    private var spacing: TimerSource?
    private var lastPrint: USec = 0
    static let polybarSpacing: USec = 100_000

    static var monotonic: USec {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return USec(ts.tv_sec) * 1_000_000 + USec(ts.tv_nsec) / 1_000
    }

    init(_ proxy: AlarmManagerProxy, _ out: Output, address: String?) {
        self.proxy = proxy
        self.out = out
        self.address = address
    }

    func run(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.isEmpty else { throw .usage(Commands.takesNoArguments("panel"), command: "panel") }
        guard let f = PanelFormat(rawValue: a.values["format"] ?? "plain") else {
            // Translators: a usage error; %s is the format as typed.
            throw .usage(say(N_("unknown format '%s': use waybar, i3bar, polybar or plain", a.values["format"] ?? "")), command: "panel")
        }
        format = f
        let live = try Live(proxy)
        self.live = live
        live.exitWhenOutputCloses()
        if format == .i3bar {
            out.line(PanelFormat.i3barHeader)
            live.readInput { [unowned self] bytes in self.readClicks(bytes) }
        }
        if format == .polybar {
            spacing = try? live.loop.makeTimer(clock: CLOCK_MONOTONIC) { [unowned self] in self.render() }
        }
        try live.start({ [unowned self] _ in self.render() }, tick: { [unowned self] in self.render() })
        return live.run()
    }

    /// How polybar runs alarmctl for a click: this very binary, on this very bus.
    private var command: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "alarmctl"
        return exe + (address.map { " --address '\($0)'" } ?? "")
    }

    private func render() {
        guard let live else { return }
        let view = PanelView.make(alarms: live.alarms, running: live.running, now: SystemClock().now(), language: language)
        shown = view
        let body = format.line(view, command: command, first: true)
        if body != last {
            if let spacing, Panel.monotonic < lastPrint + Panel.polybarSpacing {
                spacing.arm(at: lastPrint + Panel.polybarSpacing)
                return
            }
            out.line(format == .i3bar && lines > 0 ? "," + body : body)
            last = body
            lines += 1
            lastPrint = Panel.monotonic
        }
        live.tick(following: view.ticking ? live.alarms.first { $0.id == view.alarmId } : nil)
    }

    /// i3bar's click events: one JSON object per line after an opening "[".
    private func readClicks(_ bytes: [UInt8]) {
        pendingInput.append(contentsOf: bytes)
        while let nl = pendingInput.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pendingInput[pendingInput.startIndex..<nl], as: UTF8.self)
            pendingInput.removeSubrange(pendingInput.startIndex...nl)
            if let click = PanelClick(line: line) { act(on: click) }
        }
    }

    private func act(on click: PanelClick) {
        guard let live, let alarm = live.alarms.first(where: { $0.id == click.instance }),
              let action = click.action(forState: alarm.state) else { return }
        do {
            switch action {
            case .stop: try proxy.stop(alarm.id)
            case .snooze: try proxy.countdown(alarm.id)
            case .pause: try proxy.pause(alarm.id)
            case .resume: try proxy.resume(alarm.id)
            }
        } catch {
            // Translators: a panel click alarmd refused: %1$s the alarm's id, %2$s alarmd's reason (in English).
            Output.error(say(N_("click on %1$s: %2$s", IDPrefix.short(alarm.id), error.message)))
        }
    }
}
