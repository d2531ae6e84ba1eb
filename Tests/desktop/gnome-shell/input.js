// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// A pointer and keyboard for the headless shell, through Mutter's RemoteDesktop D-Bus API.
// The session lives as long as this process's bus connection, so the runner keeps it running and
// sends one command a line on stdin; each answers one line on stdout: "ok" or "error: …".
//   park                      pointer to the bottom-right corner (away from the top-left hot corner,
//                             and from the top bar, where hovering would switch an open menu)
//   move X Y                  pointer to X,Y (relative moves from the parked corner, so known)
//   click X Y                 move there, press and release the left button
//   key KEYSYM                press and release a keysym (decimal or 0x…)
//   type TEXT                 type characters (ASCII) as keysyms
'use strict';
const {Gio, GLib} = imports.gi;

const WIDTH = 1280, HEIGHT = 800;
const BTN_LEFT = 0x110;
const bus = Gio.DBus.session;

function call(path, iface, method, params, type) {
    return bus.call_sync('org.gnome.Mutter.RemoteDesktop', path, iface, method, params,
        type ? new GLib.VariantType(type) : null, Gio.DBusCallFlags.NONE, 5000, null);
}

const [session] = call('/org/gnome/Mutter/RemoteDesktop', 'org.gnome.Mutter.RemoteDesktop',
    'CreateSession', null, '(o)').deepUnpack();
const SI = 'org.gnome.Mutter.RemoteDesktop.Session';
call(session, SI, 'Start', null, null);

let x = 0, y = 0;
function rel(dx, dy) {
    call(session, SI, 'NotifyPointerMotionRelative', new GLib.Variant('(dd)', [dx, dy]), null);
}
function park() {
    // Far beyond the screen: the pointer stops at the edge, so its position is known.
    rel(4 * WIDTH, 4 * HEIGHT);
    x = WIDTH - 1;
    y = HEIGHT - 1;
}
function moveTo(tx, ty) {
    rel(tx - x, ty - y);
    x = tx;
    y = ty;
}
function button(pressed) {
    call(session, SI, 'NotifyPointerButton', new GLib.Variant('(ib)', [BTN_LEFT, pressed]), null);
}
function key(sym, pressed) {
    call(session, SI, 'NotifyKeyboardKeysym', new GLib.Variant('(ub)', [sym, pressed]), null);
}
function sleep(ms) {
    GLib.usleep(ms * 1000);
}

const stdin = new Gio.DataInputStream({base_stream: new Gio.UnixInputStream({fd: 0, close_fd: false})});
park();
print('ready');
for (;;) {
    const [line] = stdin.read_line_utf8(null);
    if (line === null)
        break;
    const [cmd, ...args] = line.trim().split(' ');
    try {
        switch (cmd) {
        case 'park':
            park();
            break;
        case 'move':
            moveTo(Number(args[0]), Number(args[1]));
            break;
        case 'click':
            moveTo(Number(args[0]), Number(args[1]));
            sleep(60);
            button(true);
            sleep(60);
            button(false);
            break;
        case 'key': {
            const sym = Number(args[0]);
            key(sym, true);
            sleep(30);
            key(sym, false);
            break;
        }
        case 'type':
            for (const ch of args.join(' ')) {
                const sym = ch.codePointAt(0);
                key(sym, true);
                sleep(20);
                key(sym, false);
                sleep(20);
            }
            break;
        case 'quit':
            call(session, SI, 'Stop', null, null);
            print('ok');
            imports.system.exit(0);
            break;
        default:
            throw new Error(`unknown command ${cmd}`);
        }
        print('ok');
    } catch (e) {
        print(`error: ${e.message}`);
    }
}
