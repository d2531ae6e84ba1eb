// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// Not part of the extension: eslint must report exactly the lines marked below (Tests/desktop/
// gnome-shell/lint checks it), so the lint cannot pass by parsing nothing or by the local rules
// dropping more than they should.
'use strict';
const {GObject, St} = imports.gi;

class Row extends St.BoxLayout {
    static {
        GObject.registerClass(this);
    }

    show(x) {
        x?.destroy();
        x?.visible; // expect es2022-no-unused-expressions
        x === 1; // expect es2022-no-unused-expressions
        return "row"; // expect quotes
    }
}

function loose() {
    return this; // expect es2022-no-invalid-this
}

var orphan = new Row(); // expect no-unused-vars
loose();
