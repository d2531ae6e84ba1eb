// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

'use strict';
// eslint 6.4's no-invalid-this, minus `this` directly in an ES2022 class static block (there it is
// the class: `static { GObject.registerClass(this); }`), which that rule predates and flags. eslint
// 8's own no-invalid-this accepts it the same way.
const base = require('eslint/lib/rules/no-invalid-this');
const {withoutReports} = require('../filter');

function inStaticBlock(node) {
    for (let n = node.parent; n; n = n.parent) {
        if (n.type === 'StaticBlock')
            return true;
        if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression')
            return false;
    }
    return false;
}

module.exports = {
    meta: base.meta,
    create: context => base.create(withoutReports(context, inStaticBlock)),
};
