// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The alarmd applet for Plasma 6: alarms and timers in the panel (compact) and a popup that lists
// them (full), live on alarmd's signals through the QML plugin org.alarmd.plasmoid.private.
// The Plasma 5.27 applet is ../../../package/: the same plugin, the same words and behaviour.
import QtQuick
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore
import org.kde.kirigami as Kirigami
import org.alarmd.plasmoid.private as Alarmd

PlasmoidItem {
    id: root

    readonly property string iconSource: Qt.resolvedUrl("../icons/alarmd.svg")
    property string lastError: ""

    Alarmd.Client {
        id: alarmd
        onCallFailed: (method, message) => {
            root.lastError = i18nc("@info %1 is a D-Bus method, %2 the error", "%1 failed: %2", method, message)
        }
        // A ringing alarm opens the popup (once per alerting episode), with its title, Stop and Snooze
        // first in the list: the applet is not a notification, Do Not Disturb does not hold it back.
        onAlertStarted: root.expanded = true
    }

    // What a person calls an alarm without a title.
    function titleOf(title, kind) {
        return title !== "" ? title : (kind === "timer" ? i18n("Timer") : i18n("Alarm"))
    }

    Plasmoid.icon: iconSource
    Plasmoid.title: i18n("Alarms and Timers")
    Plasmoid.status: alarmd.panelMode === "alerting" ? PlasmaCore.Types.NeedsAttentionStatus : PlasmaCore.Types.ActiveStatus
    toolTipMainText: i18n("Alarms and Timers")
    toolTipSubText: {
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
    switchWidth: Kirigami.Units.gridUnit * 14
    switchHeight: Kirigami.Units.gridUnit * 12

    compactRepresentation: CompactRepresentation {
        client: alarmd
        plasmoidItem: root
        iconSource: root.iconSource
        titleOf: root.titleOf
    }
    fullRepresentation: FullRepresentation {
        client: alarmd
        titleOf: root.titleOf
        lastError: root.lastError
        onClearError: root.lastError = ""
    }
}
