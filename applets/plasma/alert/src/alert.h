// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// One ringing alarm as alarmd shows it (docs/API.md): its title and buttons for the QML window, Stop and
// Snooze as calls to alarmd, and the end of the alert from alarmd's signals and the screen saver's.
#ifndef ALARMD_ALERT_H
#define ALARMD_ALERT_H

#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QVariantMap>
#include <QtDBus/QDBusConnection>

class OrgAlarmdAlarmManager1Interface;
class OrgAlarmdAlarm1Interface;
class QDBusPendingCall;
class QDBusServiceWatcher;

/** One line on stderr, "alarmd-lockscreen-alert: …": the program's log, one line per event. */
void say(const QString &line);

class Alert : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString title READ title NOTIFY changed)
    Q_PROPERTY(QString subtitle READ subtitle NOTIFY changed)
    // What the window shows and is called, in the user's language: the title, or "Alarm" without one.
    Q_PROPERTY(QString heading READ heading NOTIFY changed)
    Q_PROPERTY(QString windowTitle READ windowTitle NOTIFY changed)
    Q_PROPERTY(QString stopText READ stopText NOTIFY changed)
    Q_PROPERTY(QString snoozeText READ snoozeText NOTIFY changed)
    Q_PROPERTY(bool canSnooze READ canSnooze NOTIFY changed)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    /** The object path of an alarm id (docs/API.md): lowercase, '-' → '_'. */
    static QString alarmPath(const QString &id);

    Alert(const QDBusConnection &bus, const QString &id, QObject *parent = nullptr);
    ~Alert() override;

    /** Subscribes to alarmd's and the screen saver's signals, then reads the alarm. Returns the exit
     *  status to end with at once (the alarm is unknown, not ringing, the screen not locked), or -1
     *  when the alert is to be shown. */
    int start();

    QString title() const;
    QString subtitle() const;
    QString heading() const;
    QString windowTitle() const;
    QString stopText() const;
    QString snoozeText() const;
    bool canSnooze() const;
    bool busy() const { return m_busy; }

    Q_INVOKABLE void stop();
    Q_INVOKABLE void snooze();

Q_SIGNALS:
    void changed();
    void busyChanged();
    /** The alert is over: the program ends with `status`. */
    void finished(int status);

private Q_SLOTS:
    void onPropertiesChanged(const QString &interface, const QVariantMap &changed, const QStringList &invalidated);
    void onAlarmRemoved(const QString &id, const QString &appId, const QString &reason);
    void onScreenSaverActiveChanged(bool active);

private:
    QString text(const QString &key) const;
    void finish(int status, const QString &why);
    void call(const QString &method, const QDBusPendingCall &pending);
    void activateAppAction(const QString &action);

    QDBusConnection m_bus;
    QString m_id;
    QString m_path;
    OrgAlarmdAlarmManager1Interface *m_manager = nullptr;
    OrgAlarmdAlarm1Interface *m_alarm = nullptr;
    QDBusServiceWatcher *m_watcher = nullptr;
    QVariantMap m_props;
    bool m_busy = false;
    bool m_done = false;
};

#endif
