// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing

/// What a sandboxed app may not have alarmd, outside its sandbox, open or read for it.
@Suite struct SandboxPolicyTests {
    func refusal(_ config: [String: Value]) -> AlarmError? {
        do throws(AlarmError) { try SandboxPolicy.check(config) } catch { return error }
        return nil
    }

    @Test(arguments: ["file:///etc/passwd", "/etc/passwd", "ghelp:gnome-help", "steam://run/1", "apt:sl", "data:text/html,x",
                      "javascript:alert(1)", "smb://host/share", "x-scheme-handler:x", "HTTPSX://example.org", "", "https"])
    func aTapActionBeyondTheWebIsRefused(_ url: String) {
        let e = refusal(["tap_action": .string(url)])
        #expect(e?.name == Contract.ErrorName.invalidArgument && e?.message.hasPrefix("tap_action:") == true, "\(url): \(String(describing: e))")
    }

    @Test(arguments: ["https://example.org/timer?id=1", "http://localhost:8080/", "HTTPS://EXAMPLE.ORG/"])
    func aWebTapActionIsAllowed(_ url: String) {
        #expect(refusal(["tap_action": .string(url), "title": .string("x")]) == nil)
    }

    @Test func aSoundPathIsRefusedAndASoundNameAllowed() {
        #expect(refusal(["sound": .string("/home/user/.ssh/id_ed25519")])?.message.hasPrefix("sound:") == true)
        #expect(refusal(["sound": .string("alarm-clock-elapsed")]) == nil)
        #expect(refusal([:]) == nil)
    }
}
