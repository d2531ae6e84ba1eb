// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The alarmd applet for Plasma 5.27: alarms and timers in the panel (compact) and a popup that lists
// them (full), live on alarmd's signals through the QML plugin org.alarmd.plasmoid.private. Only the
// root is Plasma 5's: the other files here serve Plasma 6 too (../../../package6/, CMakeLists.txt).
import QtQuick 2.15
import org.kde.plasma.plasmoid 2.0
import org.kde.kirigami 2.20 as Kirigami

Item {
    id: root

    Applet {
        id: shared
        onOpenPopup: Plasmoid.expanded = true
    }

    Plasmoid.icon: shared.iconSource
    Plasmoid.title: i18n("Alarms and Timers")
    Plasmoid.toolTipMainText: i18n("Alarms and Timers")
    Plasmoid.toolTipSubText: shared.toolTipSubText
    Plasmoid.status: shared.status
    Plasmoid.switchWidth: Kirigami.Units.gridUnit * 14
    Plasmoid.switchHeight: Kirigami.Units.gridUnit * 12

    // plasmoid: Plasma 5's applet object, whose expanded the compact view toggles.
    Plasmoid.compactRepresentation: CompactRepresentation {
        applet: shared
        plasmoidItem: plasmoid
    }
    Plasmoid.fullRepresentation: FullRepresentation {
        applet: shared
    }
}
