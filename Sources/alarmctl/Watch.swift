// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Glibc
import SDBus

/// `alarmctl watch`: a full-screen live view, redrawn on alarmd's signals and once a second only
/// while something counts down; plain lines at each change when stdout is not a terminal.
final class Watch {
    let proxy: AlarmManagerProxy
    let out: Output
    private var live: Live?
    private var saved: termios?

    init(_ proxy: AlarmManagerProxy, _ out: Output) {
        self.proxy = proxy
        self.out = out
    }

    func run(_ a: Arguments) throws(CLIError) -> Int32 {
        guard a.positional.isEmpty else { throw .usage(Commands.takesNoArguments("watch"), command: "watch") }
        let live = try Live(proxy)
        self.live = live
        if out.isTerminal {
            enterScreen()
            _ = try? live.loop.onSignal(SIGWINCH) { [unowned self] in self.draw() }
        }
        live.readInput { [unowned self] bytes in
            if bytes.contains(where: { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") }) { self.live?.loop.exit(0) }
        }
        try live.start({ [unowned self] _ in self.draw() }, tick: { [unowned self] in self.draw() })
        let status = live.run()
        leaveScreen()
        return status
    }

    // MARK: terminal

    private func enterScreen() {
        if isatty(0) == 1 {
            var t = termios()
            tcgetattr(0, &t)
            saved = t
            // Keys arrive one at a time and are not echoed; Ctrl-C still interrupts.
            t.c_lflag &= ~tcflag_t(ICANON | ECHO)
            tcsetattr(0, TCSANOW, &t)
        }
        out.write("\u{1B}[?1049h\u{1B}[?25l")
    }

    private func leaveScreen() {
        guard out.isTerminal else { return }
        out.write("\u{1B}[?25h\u{1B}[?1049l")
        if var t = saved { tcsetattr(0, TCSANOW, &t) }
    }

    private var width: Int {
        var w = winsize()
        return ioctl(1, UInt(TIOCGWINSZ), &w) == 0 && w.ws_col > 0 ? Int(w.ws_col) : 80
    }

    // MARK: drawing

    private func draw() {
        guard let live else { return }
        let now = SystemClock().now()
        let items = AlarmSnapshot.readingOrder(live.alarms)
        let lines = render(items, running: live.running, now: now)
        if out.isTerminal {
            out.write("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n") + "\r\n")
            live.tick(following: items.filter(\.isCountingDown).min { $0.remaining(at: now) < $1.remaining(at: now) })
        } else {
            // Plain lines at each change; no per-second redraws into a file or a pipe.
            out.line("--- \(TimeText.seconds(now))")
            for l in lines.dropFirst().dropLast() where !l.isEmpty { out.line(l) }
        }
    }

    func render(_ items: [AlarmSnapshot], running: Bool, now: USec) -> [String] {
        // Translators: the heading of 'alarmctl watch'.
        let heading = running ? say(NP_("alarmd — %d alarm or timer", "alarmd — %d alarms and timers", items.count, String(items.count)))
            : say(N_("alarmd — not running"))
        var lines = [out.styled(heading, .bold), ""]
        if !running { lines.append("  " + say(N_("alarmd is not running.")) + " " + CLIError.notRunningHint) }
        else if items.isEmpty { lines.append("  " + say(N_("Nothing set. 'alarmctl timer 25m' starts a timer."))) }
        let barWidth = max(10, min(30, width - 60))
        for s in items {
            let title = s.title.isEmpty ? s.kindWords : s.title
            let id = IDPrefix.short(s.id)
            switch s.state {
            case .alerting?:
                // Translators: in 'alarmctl watch', beside a ringing alarm's title.
                let ringing = say(N_("RINGING"))
                lines.append(out.styled("  🔔 \(title)  \(ringing)  (\(id))", .reverseRed))
            case .countdown?, .paused?:
                let p = s.progress(at: now)
                let filled = Int((p * Double(barWidth)).rounded(.down))
                let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]"
                let glyph = s.isPaused ? "⏸" : "⏳"
                let clock = TimeText.clock(s.remaining(at: now), language: language)
                // Translators: in 'alarmctl watch', the time left of a countdown ("4:49 left"), paused ("4:49 paused") or
                // in its warning phase ("0:49 warning").
                let left = s.isPaused ? say(N_("%s paused", clock)) : s.isWarning ? say(N_("%s warning", clock)) : say(N_("%s left", clock))
                let line = "  \(glyph) \(title)  \(bar) \(Int(p * 100))%  \(left)  (\(id))"
                lines.append(s.isWarning ? out.styled(line, .yellow) : s.isPaused ? out.styled(line, .dim) : line)
            case .scheduled?, nil:
                let days = s.weekdays.isEmpty ? "" : "  \(TimeText.days(s.weekdays, language: language))"
                let when = TimeText.local(s.fireTime, now: now, language: language), until = TimeText.relative(s.fireTime, from: now, language: language)
                lines.append("  ⏰ \(title)  \(when)  \(until)\(days)  (\(id))")
            }
        }
        // Translators: the key that ends 'alarmctl watch', at its foot; keep the q.
        lines += ["", say(N_("q quit"))]
        return lines
    }
}
