// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The popup: every alarm and timer with its state, time and the buttons its state allows; new timers.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.plasma.extras 2.0 as PlasmaExtras

Item {
    id: full

    property var client
    property var titleOf
    property string lastError
    property string entryError: ""
    signal clearError()

    readonly property var quickMinutes: [1, 5, 10, 25]

    Layout.minimumWidth: PlasmaCore.Units.gridUnit * 20
    Layout.minimumHeight: PlasmaCore.Units.gridUnit * 18
    Layout.preferredWidth: PlasmaCore.Units.gridUnit * 24
    Layout.preferredHeight: PlasmaCore.Units.gridUnit * 26

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
        spacing: PlasmaCore.Units.smallSpacing

        PlasmaExtras.Heading {
            level: 3
            text: i18n("Alarms and Timers")
            Layout.fillWidth: true
        }

        // alarmd gone: say so, offer D-Bus activation.
        ColumnLayout {
            visible: !client.running
            Layout.fillWidth: true
            PlasmaComponents3.Label {
                text: i18n("alarmd is not running")
                Layout.fillWidth: true
            }
            PlasmaComponents3.Button {
                text: i18n("Start alarmd")
                icon.name: "media-playback-start"
                onClicked: client.startService()
            }
        }

        PlasmaComponents3.Label {
            visible: client.running && list.count === 0
            text: i18n("No alarms or timers")
            opacity: 0.7
            Layout.fillWidth: true
        }

        PlasmaComponents3.ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            visible: client.running
            ListView {
                id: list
                model: client.alarms
                // Ringing alarms come first: show them when one begins (the popup opens for it).
                Connections {
                    target: full.client
                    function onAlertStarted() { list.positionViewAtBeginning() }
                }
                spacing: PlasmaCore.Units.largeSpacing
                clip: true
                delegate: AlarmRow {
                    width: list.width - PlasmaCore.Units.smallSpacing * 2
                    client: full.client
                    titleText: full.titleOf(model.title, model.kind)
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
                    Layout.fillWidth: true
                    text: i18np("%1 min", "%1 min", modelData)
                    onClicked: client.startTimer(modelData * 60, i18n("Timer"))
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
            color: PlasmaCore.Theme.negativeTextColor
            wrapMode: Text.Wrap
            Layout.fillWidth: true
            MouseArea {
                anchors.fill: parent
                onClicked: full.clearError()
            }
        }
    }
}
