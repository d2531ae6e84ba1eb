// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

'use strict';
// eslint 6.4's no-unused-expressions, minus optional calls (`this._indicator?.destroy();`): espree 9
// wraps them in an ES2020 ChainExpression, which that rule predates and takes for an unused value.
// eslint 7.5 and later look inside the ChainExpression the same way.
const base = require('eslint/lib/rules/no-unused-expressions');
const {withoutReports} = require('../filter');

function isOptionalCall(node) {
    return node.type === 'ExpressionStatement' && node.expression.type === 'ChainExpression' &&
        node.expression.expression.type === 'CallExpression';
}

module.exports = {
    meta: base.meta,
    create: context => base.create(withoutReports(context, isOptionalCall)),
};
