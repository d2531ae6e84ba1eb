// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Screenshots of a headless GNOME Shell 45+ (run-root): org.gnome.Shell.Screenshot answers only some
// callers, among them the owner of org.gnome.Screenshot, which this helper becomes. Then one screenshot
// per line on stdin (an absolute file name), answering one line on stdout: "ok" or "error: …".
'use strict';
const {Gio, GLib} = imports.gi;

const bus = Gio.DBus.session;
const [owned] = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
    new GLib.Variant('(su)', ['org.gnome.Screenshot', 4]), new GLib.VariantType('(u)'), Gio.DBusCallFlags.NONE, 5000,
    null).deepUnpack();
if (owned !== 1) {
    print(`error: RequestName org.gnome.Screenshot answered ${owned}`);
    imports.system.exit(1);
}
const stdin = new Gio.DataInputStream({base_stream: new Gio.UnixInputStream({fd: 0, close_fd: false})});
print('ready');
for (;;) {
    const [line] = stdin.read_line_utf8(null);
    if (line === null)
        break;
    try {
        const [ok] = bus.call_sync('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot',
            'org.gnome.Shell.Screenshot', 'Screenshot', new GLib.Variant('(bbs)', [false, false, line.trim()]),
            new GLib.VariantType('(bs)'), Gio.DBusCallFlags.NONE, 20000, null).deepUnpack();
        print(ok ? 'ok' : 'error: the shell took no screenshot');
    } catch (e) {
        print(`error: ${e.message}`);
    }
}
