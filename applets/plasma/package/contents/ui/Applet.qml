// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// What the applet knows and says, for both roots (main.qml of Plasma 5.27 and of Plasma 6), which
// differ only in how they open the popup (openPopup) and in the root item.
import QtQuick 2.15
import org.kde.plasma.core 2.0 as PlasmaCore
import org.alarmd.plasmoid.private 1.0 as Alarmd

Item {
    id: applet

    readonly property alias client: alarmd
    readonly property string iconSource: Qt.resolvedUrl("../icons/alarmd.svg")
    property string lastError: ""
    // A ringing alarm opens the popup (once per alerting episode), with its title, Stop and Snooze
    // first in the list: the applet is not a notification, Do Not Disturb does not hold it back.
    signal openPopup()

    readonly property int status: alarmd.panelMode === "alerting" ? PlasmaCore.Types.NeedsAttentionStatus
                                                                  : PlasmaCore.Types.ActiveStatus
    readonly property string toolTipSubText: {
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

    // What a person calls an alarm without a title.
    function titleOf(title, kind) {
        return title !== "" ? title : (kind === "timer" ? i18nc("@title a timer that has no title of its own", "Timer") : i18nc("@title an alarm that has no title of its own", "Alarm"))
    }

    // An alarm's days in short (AlarmdClient::alarmDays gives the kind and the locale's day names).
    function daysOf(kind, text) {
        switch (kind) {
        case "every": return i18n("Every day")
        case "today": return i18n("Today")
        case "tomorrow": return i18n("Tomorrow")
        case "once": return i18n("Once")
        default: return text
        }
    }

    Alarmd.Client {
        id: alarmd
        onCallFailed: function(method, message) {
            applet.lastError = i18nc("@info %1 is a D-Bus method, %2 the error", "%1 failed: %2", method, message)
        }
        onAlertStarted: applet.openPopup()
    }
}
