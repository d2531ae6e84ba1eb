// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

#include "alert.h"

#include "alarm1.h"
#include "alarmmanager1.h"

#include <KLocalizedString>

#include <QtCore/QRegularExpression>
#include <QtDBus/QDBusMessage>
#include <QtDBus/QDBusPendingCallWatcher>
#include <QtDBus/QDBusPendingReply>
#include <QtDBus/QDBusServiceWatcher>

#include <cstdio>

static const QString s_alarmd = QStringLiteral("org.alarmd.AlarmManager1");
static const QString s_managerPath = QStringLiteral("/org/alarmd/AlarmManager1");
static const QString s_alarmInterface = QStringLiteral("org.alarmd.Alarm1");
static const QString s_screenSaver = QStringLiteral("org.freedesktop.ScreenSaver");
static const QString s_screenSaverPath = QStringLiteral("/ScreenSaver");
static const QString s_alerting = QStringLiteral("alerting");

void say(const QString &line)
{
    std::fprintf(stderr, "alarmd-lockscreen-alert: %s\n", line.toLocal8Bit().constData());
    std::fflush(stderr);
}

// The id as alarmd stores it (lowercase, dashes), whether given in that form or the path's.
static QString canonicalId(const QString &id)
{
    return id.toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
}

QString Alert::alarmPath(const QString &id)
{
    return s_managerPath + QStringLiteral("/alarm/") + id.toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
}

Alert::Alert(const QDBusConnection &bus, const QString &id, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
    , m_id(canonicalId(id))
    , m_path(alarmPath(id))
{
    alarmdRegisterDBusTypes();
    m_manager = new OrgAlarmdAlarmManager1Interface(s_alarmd, s_managerPath, m_bus, this);
    m_alarm = new OrgAlarmdAlarm1Interface(s_alarmd, m_path, m_bus, this);
}

Alert::~Alert() = default;

int Alert::start()
{
    static const QRegularExpression idPattern(QStringLiteral("^[0-9a-z_-]+$"));
    if (!idPattern.match(m_id).hasMatch()) {
        say(QStringLiteral("not an alarm id: \"%1\" (alarmd's ids are UUIDs)").arg(m_id));
        return 1;
    }
    // Signals first, then the reads: whatever changes after a read arrives as a signal.
    m_watcher = new QDBusServiceWatcher(s_alarmd, m_bus, QDBusServiceWatcher::WatchForUnregistration, this);
    connect(m_watcher, &QDBusServiceWatcher::serviceUnregistered, this, [this] {
        finish(0, QStringLiteral("alarmd left the bus: the alert ends"));
    });
    m_bus.connect(s_alarmd, m_path, QStringLiteral("org.freedesktop.DBus.Properties"), QStringLiteral("PropertiesChanged"),
                  this, SLOT(onPropertiesChanged(QString, QVariantMap, QStringList)));
    connect(m_manager, &OrgAlarmdAlarmManager1Interface::AlarmRemoved, this, &Alert::onAlarmRemoved);
    m_bus.connect(s_screenSaver, s_screenSaverPath, s_screenSaver, QStringLiteral("ActiveChanged"), this,
                  SLOT(onScreenSaverActiveChanged(bool)));
    // alarmd broadcasts nothing: it addresses its signals to the connections that watch.
    const QDBusMessage watch = m_bus.call(QDBusMessage::createMethodCall(s_alarmd, s_managerPath, s_alarmd, QStringLiteral("Watch")));
    if (watch.type() == QDBusMessage::ErrorMessage) {
        say(QStringLiteral("cannot follow alarm %1 (Watch): %2").arg(m_id, watch.errorMessage()));
        return 1;
    }

    const QString state = m_alarm->state();
    if (m_alarm->lastError().isValid()) {
        say(QStringLiteral("cannot read alarm %1 from alarmd: %2").arg(m_id, m_alarm->lastError().message()));
        return 1;
    }
    m_props.insert(QStringLiteral("State"), state);
    m_props.insert(QStringLiteral("Presentation"), m_alarm->presentation());
    m_props.insert(QStringLiteral("AppId"), m_alarm->appId());
    m_props.insert(QStringLiteral("PostAlert"), m_alarm->postAlert());
    if (state != s_alerting) {
        say(QStringLiteral("alarm %1 is not ringing (%2): nothing to show").arg(m_id, state));
        return 0;
    }

    const QDBusMessage active = m_bus.call(
        QDBusMessage::createMethodCall(s_screenSaver, s_screenSaverPath, s_screenSaver, QStringLiteral("GetActive")));
    if (active.type() == QDBusMessage::ReplyMessage && !active.arguments().isEmpty()) {
        if (!active.arguments().constFirst().toBool()) {
            say(QStringLiteral("the screen is not locked: nothing to show (the desktop shows alarm %1)").arg(m_id));
            return 0;
        }
    } else {
        say(QStringLiteral("cannot ask the screen saver whether the screen is locked (%1): showing the alert")
                .arg(active.errorMessage()));
    }
    say(QStringLiteral("alarm %1 \"%2\" is ringing%3").arg(m_id, title(),
        canSnooze() ? QStringLiteral(": Stop and %1").arg(snoozeText()) : QStringLiteral(": Stop")));
    return -1;
}

QString Alert::text(const QString &key) const
{
    return m_props.value(QStringLiteral("Presentation")).toMap().value(key).toString();
}

QString Alert::title() const
{
    return text(QStringLiteral("title"));
}

QString Alert::subtitle() const
{
    return text(QStringLiteral("subtitle"));
}

QString Alert::heading() const
{
    return title().isEmpty() ? i18nc("@title an alarm that has no title of its own", "Alarm") : title();
}

QString Alert::windowTitle() const
{
    return title().isEmpty() ? i18nc("@title:window", "Alarm")
                             : i18nc("@title:window %1 the ringing alarm's title", "Alarm: %1", title());
}

// alarmd sets stop_button in its own language; an alarm without one still gets a word the user reads.
QString Alert::stopText() const
{
    const QString t = text(QStringLiteral("stop_button"));
    return t.isEmpty() ? i18nc("@action:button stop a ringing alarm", "Stop") : t;
}

QString Alert::snoozeText() const
{
    return text(QStringLiteral("secondary_button"));
}

// docs/API.md, Ringing: alarmd's own notification offers the secondary action when `secondary_button`
// is set; it snoozes (Countdown, for post_alert seconds) when `secondary_button_behavior` is
// `countdown`. `custom` runs an app's action instead, which a locked screen cannot show: left out.
bool Alert::canSnooze() const
{
    return !snoozeText().isEmpty() && text(QStringLiteral("secondary_button_behavior")) != QLatin1String("custom");
}

void Alert::stop()
{
    if (m_busy || m_done)
        return;
    say(QStringLiteral("Stop pressed for alarm %1").arg(m_id));
    call(QStringLiteral("Stop"), m_manager->Stop(m_id));
    activateAppAction(text(QStringLiteral("stop_action")));
}

void Alert::snooze()
{
    if (m_busy || m_done || !canSnooze())
        return;
    say(QStringLiteral("%1 pressed for alarm %2").arg(snoozeText(), m_id));
    call(QStringLiteral("Countdown"), m_manager->Countdown(m_id));
    activateAppAction(text(QStringLiteral("secondary_action")));
}

// One call to alarmd at a time; its end (the alarm leaving `alerting`) comes as a signal.
void Alert::call(const QString &method, const QDBusPendingCall &pending)
{
    m_busy = true;
    Q_EMIT busyChanged();
    auto *watcher = new QDBusPendingCallWatcher(pending, this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, method](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        m_busy = false;
        Q_EMIT busyChanged();
        if (w->isError())
            say(QStringLiteral("%1 of alarm %2 failed: %3: %4").arg(method, m_id, w->error().name(), w->error().message()));
        else
            say(QStringLiteral("alarmd answered %1 of alarm %2").arg(method, m_id));
    });
}

// As alarmd's own notification and the applets do: org.freedesktop.Application.ActivateAction on the
// app that set the alarm, when it names an action for the button.
void Alert::activateAppAction(const QString &action)
{
    const QString app = m_props.value(QStringLiteral("AppId")).toString();
    if (app.isEmpty() || action.isEmpty())
        return;
    const QString path = QLatin1Char('/') + QString(app).replace(QLatin1Char('.'), QLatin1Char('/')).replace(QLatin1Char('-'), QLatin1Char('_'));
    QDBusMessage msg = QDBusMessage::createMethodCall(app, path, QStringLiteral("org.freedesktop.Application"),
                                                      QStringLiteral("ActivateAction"));
    msg << action << QVariant::fromValue(QVariantList()) << QVariantMap();
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(msg), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [app, action](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        if (w->isError())
            say(QStringLiteral("%1's action %2 failed: %3").arg(app, action, w->error().message()));
    });
}

void Alert::onPropertiesChanged(const QString &interface, const QVariantMap &changedProps, const QStringList &invalidated)
{
    Q_UNUSED(invalidated)
    if (interface != s_alarmInterface)
        return;
    for (auto it = changedProps.constBegin(); it != changedProps.constEnd(); ++it) {
        QVariant v = it.value();
        if (v.canConvert<QDBusArgument>()) // a{sv} arrives unmarshalled
            v = qdbus_cast<QVariantMap>(v.value<QDBusArgument>());
        m_props.insert(it.key(), v);
    }
    Q_EMIT changed();
    const QString state = m_props.value(QStringLiteral("State")).toString();
    if (changedProps.contains(QStringLiteral("State")) && state != s_alerting)
        finish(0, QStringLiteral("alarm %1 stopped ringing (now %2): the alert ends").arg(m_id, state));
}

void Alert::onAlarmRemoved(const QString &id, const QString &appId, const QString &reason)
{
    Q_UNUSED(appId)
    if (canonicalId(id) == m_id)
        finish(0, QStringLiteral("alarm %1 was removed (%2): the alert ends").arg(m_id, reason));
}

void Alert::onScreenSaverActiveChanged(bool active)
{
    if (!active)
        finish(0, QStringLiteral("the screen was unlocked: the desktop shows alarm %1, the alert ends").arg(m_id));
}

void Alert::finish(int status, const QString &why)
{
    if (m_done)
        return;
    m_done = true;
    say(why);
    Q_EMIT finished(status);
}
