#! /usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: GPL-2.0-or-later
# KDE's translation tooling (scripty) runs this in applets/plasma/ with XGETTEXT and podir set: the
# template of the QML (package/, and package6/'s Plasma 6 root) and the plugin.
# `make plasma-pot` writes the same template into po/ without KDE's tooling.
$XGETTEXT `find . -name \*.qml -o -name \*.cpp` -o $podir/plasma_applet_org.alarmd.plasmoid.pot
