// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// One alarm: title, state and time, a progress bar while it counts down, and the buttons its state
// allows (the GNOME applet's words): countdown → Pause, Cancel; paused → Resume, Cancel;
// ringing → Stop, Snooze (or the alarm's secondary button); scheduled → Cancel.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3

ColumnLayout {
    id: row

    property var client
    property string titleText

    readonly property string state_: model.alarmState
    readonly property bool counts: state_ === "countdown" || state_ === "paused"

    spacing: PlasmaCore.Units.smallSpacing

    RowLayout {
        Layout.fillWidth: true
        PlasmaComponents3.Label {
            text: row.titleText
            font.bold: true
            elide: Text.ElideRight
            Layout.fillWidth: true
        }
        PlasmaComponents3.Label {
            color: model.warning && model.accent !== "" ? model.accent
                : (row.state_ === "alerting" ? PlasmaCore.Theme.negativeTextColor : PlasmaCore.Theme.textColor)
            text: {
                switch (row.state_) {
                case "alerting": return i18n("Ringing")
                case "countdown": return model.warning ? i18n("%1 left (warning)", model.remaining) : i18n("%1 left", model.remaining)
                case "paused": return i18n("Paused, %1 left", model.remaining)
                default: return model.fireTimeText
                }
            }
        }
    }
    PlasmaComponents3.ProgressBar {
        visible: row.counts
        Layout.fillWidth: true
        from: 0
        to: 1
        value: model.progress
    }
    RowLayout {
        Layout.alignment: Qt.AlignRight
        PlasmaComponents3.Button {
            visible: row.state_ === "countdown"
            text: i18n("Pause")
            onClicked: row.client.pause(model.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.state_ === "paused"
            text: i18n("Resume")
            onClicked: row.client.resume(model.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.state_ === "alerting"
            text: i18n("Stop")
            onClicked: row.client.stop(model.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.state_ === "alerting"
            text: model.secondaryButton !== "" ? model.secondaryButton : i18n("Snooze")
            onClicked: row.client.secondary(model.alarmId)
        }
        PlasmaComponents3.Button {
            visible: row.state_ !== "alerting"
            text: i18n("Cancel")
            onClicked: row.client.cancel(model.alarmId)
        }
    }
}
