// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later
//
// The shell's own modules and gettext as ui.js uses them, in GNOME Shell 43: legacy imports, whose
// top-level `var`s are what a script exports. gnome45/shell.js gives the same names from ES modules.
// ExtensionUtils' gettext functions translate in the domain of the extension whose file calls them (found
// on the stack), bound by initTranslations() in extension.js's init(), which runs once, before any mode.
/* exported _, C_, ngettext, FdoNotificationDaemonSource, Main, MessageTray, PanelMenu, PopupMenu */
'use strict';

var _ = imports.misc.extensionUtils.gettext;
var C_ = imports.misc.extensionUtils.pgettext;
var ngettext = imports.misc.extensionUtils.ngettext;
var {FdoNotificationDaemonSource} = imports.ui.notificationDaemon;
var Main = imports.ui.main;
var MessageTray = imports.ui.messageTray;
var PanelMenu = imports.ui.panelMenu;
var PopupMenu = imports.ui.popupMenu;
