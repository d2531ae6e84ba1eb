// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

'use strict';
// For lint/rules/: the rule context, but reports on nodes `skip` accepts are dropped.
function withoutReports(context, skip) {
    return Object.create(context, {
        report: {value: descriptor => skip(descriptor.node) || context.report(descriptor)},
    });
}

module.exports = {withoutReports};
