#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The little of gnome-session that gnome-settings-daemon's power plugin (gsd-power) needs to act: the Phosh
suite runs the real gsd-power, as a Phosh session does (phosh's session file requires
org.gnome.SettingsDaemon.Power), but not gnome-session. gsd-power ignores every change of its idle mode,
the screen lit again on phosh's WakeUpScreen included ("ignoring state transition to normal as inactive"),
unless org.gnome.SessionManager's SessionIsActive is true (gsd-power-manager.c, is_session_active). So this
stand-in owns org.gnome.SessionManager with that property true, as gnome-session has it for the session in
the foreground, and answers RegisterClient (what every gnome-settings-daemon plugin and phosh call at start)
with a client path. Anything else is UnknownMethod, as from a service that lacks it.

    session-manager.py BUS_ADDRESS

Prints `ready` once it owns the name, then one line per RegisterClient. Runs with the host's python3
(PyGObject) on the root's session bus.
"""
import sys

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

NAME, PATH = 'org.gnome.SessionManager', '/org/gnome/SessionManager'
XML = '''<node><interface name="org.gnome.SessionManager">
  <method name="RegisterClient"><arg type="s" name="app_id" direction="in"/>
    <arg type="s" name="client_startup_id" direction="in"/><arg type="o" name="client_id" direction="out"/></method>
  <property name="SessionIsActive" type="b" access="read"/>
</interface></node>'''


def main():
    bus = Gio.DBusConnection.new_for_address_sync(
        sys.argv[1], Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    clients = []

    def call(conn, sender, path, iface, method, params, invocation):
        if method == 'RegisterClient':
            clients.append(sender)
            app_id = params.unpack()[0]
            print(f'RegisterClient {app_id!r} from {sender}', flush=True)
            invocation.return_value(GLib.Variant('(o)', (f'{PATH}/Client{len(clients)}',)))

    def get_property(conn, sender, path, iface, prop):
        return GLib.Variant('b', True) if prop == 'SessionIsActive' else None

    node = Gio.DBusNodeInfo.new_for_xml(XML)
    bus.register_object(PATH, node.interfaces[0], call, get_property, None)
    # DBUS_NAME_FLAG_DO_NOT_QUEUE: fail rather than wait behind another owner.
    r = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
                      GLib.Variant('(su)', (NAME, 4)), GLib.VariantType('(u)'), Gio.DBusCallFlags.NONE, 5000, None)
    if r.unpack()[0] != 1:
        print(f'could not own {NAME}: RequestName answered {r.unpack()[0]}', flush=True)
        return 1
    print('ready', flush=True)
    GLib.MainLoop().run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
