// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import FoundationEssentials
import Glibc

/// Everything alarmctl prints goes through here: colour only on a terminal and never with NO_COLOR
/// or --no-color, and a closed stdout ends the program quietly (exit 0) instead of writing into it.
final class Output {
    let isTerminal: Bool
    let color: Bool

    init(noColor: Bool) {
        isTerminal = isatty(1) == 1
        color = isTerminal && !noColor && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                // EPIPE: whoever read our output is gone, and so is the point of going on.
                exit(0)
            }
            offset += n
        }
        bytes.removeAll()
    }

    func line(_ text: String = "") { write(text + "\n") }

    static func error(_ text: String) {
        let bytes = Array(("alarmctl: " + text + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress!, $0.count) }
    }

    enum Style: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", reverseRed = "1;7;31"
    }

    func styled(_ text: String, _ style: Style) -> String {
        color ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Columns padded to their widest cell, in terminal columns: Chinese and Japanese headings and
    /// words take two each.
    func table(_ header: [String], _ rows: [[String]], style: (Int, [String]) -> Style? = { _, _ in nil }) {
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].columns }.max() ?? 0 }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in i == cells.count - 1 ? c : c.rightPadded(to: widths[i]) }
                .joined(separator: "  ")
        }
        line(styled(render(header), .bold))
        for (i, row) in rows.enumerated() {
            let text = render(row)
            line(style(i, row).map { styled(text, $0) } ?? text)
        }
    }
}
