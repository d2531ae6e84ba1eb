// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// One alarm: title, state and time, a progress bar while it counts down, and the buttons its state
// allows (the GNOME applet's words): countdown → Pause, Cancel; paused → Resume, Cancel;
// ringing → Stop, Snooze (or the alarm's secondary button); scheduled → Cancel. An alarm at a time
// of day, waiting, is a wake-up alarm instead: its time, days and a switch; a click opens its form.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.kirigami 2.20 as Kirigami

ColumnLayout {
    id: row

    property var applet
    readonly property var client: applet.client
    signal open()

    // The model's roles (AlarmModel::roleNames).
    required property string alarmId
    required property string title
    required property string kind
    required property string alarmState
    required property bool warning
    required property string accent
    required property string remaining
    required property string fireTimeText
    required property real progress
    required property string secondaryButton
    required property bool alarmEnabled
    required property int hour
    required property int minute
    required property var weekdays
    required property int postAlert
    required property string timeText
    required property string daysKind
    required property string daysText

    readonly property string titleText: applet.titleOf(title, kind)
    readonly property bool counts: alarmState === "countdown" || alarmState === "paused"
    readonly property bool wakeUp: kind === "alarm" && alarmState === "scheduled" && hour >= 0

    spacing: Kirigami.Units.smallSpacing

    // A wake-up alarm: a click on its words opens its form; the switch beside them turns it off and on.
    RowLayout {
        visible: row.wakeUp
        Layout.fillWidth: true
        MouseArea {
            Layout.fillWidth: true
            implicitHeight: words.implicitHeight
            onClicked: row.open()
            ColumnLayout {
                id: words
                width: parent.width
                spacing: 0
                PlasmaComponents3.Label {
                    text: row.titleText
                    font.bold: true
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                PlasmaComponents3.Label {
                    text: i18nc("@label %1 an alarm's time, %2 the days it rings", "%1 · %2", row.timeText, row.applet.daysOf(row.daysKind, row.daysText))
                    opacity: row.alarmEnabled ? 1 : 0.6
                    Layout.fillWidth: true
                }
            }
        }
        PlasmaComponents3.Switch {
            checked: row.alarmEnabled
            onToggled: row.client.setAlarmEnabled(row.alarmId, checked)
        }
    }

    RowLayout {
        visible: !row.wakeUp
        Layout.fillWidth: true
        PlasmaComponents3.Label {
            text: row.titleText
            font.bold: true
            elide: Text.ElideRight
            Layout.fillWidth: true
        }
        PlasmaComponents3.Label {
            color: row.warning && row.accent !== "" ? row.accent
                : (row.alarmState === "alerting" ? Kirigami.Theme.negativeTextColor : Kirigami.Theme.textColor)
            text: {
                switch (row.alarmState) {
                case "alerting": return i18n("Ringing")
                case "countdown": return row.warning ? i18n("%1 left (warning)", row.remaining) : i18n("%1 left", row.remaining)
                case "paused": return i18n("Paused, %1 left", row.remaining)
                default: return row.fireTimeText
                }
            }
        }
    }

    PlasmaComponents3.ProgressBar {
        visible: row.counts
        from: 0
        to: 1
        value: row.progress
        Layout.fillWidth: true
    }

    RowLayout {
        visible: !row.wakeUp
        PlasmaComponents3.Button {
            visible: row.alarmState === "countdown"
            text: i18nc("@action:button", "Pause")
            onClicked: row.client.pause(row.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.alarmState === "paused"
            text: i18nc("@action:button", "Resume")
            onClicked: row.client.resume(row.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.alarmState === "alerting"
            text: i18nc("@action:button stop a ringing alarm", "Stop")
            onClicked: row.client.stop(row.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.alarmState === "alerting"
            text: row.secondaryButton !== "" ? row.secondaryButton : i18nc("@action:button let a ringing alarm ring again later", "Snooze")
            onClicked: row.client.secondary(row.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.alarmState !== "alerting"
            text: i18nc("@action:button remove the alarm or timer", "Cancel")
            onClicked: row.client.cancel(row.alarmId)
        }
    }
}
