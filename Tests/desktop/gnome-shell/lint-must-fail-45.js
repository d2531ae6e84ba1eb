// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Not part of the extension: eslint, configured as for the gnome45/ variant (lint-45.yml: an ES
// module, gnome-shell-extensions 48.3's additions, no St vertical), must report exactly the lines marked below
// (Tests/desktop/gnome-shell/lint checks it), so the lint of the 45+ variant cannot pass by parsing
// nothing or by linting the modules as scripts.
import GObject from 'gi://GObject';
import St from 'gi://St';
import {
    Extension,
    gettext as _ // expect comma-dangle
} from 'resource:///org/gnome/shell/extensions/extension.js';

export default class Alarms extends Extension {
    enable() {
        this._object = new GObject.Object();
        this._label = _("Alarms"); // expect quotes
        this._box = new St.BoxLayout({vertical: true}); // expect no-restricted-syntax
    }

    disable() {
        this._box.vertical = false; // expect no-restricted-syntax
        this._object = null;
    }
}
