// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The alarmd applet for Plasma 6: the root item. The rest of the QML is the Plasma 5.27 package's
// (../../../package/contents/ui), its import lines without versions, put beside this file by the build
// (CMakeLists.txt): the same plugin, the same words and behaviour.
import QtQuick
import org.kde.plasma.plasmoid
import org.kde.kirigami as Kirigami

PlasmoidItem {
    id: root

    Applet {
        id: shared
        onOpenPopup: root.expanded = true
    }

    Plasmoid.icon: shared.iconSource
    Plasmoid.title: i18n("Alarms and Timers")
    Plasmoid.status: shared.status
    toolTipMainText: i18n("Alarms and Timers")
    toolTipSubText: shared.toolTipSubText
    switchWidth: Kirigami.Units.gridUnit * 14
    switchHeight: Kirigami.Units.gridUnit * 12

    compactRepresentation: CompactRepresentation {
        applet: shared
        plasmoidItem: root
    }
    fullRepresentation: FullRepresentation {
        applet: shared
    }
}
