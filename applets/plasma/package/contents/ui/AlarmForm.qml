// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// A wake-up alarm's form, new or opened from its row: the time in the locale's clock (12-hour with
// AM/PM where its short time format has them), the days it repeats from the locale's first day of the
// week (none: once, at the next occurrence), a title and the snooze length.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.plasma.extras 2.0 as PlasmaExtras
import org.kde.kirigami 2.20 as Kirigami

ColumnLayout {
    id: form

    property var applet
    readonly property var client: applet.client
    readonly property bool hour12: client.hour12
    // "" for a new alarm.
    property string alarmId: ""
    property bool pm: false
    readonly property var snoozeMinutes: [5, 10, 15, 20]
    readonly property var workWeek: ["monday", "tuesday", "wednesday", "thursday", "friday"]
    signal done()

    spacing: Kirigami.Units.smallSpacing

    function open(id, hour, minute, weekdays, title, postAlert) {
        alarmId = id
        pm = hour >= 12
        hours.text = hour12 ? String(hour % 12 === 0 ? 12 : hour % 12) : two(hour)
        minutes.text = two(minute)
        setDays(function(key) { return weekdays.indexOf(key) >= 0 })
        titleField.text = title
        const index = snoozeMinutes.indexOf(Math.round(postAlert / 60))
        snooze.currentIndex = index >= 0 ? index : 0
        visible = true
    }

    function two(value) {
        return (value < 10 ? "0" : "") + value
    }

    function setDays(on) {
        for (let i = 0; i < days.count; ++i)
            days.itemAt(i).checked = on(client.week[i].key)
    }

    function save() {
        const h = parseInt(hours.text, 10)
        const hour = hour12 ? h % 12 + (pm ? 12 : 0) : h
        // Sent in week order, Monday first, as alarmd keeps them.
        const order = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        const weekdays = order.filter(function(key) {
            return client.week.some(function(d, i) { return d.key === key && days.itemAt(i).checked })
        })
        // The contract requires a title: an empty one is the alarm's name in the user's language.
        const title = titleField.text.trim() !== "" ? titleField.text.trim() : i18nc("@title an alarm that has no title of its own", "Alarm")
        const postAlert = snoozeMinutes[snooze.currentIndex] * 60
        if (alarmId === "")
            client.scheduleAlarm(hour, parseInt(minutes.text, 10), weekdays, title, postAlert)
        else
            client.updateAlarm(alarmId, hour, parseInt(minutes.text, 10), weekdays, title, postAlert)
        done()
    }

    PlasmaExtras.Heading {
        level: 4
        text: form.alarmId === "" ? i18n("New alarm") : i18n("Edit alarm")
        Layout.fillWidth: true
    }

    RowLayout {
        TimeField {
            id: hours
            from: form.hour12 ? 1 : 0
            to: form.hour12 ? 12 : 23
        }
        PlasmaComponents3.Label {
            text: ":"
        }
        TimeField {
            id: minutes
            from: 0
            to: 59
        }
        PlasmaComponents3.ToolButton {
            visible: form.hour12
            text: Qt.locale().amText
            checkable: true
            checked: !form.pm
            onClicked: form.pm = false
        }
        PlasmaComponents3.ToolButton {
            visible: form.hour12
            text: Qt.locale().pmText
            checkable: true
            checked: form.pm
            onClicked: form.pm = true
        }
    }

    RowLayout {
        spacing: 0
        Repeater {
            id: days
            model: form.client.week
            PlasmaComponents3.ToolButton {
                required property var modelData
                text: modelData.name
                checkable: true
            }
        }
    }
    RowLayout {
        PlasmaComponents3.Button {
            text: i18nc("@action:button select Monday to Friday", "Weekdays")
            onClicked: form.setDays(function(key) { return form.workWeek.indexOf(key) >= 0 })
        }
        PlasmaComponents3.Button {
            text: i18nc("@action:button select all seven days", "Every day")
            onClicked: form.setDays(function() { return true })
        }
    }

    PlasmaComponents3.TextField {
        id: titleField
        Layout.fillWidth: true
        placeholderText: i18nc("@title an alarm that has no title of its own", "Alarm")
        onAccepted: if (hours.acceptableInput && minutes.acceptableInput) form.save()
    }

    RowLayout {
        PlasmaComponents3.Label {
            text: i18nc("@label:listbox how long a snoozed alarm waits before it rings again", "Snooze")
        }
        PlasmaComponents3.ComboBox {
            id: snooze
            model: form.snoozeMinutes.map(function(m) { return i18np("%1 min", "%1 min", m) })
        }
    }

    RowLayout {
        PlasmaComponents3.Button {
            enabled: hours.acceptableInput && minutes.acceptableInput
            text: i18nc("@action:button", "Save")
            icon.name: "document-save"
            onClicked: form.save()
        }
        PlasmaComponents3.Button {
            visible: form.alarmId !== ""
            text: i18nc("@action:button", "Delete")
            icon.name: "edit-delete"
            onClicked: {
                form.client.cancel(form.alarmId)
                form.done()
            }
        }
        PlasmaComponents3.Button {
            text: i18nc("@action:button leave the alarm's form unsaved", "Back")
            onClicked: form.done()
        }
    }
}
