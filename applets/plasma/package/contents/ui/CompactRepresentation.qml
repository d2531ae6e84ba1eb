// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// In the panel: the icon and, while something counts down, the soonest one's compact label and time
// left; a ringing alarm's title on red; the accent colour in the warning phase (alarmctl panel's
// rule, as the GNOME Shell applet draws it: ringing is white on red, #ff3b30).
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3

MouseArea {
    id: compact

    property var client
    property string iconSource
    property var titleOf

    readonly property string mode: client.panelMode
    readonly property bool ringing: mode === "alerting"
    readonly property bool vertical: Plasmoid.formFactor === PlasmaCore.Types.Vertical
    readonly property string text: {
        switch (mode) {
        case "alerting":
            return titleOf(client.panelLabel, client.panelKind) + (client.panelMore > 0 ? " +" + client.panelMore : "")
        case "countdown":
        case "warning":
        case "paused":
            return client.panelLabel === "" ? client.panelTime : client.panelLabel + " " + client.panelTime
        case "scheduled":
            return client.panelTime
        default:
            return ""
        }
    }

    Layout.minimumWidth: vertical ? 0 : row.implicitWidth + (ringing ? PlasmaCore.Units.smallSpacing * 4 : 0)
    Layout.preferredWidth: Layout.minimumWidth
    hoverEnabled: true
    onClicked: Plasmoid.expanded = !Plasmoid.expanded

    Rectangle {
        anchors.fill: parent
        anchors.topMargin: PlasmaCore.Units.smallSpacing
        anchors.bottomMargin: PlasmaCore.Units.smallSpacing
        radius: PlasmaCore.Units.smallSpacing * 2
        visible: compact.ringing
        // Red whatever the alarm's accent (the warning phase leaves it orange), as the GNOME applet.
        color: "#ff3b30"
    }

    RowLayout {
        id: row
        anchors.centerIn: parent
        height: parent.height
        spacing: PlasmaCore.Units.smallSpacing

        PlasmaCore.IconItem {
            Layout.preferredWidth: Math.min(compact.height, PlasmaCore.Units.iconSizes.medium)
            Layout.preferredHeight: Layout.preferredWidth
            // Always there (the widget is found by it); a pause sign while the shown countdown is paused.
            source: compact.mode === "paused" ? "media-playback-pause" : compact.iconSource
            opacity: compact.mode === "off" ? 0.5 : 1
            active: compact.containsMouse
        }
        PlasmaComponents3.Label {
            visible: !compact.vertical && compact.text !== ""
            text: compact.text
            color: compact.ringing ? "#ffffff"
                : (client.panelColor !== "" && (compact.mode === "countdown" || compact.mode === "warning" || compact.mode === "paused")
                   ? client.panelColor : PlasmaCore.Theme.textColor)
        }
    }
}
