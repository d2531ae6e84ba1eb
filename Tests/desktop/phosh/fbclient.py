#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A feedbackd client that stays on the bus, as alarmd will: feedbackd ends an event as soon as the client
that triggered it leaves the bus, so a one-shot `gdbus call` cannot hold a ring. The Phosh suite runs it with
the host's python3 (PyGObject) on the root's session bus.

    fbclient.py BUS_ADDRESS APP_ID EVENT SECONDS HINTS_GVARIANT [TIMEOUT]

calls TriggerFeedback(APP_ID, EVENT, HINTS, TIMEOUT (default 0: loop)), waits SECONDS (or until feedbackd
ends the event itself), calls EndFeedback, and waits up to 5 s for FeedbackEnded. Prints one line per
event, with the time since the trigger: `triggered ID`, `ended ID REASON T` (REASON as a signed number:
-1 = no feedback applied), `end-called T`.
"""
import sys
import time

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

NAME, PATH, IFACE = 'org.sigxcpu.Feedback', '/org/sigxcpu/Feedback', 'org.sigxcpu.Feedback'


def main():
    address, app_id, event, seconds, hints = sys.argv[1:6]
    timeout = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    bus = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    loop = GLib.MainLoop()
    state = {'id': None, 'ended': None, 't0': 0.0, 'end_called': False}

    def on_ended(conn, sender, path, iface, signal, params):
        fid, reason = params.unpack()
        if reason >= 1 << 31:
            reason -= 1 << 32
        print(f'ended {fid} {reason} {time.monotonic() - state["t0"]:.2f}', flush=True)
        if fid == state['id']:
            state['ended'] = reason
            if state['end_called'] or reason != 0:
                loop.quit()

    bus.signal_subscribe(NAME, IFACE, 'FeedbackEnded', PATH, None, Gio.DBusSignalFlags.NONE, on_ended)
    state['t0'] = time.monotonic()
    args = GLib.Variant.parse(GLib.VariantType('(ssa{sv}i)'), f'("{app_id}", "{event}", {hints}, {timeout})', None, None)
    r = bus.call_sync(NAME, PATH, IFACE, 'TriggerFeedback', args, GLib.VariantType('(u)'), Gio.DBusCallFlags.NONE, 5000,
                      None)
    state['id'] = r.unpack()[0]
    print(f'triggered {state["id"]}', flush=True)

    def end():
        if state['ended'] is None:
            state['end_called'] = True
            bus.call_sync(NAME, PATH, IFACE, 'EndFeedback', GLib.Variant('(u)', (state['id'],)), None,
                          Gio.DBusCallFlags.NONE, 5000, None)
            print(f'end-called {time.monotonic() - state["t0"]:.2f}', flush=True)
            GLib.timeout_add(5000, loop.quit)
        return False

    GLib.timeout_add(int(float(seconds) * 1000), end)
    loop.run()
    return 0 if state['ended'] is not None else 1


if __name__ == '__main__':
    sys.exit(main())
