// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Foundation
import Glibc
import SDBus
import TestSupport
import Testing

/// libcanberra runs on a thread of its own. A sound backend whose play call never returns (seen in a
/// Plasma 6.7 session without a sound server) once blocked alarmd's event loop: it stopped answering
/// the bus while the alarm rang. Here a stand-in libcanberra.so.0, found first through
/// LD_LIBRARY_PATH, blocks forever in `ca_context_play_full`.
@Suite(.serialized) struct SoundThreadTests {
    /// Its play call says it was entered, then never returns.
    static let hangingPlay = """
        const char *mark = getenv("ALARMD_TEST_CANBERRA_MARK");
        if (mark) close(open(mark, O_WRONLY | O_CREAT | O_APPEND, 0644));
        for (;;) pause();
        """

    @Test func aSoundBackendThatNeverReturnsLeavesAlarmdAnswering() throws {
        let canberra = try StandInCanberra(playFull: Self.hangingPlay)
        let mark = canberra.dir.path + "/play-entered"
        let h = try Harness(environment: canberra.environment.merging(["ALARMD_TEST_CANBERRA_MARK": mark]) { a, _ in a })
        let c = h.client!
        try c.subscribe()

        let first = try c.schedule([("title", .string("Hung")), ("duration", .uint32(1)), ("sound", .string("beacon")),
                                    ("post_alert", .uint32(30))])
        #expect(c.waitForState(first, "alerting"))
        // The stand-in's play was entered and does not return: the backend really hangs now.
        #expect(eventually(timeout: 5) { access(mark, F_OK) == 0 }, "\(h.daemon.log)")
        // alarmd answers at once all the same, acts on Stop, and rings the next alarm.
        let pending = try c.callAsync("GetAlarms", timeoutSeconds: 3)
        #expect(c.wait(for: pending, timeout: 3) && pending.error == nil, "\(String(describing: pending.error))")
        try c.call("Stop", [.string(AlarmID.id(fromPath: first)!)])
        #expect(try c.alarms().isEmpty)
        let second = try c.schedule([("title", .string("Next")), ("duration", .uint32(1)), ("post_alert", .uint32(30))])
        #expect(c.waitForState(second, "alerting"))
        #expect(try c.property(second, alarmInterface, "State") == .string("alerting"))
    }
}
