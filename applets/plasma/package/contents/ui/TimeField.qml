// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The hours or the minutes of an alarm's time: typed, or stepped with the arrow keys.
import QtQuick 2.15
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.kirigami 2.20 as Kirigami

PlasmaComponents3.TextField {
    id: field

    property int from
    property int to

    function step(by) {
        const v = parseInt(text, 10)
        const next = isNaN(v) ? from : (v - from + by + (to - from + 1)) % (to - from + 1) + from
        text = (next < 10 && to > 12 ? "0" : "") + next
    }

    implicitWidth: Kirigami.Units.gridUnit * 3
    horizontalAlignment: TextInput.AlignHCenter
    maximumLength: 2
    inputMethodHints: Qt.ImhDigitsOnly
    validator: IntValidator {
        bottom: field.from
        top: field.to
    }
    Keys.onUpPressed: step(1)
    Keys.onDownPressed: step(-1)
}
