// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The popup: the next alarm; every alarm and timer with its state, time and the buttons its state
// allows; new alarms (their form, which opened alarms share) and new timers.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.plasma.extras 2.0 as PlasmaExtras
import org.kde.kirigami 2.20 as Kirigami

Item {
    id: full

    property var applet
    readonly property var client: applet.client
    property string entryError: ""

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
        client.startTimer(parsed.seconds, i18nc("@title a timer that has no title of its own", "Timer"))
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
        PlasmaComponents3.Label {
            visible: full.client.running && full.client.nextAlarmId !== ""
            text: i18n("Next alarm: %1", full.client.nextAlarmText)
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

        AlarmForm {
            id: form
            visible: false
            applet: full.applet
            Layout.fillWidth: true
            onDone: visible = false
        }
        Item {
            visible: form.visible
            Layout.fillHeight: true
        }

        PlasmaComponents3.Label {
            visible: full.client.running && list.count === 0 && !form.visible
            text: i18n("No alarms or timers")
            opacity: 0.7
            Layout.fillWidth: true
        }

        PlasmaComponents3.ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            visible: full.client.running && !form.visible
            ListView {
                id: list
                model: full.client.alarms
                spacing: Kirigami.Units.largeSpacing
                clip: true
                // Ringing alarms come first: show them when one begins (the popup opens for it).
                Connections {
                    target: full.client
                    function onAlertStarted() {
                        form.visible = false
                        list.positionViewAtBeginning()
                    }
                }
                delegate: AlarmRow {
                    width: list.width - Kirigami.Units.smallSpacing * 2
                    applet: full.applet
                    onOpen: form.open(alarmId, hour, minute, weekdays, title, postAlert)
                }
            }
        }

        ColumnLayout {
            visible: !form.visible
            Layout.fillWidth: true
            PlasmaComponents3.Button {
                text: i18n("New alarm")
                icon.name: "list-add"
                onClicked: form.open("", 7, 0, [], "", 300)
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
                        onClicked: full.client.startTimer(modelData * 60, i18nc("@title a timer that has no title of its own", "Timer"))
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
        }
        PlasmaComponents3.Label {
            visible: text !== ""
            text: full.entryError !== "" ? full.entryError : full.applet.lastError
            color: Kirigami.Theme.negativeTextColor
            wrapMode: Text.Wrap
            Layout.fillWidth: true
            MouseArea {
                anchors.fill: parent
                onClicked: full.applet.lastError = ""
            }
        }
    }
}
