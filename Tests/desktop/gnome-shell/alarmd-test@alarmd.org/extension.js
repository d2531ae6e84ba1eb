// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Tests only (run-root): GNOME Shell 45+ has no --unsafe-mode flag and Eval refuses callers outside
// unsafe mode; this turns it on. Its disables are counted (global.alarmdTestDisables, read with Eval):
// the shell disables it at every lock (no unlock-dialog mode), and with it every extension enabled
// after it, alarmd's among them, which it then enables again: the positive control of the check that
// a disable and enable at lock leaves nothing behind.
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

export default class AlarmdTestHelper extends Extension {
    enable() {
        global.context.unsafe_mode = true;
        global.alarmdTestEnables = (global.alarmdTestEnables ?? 0) + 1;
    }

    disable() {
        global.alarmdTestDisables = (global.alarmdTestDisables ?? 0) + 1;
    }
}
