// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// A stand-in for GDM on the test's private system bus: GNOME Shell 43 lets a session lock only when
// org.gnome.DisplayManager answers there with a Version (js/misc/loginManager.js, canLock()) and
// registers the session with it at start-up. Prints "ready" once it owns the name.
'use strict';
const {Gio, GLib} = imports.gi;

const IFACE = `<node><interface name="org.gnome.DisplayManager.Manager">
  <method name="RegisterDisplay"><arg type="a{ss}" name="details" direction="in"/></method>
  <method name="RegisterSession"><arg type="a{sv}" name="details" direction="in"/></method>
  <property name="Version" type="s" access="read"/>
</interface></node>`;

const manager = Gio.DBusExportedObject.wrapJSObject(IFACE, {
    get Version() {
        return '43.0';
    },
    RegisterDisplay() {},
    RegisterSession() {},
});
manager.export(Gio.DBus.system, '/org/gnome/DisplayManager/Manager');
const loop = new GLib.MainLoop(null, false);
Gio.bus_own_name_on_connection(Gio.DBus.system, 'org.gnome.DisplayManager', Gio.BusNameOwnerFlags.NONE,
    () => print('ready'), () => loop.quit());
loop.run();
