// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// In the panel: the icon and, while something counts down, the soonest one's compact label and time
// left; a ringing alarm's title on red; the accent colour in the warning phase (alarmctl panel's
// rule, as the GNOME Shell applet draws it: ringing is white on red, #ff3b30); an alarm clock while
// an alarm is on.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.kirigami 2.20 as Kirigami

MouseArea {
    id: compact

    property var applet
    // What has `expanded`: Plasma 6's PlasmoidItem, Plasma 5's plasmoid.
    property var plasmoidItem

    readonly property var client: applet.client
    readonly property string mode: client.panelMode
    readonly property bool ringing: mode === "alerting"
    readonly property bool vertical: Plasmoid.formFactor === PlasmaCore.Types.Vertical
    readonly property int iconSize: Math.min(compact.height, Kirigami.Units.iconSizes.medium)
    readonly property string text: {
        switch (mode) {
        case "alerting":
            return client.panelMore > 0
                ? i18nc("@label %1 a ringing alarm's title, %2 how many more ring", "%1 +%2",
                        applet.titleOf(client.panelLabel, client.panelKind), client.panelMore)
                : applet.titleOf(client.panelLabel, client.panelKind)
        case "countdown":
        case "warning":
        case "paused":
            return client.panelLabel === "" ? client.panelTime
                : i18nc("@label %1 a timer's short label, %2 its time left", "%1 %2", client.panelLabel, client.panelTime)
        case "scheduled":
            return client.panelTime
        default:
            return ""
        }
    }
    // The popup closes when the press lands outside it, before the click: the click then toggles
    // from what it was at the press.
    property bool wasExpanded: false

    Layout.minimumWidth: vertical ? 0 : row.implicitWidth + (ringing ? Kirigami.Units.smallSpacing * 4 : 0)
    Layout.preferredWidth: Layout.minimumWidth
    hoverEnabled: true
    onPressed: wasExpanded = plasmoidItem.expanded
    onClicked: plasmoidItem.expanded = !wasExpanded

    Rectangle {
        anchors.fill: parent
        anchors.topMargin: Kirigami.Units.smallSpacing
        anchors.bottomMargin: Kirigami.Units.smallSpacing
        radius: Kirigami.Units.smallSpacing * 2
        visible: compact.ringing
        // Red whatever the alarm's accent (the warning phase leaves it orange), as the GNOME applet.
        color: "#ff3b30"
    }

    RowLayout {
        id: row
        anchors.centerIn: parent
        height: parent.height
        spacing: Kirigami.Units.smallSpacing

        Kirigami.Icon {
            Layout.preferredWidth: compact.iconSize
            Layout.preferredHeight: compact.iconSize
            // Always there (the widget is found by it); a pause sign while the shown countdown is paused.
            source: compact.mode === "paused" ? "media-playback-pause" : compact.applet.iconSource
            opacity: compact.mode === "off" ? 0.5 : 1
            active: compact.containsMouse
            // A one-colour symbolic icon: drawn in the panel's text colour.
            isMask: true
            color: Kirigami.Theme.textColor
        }
        Kirigami.Icon {
            // An alarm will wake you: the one thing a glance at the panel must tell while nothing counts down.
            visible: compact.client.nextAlarmId !== "" && !compact.ringing
            Layout.preferredWidth: compact.iconSize
            Layout.preferredHeight: compact.iconSize
            source: "alarmd-alarm-symbolic"
            isMask: true
            color: Kirigami.Theme.textColor
        }
        PlasmaComponents3.Label {
            visible: !compact.vertical && compact.text !== ""
            text: compact.text
            color: compact.ringing ? "#ffffff"
                : (compact.client.panelColor !== "" && (compact.mode === "countdown" || compact.mode === "warning" || compact.mode === "paused")
                   ? compact.client.panelColor : Kirigami.Theme.textColor)
        }
    }
}
