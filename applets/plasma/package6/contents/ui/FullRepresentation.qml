// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The popup: every alarm and timer with its state, time and the buttons its state allows; new timers.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.components as PlasmaComponents3
import org.kde.plasma.extras as PlasmaExtras
import org.kde.kirigami as Kirigami

Item {
    id: full

    property var client
    property var titleOf
    property string lastError
    property string entryError: ""
    signal clearError()

    readonly property var quickMinutes: [1, 5, 10, 25]

    Layout.minimumWidth: Kirigami.Units.gridUnit * 20
    Layout.minimumHeight: Kirigami.Units.gridUnit * 18
    Layout.preferredWidth: Kirigami.Units.gridUnit * 24
    Layout.preferredHeight: Kirigami.Units.gridUnit * 26

    function startTyped() {
        const parsed = client.parseDuration(entry.text)
        if (parsed.error !== undefined) {
            switch (parsed.error) {
            case "empty": entryError = i18n("Type a duration such as 90, 5m or 1h30m"); break
            case "zero": entryError = i18n("A timer must be longer than zero"); break
            case "tooLong": entryError = i18n("A timer can be at most five years"); break
            default: entryError = i18n("“%1” is not a duration", entry.text.trim())
            }
            return
        }
        client.startTimer(parsed.seconds, i18n("Timer"))
        entry.text = ""
        entryError = ""
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Kirigami.Units.smallSpacing

        PlasmaExtras.Heading {
            level: 3
            text: i18n("Alarms and Timers")
            Layout.fillWidth: true
        }

        // alarmd gone: say so, offer D-Bus activation.
        ColumnLayout {
            visible: !full.client.running
            Layout.fillWidth: true
            PlasmaComponents3.Label {
                text: i18n("alarmd is not running")
                Layout.fillWidth: true
            }
            PlasmaComponents3.Button {
                text: i18n("Start alarmd")
                icon.name: "media-playback-start"
                onClicked: full.client.startService()
            }
        }

        PlasmaComponents3.Label {
            visible: full.client.running && list.count === 0
            text: i18n("No alarms or timers")
            opacity: 0.7
            Layout.fillWidth: true
        }

        PlasmaComponents3.ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            visible: full.client.running
            ListView {
                id: list
                model: full.client.alarms
                spacing: Kirigami.Units.largeSpacing
                clip: true
                // Ringing alarms come first: show them when one begins (the popup opens for it).
                Connections {
                    target: full.client
                    function onAlertStarted() { list.positionViewAtBeginning() }
                }
                delegate: AlarmRow {
                    width: list.width - Kirigami.Units.smallSpacing * 2
                    client: full.client
                    titleText: full.titleOf(title, kind)
                }
            }
        }

        PlasmaExtras.Heading {
            level: 4
            text: i18n("New timer")
            Layout.fillWidth: true
        }
        RowLayout {
            Layout.fillWidth: true
            Repeater {
                model: full.quickMinutes
                PlasmaComponents3.Button {
                    required property int modelData
                    Layout.fillWidth: true
                    text: i18np("%1 min", "%1 min", modelData)
                    onClicked: full.client.startTimer(modelData * 60, i18n("Timer"))
                }
            }
        }
        PlasmaComponents3.TextField {
            id: entry
            Layout.fillWidth: true
            placeholderText: i18n("Timer… (e.g. 90, 30s, 5m, 1h30m)")
            onAccepted: full.startTyped()
            onTextChanged: full.entryError = ""
        }
        PlasmaComponents3.Label {
            visible: text !== ""
            text: full.entryError !== "" ? full.entryError : full.lastError
            color: Kirigami.Theme.negativeTextColor
            wrapMode: Text.Wrap
            Layout.fillWidth: true
            MouseArea {
                anchors.fill: parent
                onClicked: full.clearError()
            }
        }
    }
}
