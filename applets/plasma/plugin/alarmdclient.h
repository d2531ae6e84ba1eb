// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The applet's mirror of alarmd (docs/API.md): one GetManagedObjects (GetAlarmsPage when that is
// refused), then only signals. The panel rule and the row texts follow the GNOME Shell applet
// (applets/gnome-shell/alarmd@alarmd.org/model.js) and `alarmctl panel`. No user-visible words live
// here: the QML translates (i18n), this gives states, times and colours.
#ifndef ALARMD_PLASMOID_CLIENT_H
#define ALARMD_PLASMOID_CLIENT_H

#include <QtCore/QAbstractListModel>
#include <QtCore/QHash>
#include <QtCore/QLocale>
#include <QtCore/QObject>
#include <QtCore/QSet>
#include <QtCore/QTimer>
#include <QtCore/QVariantMap>
#include <QtCore/QVector>
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusMessage>

#include <functional>

class OrgAlarmdAlarmManager1Interface;
class QDBusPendingCall;
class QDBusPendingCallWatcher;
class QDBusServiceWatcher;

/** One org.alarmd.Alarm1 object: its properties as last announced. */
struct AlarmdAlarm {
    QString path;
    QVariantMap props;

    QString text(const QString &key) const;
    QString id() const { return props.value(QStringLiteral("Id")).toString(); }
    QString state() const { return props.value(QStringLiteral("State")).toString(); }
    QString kind() const { return props.value(QStringLiteral("Kind")).toString(); }
    bool isWarning() const { return props.value(QStringLiteral("Phase")).toString() == QLatin1String("warning"); }
    qint64 usec(const char *key) const { return qint64(props.value(QLatin1String(key)).toULongLong()); }
    qint64 fireTime() const { return usec("FireTimeUSec"); }
    // Absent before alarmd knew how to switch alarms off: they were all on.
    bool enabled() const { return props.value(QStringLiteral("Enabled"), true).toBool(); }
    QVariantMap schedule() const { return props.value(QStringLiteral("Schedule")).toMap(); }
    qint64 remaining(qint64 now) const;
    double progress(qint64 now) const;
};

/**
 * What the panel shows, from the alarms and the clock alone (the panel rule of the GNOME Shell applet's
 * model.js and `alarmctl panel`; Tests/cases/client-rules.json holds the cases all three are tested on).
 */
struct AlarmdPanel {
    QString mode = QStringLiteral("off");  // off | idle | scheduled | countdown | paused | warning | alerting
    QString alarmId;  // the alarm shown, "" for none
    QString kind;     // its Kind: the QML names an untitled alarm "Timer" or "Alarm" by it
    QString label;    // alerting: the title, cut to 24 code points ("" for none); else the compact_label
    int more = 0;     // the other alarms ringing
    QString time;     // the countdown's clock, the scheduled alarm's local time
    QString color;    // #rrggbb or "" (the theme's)

    bool operator==(const AlarmdPanel &o) const
    {
        return mode == o.mode && alarmId == o.alarmId && kind == o.kind && label == o.label && more == o.more
            && time == o.time && color == o.color;
    }
    bool operator!=(const AlarmdPanel &o) const { return !(*this == o); }
};

/** The alarm the popup heads with and the panel's alarm-clock icon stands for (client-rules.json's
 *  next_alarm): "" for none; text is its weekday and time ("Tue 06:45"). */
struct AlarmdNext {
    QString alarmId;
    QString text;
};

/** Every alarm in reading order (ringing first, then by when they fire, paused last). */
class AlarmModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    enum Roles {
        IdRole = Qt::UserRole + 1,
        TitleRole,          // the title, "" when it has none (the QML says Timer or Alarm)
        KindRole,           // alarm | timer
        StateRole,          // scheduled | countdown | paused | alerting
        WarningRole,        // Phase == warning
        AccentRole,         // #rrggbb or "" (the theme's)
        RemainingRole,      // "24:59" (rounded up)
        FireTimeTextRole,   // "07:30", "Tue 07:30", "2026-12-24 18:00"
        ProgressRole,       // 0…1
        SecondaryButtonRole, // Presentation secondary_button ("" → Snooze)
        // Kind alarm (its form and its row): what the form edits, and the row's time and days.
        EnabledRole,        // alarmEnabled: on (Enabled, true when alarmd does not say)
        HourRole,           // Schedule hour, -1 for an alarm at a fixed date
        MinuteRole,
        WeekdaysRole,       // Schedule weekdays: ["monday", …]
        PostAlertRole,      // the snooze length, seconds
        TimeTextRole,       // "06:45" or "6:45 AM" (AlarmdClient::alarmTime)
        DaysKindRole,       // AlarmdClient::alarmDays's kind: days | every | today | tomorrow | date | once
        DaysTextRole        // its text: "Mon–Fri", a date
    };
    Q_ENUM(Roles)

    explicit AlarmModel(bool hour12, QObject *parent = nullptr);
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;
    int count() const { return m_rows.size(); }

    void setAlarms(const QVector<AlarmdAlarm> &ordered, qint64 now);
    void tick(qint64 now);

Q_SIGNALS:
    void countChanged();

private:
    QVector<AlarmdAlarm> m_rows;
    qint64 m_now = 0;
    bool m_hour12;
};

class AlarmdClient : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool running READ running NOTIFY runningChanged)
    Q_PROPERTY(AlarmModel *alarms READ alarms CONSTANT)
    // The panel (compact) view: mode off | idle | scheduled | countdown | paused | warning | alerting.
    Q_PROPERTY(QString panelMode READ panelMode NOTIFY panelChanged)
    Q_PROPERTY(QString panelKind READ panelKind NOTIFY panelChanged)
    Q_PROPERTY(QString panelLabel READ panelLabel NOTIFY panelChanged)
    Q_PROPERTY(int panelMore READ panelMore NOTIFY panelChanged)
    Q_PROPERTY(QString panelTime READ panelTime NOTIFY panelChanged)
    Q_PROPERTY(QString panelColor READ panelColor NOTIFY panelChanged)
    // The next alarm that is on: the panel's alarm-clock icon and the popup's "Next alarm" heading.
    Q_PROPERTY(QString nextAlarmId READ nextAlarmId NOTIFY panelChanged)
    Q_PROPERTY(QString nextAlarmText READ nextAlarmText NOTIFY panelChanged)
    // The locale's clock: 12-hour when its short time format has AM/PM.
    Q_PROPERTY(bool hour12 READ hour12 CONSTANT)
    // The days of the week from the locale's first: [{key: "monday", name: "Mon"}, …].
    Q_PROPERTY(QVariantList week READ week CONSTANT)

public:
    explicit AlarmdClient(QObject *parent = nullptr);
    ~AlarmdClient() override;

    bool running() const { return m_running; }
    AlarmModel *alarms() const { return m_model; }
    QString panelMode() const { return m_panel.mode; }
    QString panelKind() const { return m_panel.kind; }
    QString panelLabel() const { return m_panel.label; }
    int panelMore() const { return m_panel.more; }
    QString panelTime() const { return m_panel.time; }
    QString panelColor() const { return m_panel.color; }
    QString nextAlarmId() const { return m_next.alarmId; }
    QString nextAlarmText() const { return m_next.text; }
    bool hour12() const { return m_hour12; }
    QVariantList week() const;

    Q_INVOKABLE void pause(const QString &id) { callAlarm(QStringLiteral("Pause"), id); }
    Q_INVOKABLE void resume(const QString &id) { callAlarm(QStringLiteral("Resume"), id); }
    Q_INVOKABLE void stop(const QString &id);
    Q_INVOKABLE void secondary(const QString &id);
    Q_INVOKABLE void cancel(const QString &id) { callAlarm(QStringLiteral("Cancel"), id); }
    /** Schedules a timer of `seconds` titled `title` (the QML's translated "Timer"). */
    Q_INVOKABLE void startTimer(uint seconds, const QString &title);
    /** Schedules an alarm at hour:minute local time, repeating on weekdays (none: once), snoozing for
     *  postAlert seconds, as the user's own. */
    Q_INVOKABLE void scheduleAlarm(int hour, int minute, const QStringList &weekdays, const QString &title, uint postAlert);
    /** The same settings for an existing alarm: no weekdays makes it ring once. */
    Q_INVOKABLE void updateAlarm(const QString &id, int hour, int minute, const QStringList &weekdays,
                                 const QString &title, uint postAlert);
    /** Switches an alarm off (alarmd keeps it, and it never rings) or on again. */
    Q_INVOKABLE void setAlarmEnabled(const QString &id, bool enabled);
    /** alarmTime in the locale's clock. */
    Q_INVOKABLE QString timeText(int hour, int minute) const { return alarmTime(hour, minute, m_hour12); }
    /** D-Bus activation: org.freedesktop.DBus.StartServiceByName. */
    Q_INVOKABLE void startService();
    /** alarmctl's duration grammar (docs/API.md): {seconds} or {error: empty|malformed|zero|tooLong}. */
    Q_INVOKABLE QVariantMap parseDuration(const QString &text) const { return duration(text); }

    // The client rules (Tests/cases/client-rules.json), pure: plugin/tests/rulestest.cpp checks them.
    static QVariantMap duration(const QString &text);
    static QString clock(qint64 remainingUSec);
    static QString colorHex(const QString &name);
    static AlarmdPanel panelView(const QList<AlarmdAlarm> &alarms, bool running, qint64 now);
    static bool localeHour12(const QLocale &locale);
    static QString alarmTime(int hour, int minute, bool hour12, const QLocale &locale = QLocale());
    /** {kind, text}: kind days (text "Mon–Fri"), every, today, tomorrow, date (text the date) or once;
     *  the QML says Every day, Today, Tomorrow and Once in the user's language. firstDay: 1 Monday … 7. */
    static QVariantMap alarmDays(const QStringList &weekdays, int firstDay, qint64 fire, qint64 now,
                                 const QLocale &locale = QLocale());
    static AlarmdNext nextAlarm(const QList<AlarmdAlarm> &alarms, bool hour12,
                                const QLocale &locale = QLocale());

Q_SIGNALS:
    void runningChanged();
    void panelChanged();
    /** A call alarmd (or the bus) refused: method is the D-Bus member, message its error. */
    void callFailed(const QString &method, const QString &message);
    /** An alarm began ringing (State alerting): once per alerting episode, which ends when it leaves
     *  that state. The QML opens the popup. title is "" when the alarm has none. */
    void alertStarted(const QString &id, const QString &title);

private Q_SLOTS:
    void onOwnerChanged(const QString &name, const QString &oldOwner, const QString &newOwner);
    void onInterfacesAdded(const QDBusMessage &message);
    void onInterfacesRemoved(const QDBusMessage &message);
    void onPropertiesChanged(const QDBusMessage &message);
    void onAlarmRemoved(const QString &id, const QString &appId, const QString &reason);

private:
    void refresh();
    void fetchPage(const QString &after, quint64 generation, QHash<QString, AlarmdAlarm> *into);
    void refetch(const QString &path);
    void setRunning(bool running);
    void redraw();
    void callAlarm(const QString &method, const QString &id);
    void update(const QString &id, const QVariantMap &changes);
    void watchCall(const QDBusPendingCall &call, const QString &method);
    void ask(QDBusMessage call, const std::function<void(QDBusPendingCallWatcher *)> &done);
    void activateAppAction(const AlarmdAlarm &alarm, const QString &action);
    void followAlerts();
    QString alarmPath(const QString &id) const;

    QDBusConnection m_bus;
    QString m_service;        // the well-known name: the manager's interface name (docs/API.md)
    QString m_managerPath;
    QString m_alarmInterface;
    OrgAlarmdAlarmManager1Interface *m_manager = nullptr;
    QDBusServiceWatcher *m_watcher = nullptr;
    AlarmModel *m_model = nullptr;
    QHash<QString, AlarmdAlarm> m_alarms;   // by object path
    bool m_running = false;
    quint64 m_generation = 0;  // a refresh or alarmd's exit makes older replies stale
    bool m_paging = false;     // GetAlarmsPage in progress: pages are not one snapshot
    bool m_changedWhilePaging = false;  // a signal came meanwhile: page again afterwards
    QTimer m_tick;
    AlarmdPanel m_panel;
    AlarmdNext m_next;
    bool m_hour12 = localeHour12(QLocale());
    // Alerting episodes: the ids alerting as last seen.
    QSet<QString> m_alerting;
};

#endif
