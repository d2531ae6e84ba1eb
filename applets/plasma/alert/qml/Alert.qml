// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The alert's window: the alarm's title (and subtitle), a big Stop and, when the alarm snoozes, a big
// Snooze (its `secondary_button` text). `alarm` is the C++ Alert (src/alert.h); not named `alert`, as
// QWindow's slot alert() would win inside the Window. Plain QtQuick, drawn the same under any Qt Quick
// Controls style: large, high-contrast, readable from across a room.
import QtQuick
import QtQuick.Layouts

Window {
    id: root
    // Shown from C++: the window must get its surface and be allowed above the lock screen before its
    // first frame.
    visible: false
    width: 560
    height: 300
    minimumWidth: 420
    minimumHeight: 260
    title: alarm.windowTitle
    color: "#1b1e20"

    component AlertButton: Rectangle {
        id: button
        property alias text: label.text
        property color base: "#3a4045"
        signal activated()
        Layout.fillWidth: true
        Layout.preferredHeight: 84
        radius: 10
        color: mouse.pressed ? Qt.darker(base, 1.3) : (mouse.containsMouse || activeFocus ? Qt.lighter(base, 1.15) : base)
        border.width: activeFocus ? 3 : 0
        border.color: "#ffffff"
        opacity: alarm.busy ? 0.6 : 1
        activeFocusOnTab: true
        Accessible.role: Accessible.Button
        Accessible.name: label.text
        Accessible.onPressAction: button.activated()
        Keys.onReturnPressed: button.activated()
        Keys.onEnterPressed: button.activated()
        Keys.onSpacePressed: button.activated()
        Text {
            id: label
            anchors.centerIn: parent
            color: "#ffffff"
            font.pixelSize: 34
            font.bold: true
        }
        MouseArea {
            id: mouse
            anchors.fill: parent
            hoverEnabled: true
            enabled: !alarm.busy
            onClicked: button.activated()
        }
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 28
        spacing: 14

        Text {
            Layout.fillWidth: true
            text: alarm.heading
            color: "#ffffff"
            font.pixelSize: 40
            font.bold: true
            elide: Text.ElideRight
            horizontalAlignment: Text.AlignHCenter
        }
        Text {
            Layout.fillWidth: true
            visible: alarm.subtitle !== ""
            text: alarm.subtitle
            color: "#d0d4d8"
            font.pixelSize: 22
            elide: Text.ElideRight
            horizontalAlignment: Text.AlignHCenter
        }
        Item { Layout.fillHeight: true }
        RowLayout {
            Layout.fillWidth: true
            spacing: 20
            AlertButton {
                id: stopButton
                text: alarm.stopText
                base: "#c0392b"
                focus: true
                onActivated: alarm.stop()
            }
            AlertButton {
                visible: alarm.canSnooze
                text: alarm.snoozeText
                onActivated: alarm.snooze()
            }
        }
    }
}
