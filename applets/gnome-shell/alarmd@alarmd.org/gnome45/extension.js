// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later
//
// The extension as GNOME Shell 45 and later declare one: an ES module whose default export extends
// Extension. All it shows and does is in ui.js, written once for every Shell.

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {AlarmdClient} from './ui.js';

export default class AlarmdExtension extends Extension {
    enable() {
        this._client = new AlarmdClient(this.getSettings());
    }

    // Also called when the session locks or unlocks if the shell re-orders extensions then (one before
    // this in the list without unlock-dialog); the client follows Main.sessionMode itself. Never async:
    // GNOME Shell 51 refuses a disable() that returns a promise.
    disable() {
        this._client.destroy();
        this._client = null;
    }
}
