// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later
//
// The extension as GNOME Shell 43 declares one: a legacy script whose init() returns an object with
// enable() and disable(). All it shows and does is in ui.js, written once for every Shell.
/* exported init */
'use strict';

const ExtensionUtils = imports.misc.extensionUtils;
const {AlarmdClient} = ExtensionUtils.getCurrentExtension().imports.ui;

class Extension {
    enable() {
        this._client = new AlarmdClient(ExtensionUtils.getSettings());
    }

    // Also called when the session locks or unlocks if a later Shell drops unlock-dialog from
    // session-modes; with it listed, the client follows Main.sessionMode itself.
    disable() {
        this._client.destroy();
        this._client = null;
    }
}

function init() {
    ExtensionUtils.initTranslations();
    return new Extension();
}
