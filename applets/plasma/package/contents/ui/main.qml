// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The alarmd applet for Plasma 5.27: alarms and timers in the panel (compact) and a popup that lists
// them (full), live on alarmd's signals through the QML plugin org.alarmd.plasmoid.private.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.alarmd.plasmoid.private 1.0 as Alarmd

Item {
    id: root

    readonly property string iconSource: Qt.resolvedUrl("../icons/alarmd.svg")

    Alarmd.Client {
        id: alarmd
        onCallFailed: root.lastError = i18nc("@info %1 is a D-Bus method, %2 the error", "%1 failed: %2", method, message)
        // A ringing alarm opens the popup (once per alerting episode), with its title, Stop and Snooze
        // first in the list: the applet is not a notification, Do Not Disturb does not hold it back.
        onAlertStarted: Plasmoid.expanded = true
    }

    property string lastError: ""

    // What a person calls an alarm without a title.
    function titleOf(title, kind) {
        return title !== "" ? title : (kind === "timer" ? i18n("Timer") : i18n("Alarm"))
    }

    Plasmoid.icon: iconSource
    Plasmoid.title: i18n("Alarms and Timers")
    Plasmoid.toolTipMainText: i18n("Alarms and Timers")
    Plasmoid.toolTipSubText: {
        switch (alarmd.panelMode) {
        case "off": return i18n("alarmd is not running")
        case "alerting": return i18n("Ringing: %1", titleOf(alarmd.panelLabel, alarmd.panelKind))
        case "countdown":
        case "warning": return i18n("%1 left", alarmd.panelTime)
        case "paused": return i18n("Paused, %1 left", alarmd.panelTime)
        case "scheduled": return i18n("Next alarm: %1", alarmd.panelTime)
        default: return i18n("No alarms or timers")
        }
    }
    Plasmoid.status: alarmd.panelMode === "alerting" ? PlasmaCore.Types.NeedsAttentionStatus : PlasmaCore.Types.ActiveStatus
    Plasmoid.switchWidth: PlasmaCore.Units.gridUnit * 14
    Plasmoid.switchHeight: PlasmaCore.Units.gridUnit * 12

    Plasmoid.compactRepresentation: CompactRepresentation {
        client: alarmd
        iconSource: root.iconSource
        titleOf: root.titleOf
    }
    Plasmoid.fullRepresentation: FullRepresentation {
        client: alarmd
        titleOf: root.titleOf
        lastError: root.lastError
        onClearError: root.lastError = ""
    }
}
