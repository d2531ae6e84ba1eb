// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later
//
// The shell's own modules and gettext as ui.js uses them, in GNOME Shell 45 and later: ES modules from
// the shell's resources. gnome43/shell.js gives the same names from GNOME Shell 43's legacy imports.
// extension.js's gettext functions translate in the domain of the extension whose file calls them (found
// on the stack); the shell binds it when it creates the extension, from metadata.json's gettext-domain.

import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as MessageTray from 'resource:///org/gnome/shell/ui/messageTray.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

export {gettext as _, pgettext as C_, ngettext} from 'resource:///org/gnome/shell/extensions/extension.js';
export {FdoNotificationDaemonSource} from 'resource:///org/gnome/shell/ui/notificationDaemon.js';
export {Main, MessageTray, PanelMenu, PopupMenu};
