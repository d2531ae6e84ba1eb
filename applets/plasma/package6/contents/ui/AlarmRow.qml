// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// One alarm: title, state and time, a progress bar while it counts down, and the buttons its state
// allows (the GNOME applet's words): countdown → Pause, Cancel; paused → Resume, Cancel;
// ringing → Stop, Snooze (or the alarm's secondary button); scheduled → Cancel.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.components as PlasmaComponents3
import org.kde.kirigami as Kirigami

ColumnLayout {
    id: row

    property var client
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

    property string titleText

    readonly property bool counts: alarmState === "countdown" || alarmState === "paused"

    spacing: Kirigami.Units.smallSpacing

    RowLayout {
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
        Layout.fillWidth: true
        from: 0
        to: 1
        value: row.progress
    }
    RowLayout {
        Layout.alignment: Qt.AlignRight
        PlasmaComponents3.Button {
            visible: row.alarmState === "countdown"
            text: i18n("Pause")
            onClicked: row.client.pause(row.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.alarmState === "paused"
            text: i18n("Resume")
            onClicked: row.client.resume(row.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.alarmState === "alerting"
            text: i18n("Stop")
            onClicked: row.client.stop(row.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.alarmState === "alerting"
            text: row.secondaryButton !== "" ? row.secondaryButton : i18n("Snooze")
            onClicked: row.client.secondary(row.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.alarmState !== "alerting"
            text: i18n("Cancel")
            onClicked: row.client.cancel(row.alarmId)
        }
    }
}
