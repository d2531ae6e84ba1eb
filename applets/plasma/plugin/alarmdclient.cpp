// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

#include "alarmdclient.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtCore/QRegularExpression>
#include <QtDBus/QDBusArgument>
#include <QtDBus/QDBusMetaType>
#include <QtDBus/QDBusObjectPath>
#include <QtDBus/QDBusPendingCallWatcher>
#include <QtDBus/QDBusPendingReply>
#include <QtDBus/QDBusServiceWatcher>

#include <algorithm>
#include <functional>
#include <cmath>
#include <utility>

#include "alarm1.h"
#include "alarmmanager1.h"

namespace {

const qint64 USEC = 1000000;
const qint64 DURATION_MAX = 157788000;  // five years of 365.25 days (docs/API.md, extensions)

// The standard interfaces alarmd's objects implement besides their own (docs/API.md).
const QString OBJECT_MANAGER = QStringLiteral("org.freedesktop.DBus.ObjectManager");
const QString PROPERTIES = QStringLiteral("org.freedesktop.DBus.Properties");

qint64 nowUSec()
{
    return QDateTime::currentMSecsSinceEpoch() * 1000;
}

// A nested container inside a{sv} arrives as a QDBusArgument: a{sv} becomes a map, as a list.
QVariant unwrap(const QVariant &value)
{
    if (value.userType() != qMetaTypeId<QDBusArgument>())
        return value;
    const QDBusArgument arg = value.value<QDBusArgument>();
    const QString sig = arg.currentSignature();
    if (sig == QLatin1String("a{sv}")) {
        QVariantMap map;
        arg >> map;
        for (auto it = map.begin(); it != map.end(); ++it)
            it.value() = unwrap(it.value());
        return map;
    }
    if (sig == QLatin1String("as")) {
        QStringList list;
        arg >> list;
        return list;
    }
    return QVariant();
}

QVariantMap readProps(const QDBusArgument &arg)
{
    QVariantMap props;
    arg >> props;
    for (auto it = props.begin(); it != props.end(); ++it)
        it.value() = unwrap(it.value());
    return props;
}

// a{sa{sv}}: interface → properties.
QHash<QString, QVariantMap> readInterfaces(const QDBusArgument &arg)
{
    QHash<QString, QVariantMap> out;
    arg.beginMap();
    while (!arg.atEnd()) {
        QString iface;
        arg.beginMapEntry();
        arg >> iface;
        out.insert(iface, readProps(arg));
        arg.endMapEntry();
    }
    arg.endMap();
    return out;
}

QString two(qint64 v)
{
    return QStringLiteral("%1").arg(v, 2, 10, QLatin1Char('0'));
}

// A wall-clock instant in local time: "07:30" today, "Tue 07:30" within the coming week, else a date;
// the clock (12 or 24 hours) and the day's name as the user's locale writes them, as alarmTime does.
QString localTime(qint64 usec, qint64 now)
{
    const QLocale locale;
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(usec / 1000);
    const QDateTime n = QDateTime::fromMSecsSinceEpoch(now / 1000);
    const QString time = AlarmdClient::alarmTime(t.time().hour(), t.time().minute(), AlarmdClient::localeHour12(locale), locale);
    if (t.date() == n.date())
        return time;
    if (usec > now && usec - now < qint64(6.5 * 86400) * USEC)
        return locale.dayName(t.date().dayOfWeek(), QLocale::ShortFormat) + QLatin1Char(' ') + time;
    // The client rules write a date further away as ISO 8601 in every language (client-rules.json).
    return t.toString(QStringLiteral("yyyy-MM-dd ")) + time;
}

// The Schedule's weekday names, Monday first (Qt::DayOfWeek - 1).
const char *const WEEKDAYS[] = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};

QDateTime localAt(qint64 usec)
{
    return QDateTime::fromMSecsSinceEpoch(usec / 1000);
}

bool byId(const AlarmdAlarm &a, const AlarmdAlarm &b)
{
    return a.id() < b.id();
}

bool byFire(const AlarmdAlarm &a, const AlarmdAlarm &b)
{
    if (a.fireTime() != b.fireTime())
        return a.fireTime() < b.fireTime();
    return byId(a, b);
}

// The order a person reads alarms in: ringing first, then by when they fire, paused and switched off last.
QVector<AlarmdAlarm> readingOrder(const QList<AlarmdAlarm> &alarms)
{
    QVector<AlarmdAlarm> v(alarms.begin(), alarms.end());
    auto key = [](const AlarmdAlarm &a) {
        return a.state() == QLatin1String("paused") || !a.enabled() ? std::numeric_limits<qint64>::max() : a.fireTime();
    };
    std::sort(v.begin(), v.end(), [&](const AlarmdAlarm &a, const AlarmdAlarm &b) {
        const bool ra = a.state() == QLatin1String("alerting"), rb = b.state() == QLatin1String("alerting");
        if (ra != rb)
            return ra;
        if (key(a) != key(b))
            return key(a) < key(b);
        return byId(a, b);
    });
    return v;
}

// `s` if it has at most `n` code points, else its first `n - 1` and "…", the cut moved back to before a
// combining mark or zero width joiner it would part from its neighbour (as model.js and alarmctl cut).
QString truncate(const QString &s, int n)
{
    const auto chars = s.toUcs4();
    if (chars.size() <= n)
        return s;
    const uint joiner = 0x200d;
    int end = n - 1;
    while (end > 0 && (QChar::isMark(chars.at(end)) || chars.at(end) == joiner || chars.at(end - 1) == joiner))
        --end;
    qsizetype units = 0;  // the UTF-16 length of the code points kept
    for (int i = 0; i < end; ++i)
        units += QChar::requiresSurrogates(chars.at(i)) ? 2 : 1;
    return s.left(units) + QChar(0x2026);
}

} // namespace

// --- one alarm -------------------------------------------------------------------------------------

QString AlarmdAlarm::text(const QString &key) const
{
    const QVariant v = props.value(QStringLiteral("Presentation")).toMap().value(key);
    return v.userType() == QMetaType::QString ? v.toString() : QString();
}

// docs/API.md's applet rule: countdown and scheduled run until FireTimeUSec; paused is frozen.
qint64 AlarmdAlarm::remaining(qint64 now) const
{
    const QString s = state();
    if (s == QLatin1String("countdown") || s == QLatin1String("scheduled"))
        return std::max<qint64>(0, fireTime() - now);
    if (s == QLatin1String("paused"))
        return std::max<qint64>(0, usec("CountdownTotalUSec") - usec("ElapsedUSec"));
    return 0;
}

double AlarmdAlarm::progress(qint64 now) const
{
    const QString s = state();
    if (s == QLatin1String("alerting"))
        return 1;
    if (s == QLatin1String("countdown") || s == QLatin1String("paused")) {
        const qint64 total = usec("CountdownTotalUSec");
        if (total <= 0)
            return 0;
        const qint64 r = std::min(remaining(now), total);
        return double(total - r) / double(total);
    }
    return 0;
}

// --- the list --------------------------------------------------------------------------------------

AlarmModel::AlarmModel(bool hour12, QObject *parent)
    : QAbstractListModel(parent)
    , m_hour12(hour12)
{
}

int AlarmModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows.size();
}

QHash<int, QByteArray> AlarmModel::roleNames() const
{
    return {
        {IdRole, "alarmId"},
        {TitleRole, "title"},
        {KindRole, "kind"},
        {StateRole, "alarmState"},
        {WarningRole, "warning"},
        {AccentRole, "accent"},
        {RemainingRole, "remaining"},
        {FireTimeTextRole, "fireTimeText"},
        {ProgressRole, "progress"},
        {SecondaryButtonRole, "secondaryButton"},
        {EnabledRole, "alarmEnabled"},
        {HourRole, "hour"},
        {MinuteRole, "minute"},
        {WeekdaysRole, "weekdays"},
        {PostAlertRole, "postAlert"},
        {TimeTextRole, "timeText"},
        {DaysKindRole, "daysKind"},
        {DaysTextRole, "daysText"},
    };
}

QVariant AlarmModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return QVariant();
    const AlarmdAlarm &a = m_rows.at(index.row());
    switch (role) {
    case IdRole:
        return a.id();
    case TitleRole:
        return a.text(QStringLiteral("title"));
    case KindRole:
        return a.kind();
    case StateRole:
        return a.state();
    case WarningRole:
        return a.isWarning();
    case AccentRole:
        return AlarmdClient::colorHex(a.text(QStringLiteral("accent_color")));
    case RemainingRole:
        return AlarmdClient::clock(a.remaining(m_now));
    case FireTimeTextRole:
        return a.fireTime() > 0 ? localTime(a.fireTime(), m_now) : QString();
    case ProgressRole:
        return a.progress(m_now);
    case SecondaryButtonRole:
        return a.text(QStringLiteral("secondary_button"));
    case EnabledRole:
        return a.enabled();
    case HourRole:
        return a.schedule().value(QStringLiteral("hour"), -1).toInt();
    case MinuteRole:
        return a.schedule().value(QStringLiteral("minute"), 0).toInt();
    case WeekdaysRole:
        return a.schedule().value(QStringLiteral("weekdays")).toStringList();
    case PostAlertRole:
        return a.props.value(QStringLiteral("PostAlert")).toUInt();
    case TimeTextRole: {
        const QVariantMap s = a.schedule();
        if (s.contains(QStringLiteral("hour")))
            return AlarmdClient::alarmTime(s.value(QStringLiteral("hour")).toInt(), s.value(QStringLiteral("minute")).toInt(), m_hour12);
        return a.fireTime() > 0 ? localTime(a.fireTime(), m_now) : QString();
    }
    case DaysKindRole:
    case DaysTextRole: {
        const QVariantMap days = AlarmdClient::alarmDays(a.schedule().value(QStringLiteral("weekdays")).toStringList(),
                                                         QLocale().firstDayOfWeek(), a.fireTime(), m_now);
        return days.value(role == DaysKindRole ? QStringLiteral("kind") : QStringLiteral("text"));
    }
    default:
        return QVariant();
    }
}

void AlarmModel::setAlarms(const QVector<AlarmdAlarm> &ordered, qint64 now)
{
    m_now = now;
    bool same = ordered.size() == m_rows.size();
    for (int i = 0; same && i < ordered.size(); ++i)
        same = ordered.at(i).path == m_rows.at(i).path;
    if (same) {
        m_rows = ordered;
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0), index(m_rows.size() - 1));
        return;
    }
    const int before = m_rows.size();
    beginResetModel();
    m_rows = ordered;
    endResetModel();
    if (before != m_rows.size())
        Q_EMIT countChanged();
}

void AlarmModel::tick(qint64 now)
{
    m_now = now;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0), index(m_rows.size() - 1),
                           {RemainingRole, FireTimeTextRole, ProgressRole, TimeTextRole, DaysKindRole, DaysTextRole});
}

// --- the client ------------------------------------------------------------------------------------

AlarmdClient::AlarmdClient(QObject *parent)
    : QObject(parent)
    , m_bus(QDBusConnection::sessionBus())
    , m_model(new AlarmModel(localeHour12(QLocale()), this))
{
    alarmdRegisterDBusTypes();
    // docs/API.md: the service's well-known name is its manager interface's name, and the manager
    // lives at the path spelled the same way; the names come from the generated proxies.
    m_service = QString::fromLatin1(OrgAlarmdAlarmManager1Interface::staticInterfaceName());
    m_managerPath = QLatin1Char('/') + QString(m_service).replace(QLatin1Char('.'), QLatin1Char('/'));
    m_alarmInterface = QString::fromLatin1(OrgAlarmdAlarm1Interface::staticInterfaceName());
    m_manager = new OrgAlarmdAlarmManager1Interface(m_service, m_managerPath, m_bus, this);

    m_tick.setSingleShot(true);
    m_tick.setTimerType(Qt::PreciseTimer);
    connect(&m_tick, &QTimer::timeout, this, &AlarmdClient::redraw);

    m_watcher = new QDBusServiceWatcher(m_service, m_bus, QDBusServiceWatcher::WatchForOwnerChange, this);
    connect(m_watcher, &QDBusServiceWatcher::serviceOwnerChanged, this, &AlarmdClient::onOwnerChanged);
    m_bus.connect(m_service, m_managerPath, OBJECT_MANAGER, QStringLiteral("InterfacesAdded"), this,
                  SLOT(onInterfacesAdded(QDBusMessage)));
    m_bus.connect(m_service, m_managerPath, OBJECT_MANAGER, QStringLiteral("InterfacesRemoved"), this,
                  SLOT(onInterfacesRemoved(QDBusMessage)));
    // Any alarm object's changes (arg0 = the alarm interface): the paths come and go with the alarms.
    m_bus.connect(m_service, QString(), PROPERTIES, QStringLiteral("PropertiesChanged"), {m_alarmInterface},
                  QString(), this, SLOT(onPropertiesChanged(QDBusMessage)));
    connect(m_manager, &OrgAlarmdAlarmManager1Interface::AlarmRemoved, this, &AlarmdClient::onAlarmRemoved);

    // Whether alarmd runs is the bus's to say (NameHasOwner, to the bus itself, never to alarmd):
    // then one read of everything.
    QDBusMessage has = QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.DBus"),
                                                      QStringLiteral("/org/freedesktop/DBus"),
                                                      QStringLiteral("org.freedesktop.DBus"),
                                                      QStringLiteral("NameHasOwner"));
    has << m_service;
    auto *w = new QDBusPendingCallWatcher(m_bus.asyncCall(has), this);
    connect(w, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        QDBusPendingReply<bool> reply = *w;
        if (!reply.isError() && reply.value() && !m_running) {
            setRunning(true);
            refresh();
        }
        redraw();
    });
    redraw();
}

AlarmdClient::~AlarmdClient() = default;

QString AlarmdClient::alarmPath(const QString &id) const
{
    return m_managerPath + QStringLiteral("/alarm/") + id.toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
}

void AlarmdClient::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    Q_EMIT runningChanged();
}

void AlarmdClient::onOwnerChanged(const QString &, const QString &, const QString &newOwner)
{
    ++m_generation;
    m_paging = false;
    m_alarms.clear();
    if (newOwner.isEmpty()) {
        setRunning(false);
    } else {
        setRunning(true);
        refresh();
    }
    redraw();
}

void AlarmdClient::refresh()
{
    const quint64 generation = ++m_generation;
    // alarmd broadcasts nothing: it addresses its signals to the connections that watch. Watch, then
    // read (alarmd answers in order): a change in between arrives as a signal after the reply. Never
    // Unwatch: every applet of this plasmashell shares its one session-bus connection.
    ask(QDBusMessage::createMethodCall(m_service, m_managerPath, m_service, QStringLiteral("Watch")),
        [this](QDBusPendingCallWatcher *w) {
        const QDBusMessage reply = w->reply();
        if (reply.type() == QDBusMessage::ErrorMessage)
            Q_EMIT callFailed(QStringLiteral("Watch"), reply.errorMessage());
    });
    ask(QDBusMessage::createMethodCall(m_service, m_managerPath, OBJECT_MANAGER, QStringLiteral("GetManagedObjects")),
        [this, generation](QDBusPendingCallWatcher *w) {
        if (generation != m_generation)
            return;  // a newer refresh or alarmd's exit came first
        const QDBusMessage reply = w->reply();
        if (reply.type() == QDBusMessage::ErrorMessage) {
            if (reply.errorName() == QLatin1String("org.freedesktop.DBus.Error.LimitsExceeded")) {
                // Too many alarms for one message (docs/API.md): page through them instead.
                m_paging = true;
                m_changedWhilePaging = false;
                fetchPage(QString(), generation, new QHash<QString, AlarmdAlarm>());
            } else {
                Q_EMIT callFailed(QStringLiteral("GetManagedObjects"), reply.errorMessage());
            }
            return;
        }
        m_alarms.clear();
        const QDBusArgument arg = reply.arguments().value(0).value<QDBusArgument>();
        arg.beginMap();
        while (!arg.atEnd()) {
            QDBusObjectPath path;
            arg.beginMapEntry();
            arg >> path;
            const QHash<QString, QVariantMap> ifaces = readInterfaces(arg);
            arg.endMapEntry();
            if (ifaces.contains(m_alarmInterface))
                m_alarms.insert(path.path(), AlarmdAlarm{path.path(), ifaces.value(m_alarmInterface)});
        }
        arg.endMap();
        redraw();
    });
}

void AlarmdClient::fetchPage(const QString &after, quint64 generation, QHash<QString, AlarmdAlarm> *into)
{
    auto *w = new QDBusPendingCallWatcher(m_manager->GetAlarmsPage(after, 0), this);
    connect(w, &QDBusPendingCallWatcher::finished, this, [this, generation, into](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        QDBusPendingReply<QList<QVariantMap>, QString> reply = *w;
        if (generation != m_generation || reply.isError()) {
            if (generation == m_generation) {
                m_paging = false;
                Q_EMIT callFailed(QStringLiteral("GetAlarmsPage"), reply.error().message());
            }
            delete into;
            return;
        }
        for (QVariantMap props : reply.argumentAt<0>()) {
            for (auto it = props.begin(); it != props.end(); ++it)
                it.value() = unwrap(it.value());
            const QString path = alarmPath(props.value(QStringLiteral("Id")).toString());
            into->insert(path, AlarmdAlarm{path, props});
        }
        const QString next = reply.argumentAt<1>();
        if (!next.isEmpty()) {
            fetchPage(next, generation, into);
            return;
        }
        m_alarms = *into;
        delete into;
        m_paging = false;
        redraw();
        // The pages are not one snapshot: what a signal changed on a page already read would be lost.
        if (m_changedWhilePaging)
            refresh();
    });
}

void AlarmdClient::refetch(const QString &path)
{
    const quint64 generation = m_generation;
    QDBusMessage call = QDBusMessage::createMethodCall(m_service, path, PROPERTIES, QStringLiteral("GetAll"));
    call << m_alarmInterface;
    ask(call, [this, generation, path](QDBusPendingCallWatcher *w) {
        const QDBusMessage reply = w->reply();
        if (generation != m_generation || reply.type() == QDBusMessage::ErrorMessage || !m_alarms.contains(path))
            return;  // gone meanwhile (InterfacesRemoved follows), or stale
        const QVariantMap props = readProps(reply.arguments().value(0).value<QDBusArgument>());
        for (auto it = props.begin(); it != props.end(); ++it)
            m_alarms[path].props.insert(it.key(), it.value());
        redraw();
    });
}

void AlarmdClient::onInterfacesAdded(const QDBusMessage &message)
{
    const QList<QVariant> args = message.arguments();
    if (args.size() < 2 || !m_running)
        return;
    const QString path = args.at(0).value<QDBusObjectPath>().path();
    const QHash<QString, QVariantMap> ifaces = readInterfaces(args.at(1).value<QDBusArgument>());
    if (!ifaces.contains(m_alarmInterface))
        return;
    m_changedWhilePaging = m_changedWhilePaging || m_paging;
    m_alarms.insert(path, AlarmdAlarm{path, ifaces.value(m_alarmInterface)});
    redraw();
}

void AlarmdClient::onInterfacesRemoved(const QDBusMessage &message)
{
    const QList<QVariant> args = message.arguments();
    if (args.size() < 2)
        return;
    const QString path = args.at(0).value<QDBusObjectPath>().path();
    if (!args.at(1).toStringList().contains(m_alarmInterface))
        return;
    m_changedWhilePaging = m_changedWhilePaging || m_paging;
    if (m_alarms.remove(path))
        redraw();
}

void AlarmdClient::onAlarmRemoved(const QString &id, const QString &, const QString &)
{
    if (m_alarms.remove(alarmPath(id)))
        redraw();
}

void AlarmdClient::onPropertiesChanged(const QDBusMessage &message)
{
    const QList<QVariant> args = message.arguments();
    if (args.size() < 3 || args.at(0).toString() != m_alarmInterface)
        return;
    m_changedWhilePaging = m_changedWhilePaging || m_paging;
    auto it = m_alarms.find(message.path());
    if (it == m_alarms.end())
        return;
    const QVariantMap changed = readProps(args.at(1).value<QDBusArgument>());
    for (auto c = changed.begin(); c != changed.end(); ++c)
        it->props.insert(c.key(), c.value());
    const QStringList invalidated = args.at(2).toStringList();
    for (const QString &name : invalidated)
        it->props.remove(name);
    redraw();
    if (!invalidated.isEmpty())
        refetch(message.path());
}

QString AlarmdClient::clock(qint64 remainingUSec)
{
    const qint64 total = (std::max<qint64>(0, remainingUSec) + USEC - 1) / USEC;
    const qint64 d = total / 86400, h = total / 3600 % 24, m = total / 60 % 60, s = total % 60;
    if (d > 0)
        return QStringLiteral("%1d %2:%3:%4").arg(d).arg(two(h), two(m), two(s));
    if (h > 0)
        return QStringLiteral("%1:%2:%3").arg(h).arg(two(m), two(s));
    return QStringLiteral("%1:%2").arg(m).arg(two(s));
}

// `#rrggbb` for a colour the panel can draw: named colours as Apple's system palette and CSS give
// them (the GNOME applet's palette), hex as given (alpha dropped); "" for the theme's.
QString AlarmdClient::colorHex(const QString &name)
{
    static const QHash<QString, QString> palette = {
        {QStringLiteral("red"), QStringLiteral("#ff3b30")}, {QStringLiteral("orange"), QStringLiteral("#ff9500")},
        {QStringLiteral("yellow"), QStringLiteral("#ffcc00")}, {QStringLiteral("green"), QStringLiteral("#34c759")},
        {QStringLiteral("mint"), QStringLiteral("#00c7be")}, {QStringLiteral("teal"), QStringLiteral("#30b0c7")},
        {QStringLiteral("cyan"), QStringLiteral("#32ade6")}, {QStringLiteral("blue"), QStringLiteral("#007aff")},
        {QStringLiteral("indigo"), QStringLiteral("#5856d6")}, {QStringLiteral("purple"), QStringLiteral("#af52de")},
        {QStringLiteral("pink"), QStringLiteral("#ff2d55")}, {QStringLiteral("brown"), QStringLiteral("#a2845e")},
        {QStringLiteral("white"), QStringLiteral("#ffffff")}, {QStringLiteral("gray"), QStringLiteral("#8e8e93")},
        {QStringLiteral("grey"), QStringLiteral("#8e8e93")}, {QStringLiteral("black"), QStringLiteral("#000000")},
        {QStringLiteral("silver"), QStringLiteral("#c0c0c0")}, {QStringLiteral("maroon"), QStringLiteral("#800000")},
        {QStringLiteral("olive"), QStringLiteral("#808000")}, {QStringLiteral("lime"), QStringLiteral("#00ff00")},
        {QStringLiteral("aqua"), QStringLiteral("#00ffff")}, {QStringLiteral("navy"), QStringLiteral("#000080")},
        {QStringLiteral("fuchsia"), QStringLiteral("#ff00ff")}, {QStringLiteral("magenta"), QStringLiteral("#ff00ff")},
    };
    const QString lower = name.toLower();
    if (palette.contains(lower))
        return palette.value(lower);
    // Anchored at the very end: `$` would match before a final newline too.
    static const QRegularExpression hex(QRegularExpression::anchoredPattern(QStringLiteral("#([0-9a-f]{6}|[0-9a-f]{8})")));
    if (hex.match(lower).hasMatch())
        return lower.left(7);
    return QString();
}

// The panel rule (model.js panelView, alarmctl panel): a ringing alarm first, else the countdown
// ending first (paused ones after running ones), else the next alarm's local time; idle otherwise.
AlarmdPanel AlarmdClient::panelView(const QList<AlarmdAlarm> &all, bool running, qint64 now)
{
    AlarmdPanel v;
    v.mode = running ? QStringLiteral("idle") : QStringLiteral("off");
    if (!running)
        return v;
    QVector<AlarmdAlarm> byTime(all.begin(), all.end());
    std::sort(byTime.begin(), byTime.end(), byFire);
    QVector<AlarmdAlarm> ringing, counting, paused;
    for (const AlarmdAlarm &a : byTime) {
        if (a.state() == QLatin1String("alerting"))
            ringing << a;
        else if (a.state() == QLatin1String("countdown"))
            counting << a;
        else if (a.state() == QLatin1String("paused"))
            paused << a;
    }
    std::stable_sort(counting.begin(), counting.end(), [now](const AlarmdAlarm &a, const AlarmdAlarm &b) {
        if (a.remaining(now) != b.remaining(now))
            return a.remaining(now) < b.remaining(now);
        return a.id() < b.id();
    });
    const AlarmdAlarm *shown = nullptr;
    if (!ringing.isEmpty()) {
        shown = &ringing.first();
        v.mode = QStringLiteral("alerting");
        v.label = truncate(shown->text(QStringLiteral("title")), 24);
        v.more = int(ringing.size()) - 1;
        v.color = colorHex(shown->text(QStringLiteral("accent_color")));
        if (v.color.isEmpty())
            v.color = colorHex(QStringLiteral("red"));
    } else if (!counting.isEmpty() || !paused.isEmpty()) {
        shown = counting.isEmpty() ? &paused.first() : &counting.first();
        if (shown->state() == QLatin1String("paused"))
            v.mode = QStringLiteral("paused");
        else
            v.mode = shown->isWarning() ? QStringLiteral("warning") : QStringLiteral("countdown");
        v.label = shown->text(QStringLiteral("compact_label"));
        v.time = clock(shown->remaining(now));
        v.color = colorHex(shown->text(QStringLiteral("accent_color")));
    } else if (const auto next = std::find_if(byTime.cbegin(), byTime.cend(), [](const AlarmdAlarm &a) {
                   // Switched off: FireTimeUSec 0 is no instant, and it never rings.
                   return a.enabled() && a.fireTime() > 0;
               });
               next != byTime.cend()) {
        shown = &*next;
        v.mode = QStringLiteral("scheduled");
        v.time = localTime(shown->fireTime(), now);
        v.color = colorHex(shown->text(QStringLiteral("accent_color")));
    }
    if (shown) {
        v.alarmId = shown->id();
        v.kind = shown->kind();
    }
    return v;
}

bool AlarmdClient::localeHour12(const QLocale &locale)
{
    return locale.timeFormat(QLocale::ShortFormat).contains(QLatin1Char('a'), Qt::CaseInsensitive);
}

QString AlarmdClient::alarmTime(int hour, int minute, bool hour12, const QLocale &locale)
{
    if (!hour12)
        return QStringLiteral("%1:%2").arg(two(hour), two(minute));
    const int h = hour % 12 == 0 ? 12 : hour % 12;
    return QStringLiteral("%1:%2 %3").arg(h).arg(two(minute), hour < 12 ? locale.amText() : locale.pmText());
}

QVariantMap AlarmdClient::alarmDays(const QStringList &weekdays, int firstDay, qint64 fire, qint64 now,
                                    const QLocale &locale)
{
    auto result = [](const char *kind, const QString &text = QString()) {
        return QVariantMap{{QStringLiteral("kind"), QString::fromLatin1(kind)}, {QStringLiteral("text"), text}};
    };
    if (weekdays.isEmpty()) {
        if (fire <= 0)
            return result("once");
        const QDate day = localAt(fire).date(), today = localAt(now).date();
        if (day == today)
            return result("today");
        if (day == today.addDays(1))
            return result("tomorrow");
        return result("date", locale.toString(day, QLocale::ShortFormat));
    }
    bool on[7] = {};
    for (int d = 0; d < 7; ++d)
        on[d] = weekdays.contains(QLatin1String(WEEKDAYS[d]));
    if (std::all_of(std::begin(on), std::end(on), [](bool b) { return b; }))
        return result("every");
    // The week from the locale's first day; three days or more in a row read as one range.
    QStringList parts;
    for (int i = 0; i < 7;) {
        const int d = (firstDay - 1 + i) % 7;
        if (!on[d]) {
            ++i;
            continue;
        }
        int run = 1;
        while (i + run < 7 && on[(firstDay - 1 + i + run) % 7])
            ++run;
        const int last = (d + run - 1) % 7;
        if (run >= 3) {
            parts << locale.dayName(d + 1, QLocale::ShortFormat) + QChar(0x2013) + locale.dayName(last + 1, QLocale::ShortFormat);
        } else {
            for (int k = 0; k < run; ++k)
                parts << locale.dayName((d + k) % 7 + 1, QLocale::ShortFormat);
        }
        i += run;
    }
    return result("days", parts.join(QStringLiteral(", ")));
}

// Of the alarms that are on and waiting (a ringing one is not next), the one that rings first.
AlarmdNext AlarmdClient::nextAlarm(const QList<AlarmdAlarm> &alarms, bool hour12, const QLocale &locale)
{
    const AlarmdAlarm *next = nullptr;
    for (const AlarmdAlarm &a : alarms) {
        const bool waiting = a.state() == QLatin1String("scheduled") || a.state() == QLatin1String("countdown");
        if (a.kind() != QLatin1String("alarm") || !a.enabled() || !waiting || a.fireTime() <= 0)
            continue;
        if (!next || a.fireTime() < next->fireTime() || (a.fireTime() == next->fireTime() && byId(a, *next)))
            next = &a;
    }
    AlarmdNext n;
    if (!next)
        return n;
    const QDateTime t = localAt(next->fireTime());
    n.alarmId = next->id();
    n.text = locale.dayName(t.date().dayOfWeek(), QLocale::ShortFormat) + QLatin1Char(' ')
        + alarmTime(t.time().hour(), t.time().minute(), hour12, locale);
    return n;
}

QVariantList AlarmdClient::week() const
{
    const QLocale locale;
    QVariantList days;
    for (int i = 0; i < 7; ++i) {
        const int d = (locale.firstDayOfWeek() - 1 + i) % 7;
        days << QVariantMap{{QStringLiteral("key"), QString::fromLatin1(WEEKDAYS[d])},
                            {QStringLiteral("name"), locale.dayName(d + 1, QLocale::ShortFormat)}};
    }
    return days;
}

void AlarmdClient::redraw()
{
    const qint64 now = nowUSec();
    const QList<AlarmdAlarm> all = m_alarms.values();
    m_model->setAlarms(readingOrder(all), now);
    followAlerts();

    const AlarmdPanel panel = panelView(all, m_running, now);
    const AlarmdNext next = m_running ? nextAlarm(all, m_hour12) : AlarmdNext();
    if (panel != m_panel || next.alarmId != m_next.alarmId || next.text != m_next.text) {
        m_panel = panel;
        m_next = next;
        Q_EMIT panelChanged();
    }

    // The one-second tick runs only while something counts down: then a millisecond past the
    // moment the shortest remaining time crosses a whole second.
    m_tick.stop();
    qint64 shortest = -1;
    if (m_running) {
        for (const AlarmdAlarm &a : all) {
            if (a.state() == QLatin1String("countdown") && a.fireTime() > now) {
                const qint64 r = a.remaining(now);
                if (shortest < 0 || r < shortest)
                    shortest = r;
            }
        }
    }
    if (shortest >= 0) {
        const qint64 toBoundary = shortest % USEC == 0 ? USEC : shortest % USEC;
        m_tick.start(int(std::max<qint64>(1, (toBoundary + 999) / 1000 + 1)));
    }
}

// Alerting episodes: one begins when an alarm is seen alerting that was not at the last look, and ends
// when it is seen in another state (or gone). A new one opens the popup (alertStarted). (alarmd itself
// starts the alert above a locked screen: applets/plasma/alert/README.md.)
void AlarmdClient::followAlerts()
{
    QSet<QString> alerting;
    QVector<QPair<QString, QString>> started;  // id, title
    for (const AlarmdAlarm &a : std::as_const(m_alarms)) {
        if (a.state() != QLatin1String("alerting"))
            continue;
        alerting.insert(a.id());
        if (!m_alerting.contains(a.id()))
            started << qMakePair(a.id(), a.text(QStringLiteral("title")));
    }
    m_alerting = alerting;
    for (const auto &a : std::as_const(started))
        Q_EMIT alertStarted(a.first, a.second);
}

// A call that must not start its service (alarmd): no reply from no one is an answer.
void AlarmdClient::ask(QDBusMessage call, const std::function<void(QDBusPendingCallWatcher *)> &done)
{
    call.setAutoStartService(false);
    auto *w = new QDBusPendingCallWatcher(m_bus.asyncCall(call), this);
    connect(w, &QDBusPendingCallWatcher::finished, this, [done](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        done(w);
    });
}

void AlarmdClient::watchCall(const QDBusPendingCall &call, const QString &method)
{
    auto *w = new QDBusPendingCallWatcher(call, this);
    connect(w, &QDBusPendingCallWatcher::finished, this, [this, method](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        if (w->isError())
            Q_EMIT callFailed(method, w->error().message());
    });
}

void AlarmdClient::callAlarm(const QString &method, const QString &id)
{
    QDBusPendingCall call = m_manager->asyncCall(method, id);
    watchCall(call, method);
}

void AlarmdClient::stop(const QString &id)
{
    callAlarm(QStringLiteral("Stop"), id);
    const auto it = m_alarms.constFind(alarmPath(id));
    if (it != m_alarms.constEnd())
        activateAppAction(*it, it->text(QStringLiteral("stop_action")));
}

// Snooze, or the app's own secondary button (docs/API.md: secondary_button_behavior).
void AlarmdClient::secondary(const QString &id)
{
    const auto it = m_alarms.constFind(alarmPath(id));
    const bool custom = it != m_alarms.constEnd()
        && it->text(QStringLiteral("secondary_button_behavior")) == QLatin1String("custom");
    if (!custom)
        callAlarm(QStringLiteral("Countdown"), id);
    if (it != m_alarms.constEnd())
        activateAppAction(*it, it->text(QStringLiteral("secondary_action")));
}

// As alarmd's own notification does: org.freedesktop.Application.ActivateAction on the app.
void AlarmdClient::activateAppAction(const AlarmdAlarm &alarm, const QString &action)
{
    const QString app = alarm.props.value(QStringLiteral("AppId")).toString();
    if (app.isEmpty() || action.isEmpty())
        return;
    const QString path = QLatin1Char('/') + QString(app).replace(QLatin1Char('.'), QLatin1Char('/')).replace(QLatin1Char('-'), QLatin1Char('_'));
    QDBusMessage call = QDBusMessage::createMethodCall(app, path, QStringLiteral("org.freedesktop.Application"),
                                                       QStringLiteral("ActivateAction"));
    call << action << QVariant::fromValue(QVariantList()) << QVariantMap();
    watchCall(m_bus.asyncCall(call), QStringLiteral("ActivateAction"));
}

void AlarmdClient::startTimer(uint seconds, const QString &title)
{
    QVariantMap config;
    config.insert(QStringLiteral("title"), title);
    config.insert(QStringLiteral("duration"), QVariant::fromValue(seconds));
    watchCall(m_manager->Schedule(QString(), config), QStringLiteral("Schedule"));
}

namespace {
QVariantMap alarmSettings(int hour, int minute, const QString &title, uint postAlert)
{
    return {{QStringLiteral("hour"), QVariant::fromValue(uint(hour))}, {QStringLiteral("minute"), QVariant::fromValue(uint(minute))},
            {QStringLiteral("title"), title}, {QStringLiteral("post_alert"), QVariant::fromValue(postAlert)}};
}
} // namespace

void AlarmdClient::scheduleAlarm(int hour, int minute, const QStringList &weekdays, const QString &title, uint postAlert)
{
    QVariantMap config = alarmSettings(hour, minute, title, postAlert);
    // No weekdays: once, at the next hour:minute (alarmd's default when the key is absent).
    if (!weekdays.isEmpty())
        config.insert(QStringLiteral("weekdays"), weekdays);
    watchCall(m_manager->Schedule(QString(), config), QStringLiteral("Schedule"));
}

void AlarmdClient::updateAlarm(const QString &id, int hour, int minute, const QStringList &weekdays, const QString &title,
                               uint postAlert)
{
    QVariantMap changes = alarmSettings(hour, minute, title, postAlert);
    // An empty list, not an absent key: Update keeps what it is not given.
    changes.insert(QStringLiteral("weekdays"), weekdays);
    update(id, changes);
}

void AlarmdClient::setAlarmEnabled(const QString &id, bool enabled)
{
    update(id, {{QStringLiteral("enabled"), enabled}});
}

void AlarmdClient::update(const QString &id, const QVariantMap &changes)
{
    watchCall(m_manager->Update(id, changes, QStringList()), QStringLiteral("Update"));
}

void AlarmdClient::startService()
{
    QDBusMessage call = QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.DBus"),
                                                       QStringLiteral("/org/freedesktop/DBus"),
                                                       QStringLiteral("org.freedesktop.DBus"),
                                                       QStringLiteral("StartServiceByName"));
    call << m_service << 0u;
    watchCall(m_bus.asyncCall(call), QStringLiteral("StartServiceByName"));
}

QVariantMap AlarmdClient::duration(const QString &input)
{
    auto error = [](const char *why) { return QVariantMap{{QStringLiteral("error"), QString::fromLatin1(why)}}; };
    auto seconds = [](qint64 s) { return QVariantMap{{QStringLiteral("seconds"), s}}; };
    // Surrounding spaces (Unicode Zs) and tabs are ignored, line ends are not (as alarmd's grammar).
    auto isSpace = [](QChar c) { return c == QLatin1Char('\t') || c.category() == QChar::Separator_Space; };
    qsizetype from = 0, to = input.size();
    while (from < to && isSpace(input.at(from)))
        ++from;
    while (to > from && isSpace(input.at(to - 1)))
        --to;
    const QString s = input.mid(from, to - from);
    if (s.isEmpty())
        return error("empty");
    // Anchored at the very end: `$` would match before a final newline too.
    static const QRegularExpression digitsOnly(QRegularExpression::anchoredPattern(QStringLiteral("[0-9]+")));
    auto bounded = [](const QString &digits, qint64 unit, qint64 *out) {
        // More than 12 digits is beyond five years in any unit: refuse before any overflow.
        if (digits.size() > 12)
            return false;
        *out = digits.toLongLong() * unit;
        return *out <= DURATION_MAX;
    };
    qint64 total = 0;
    if (digitsOnly.match(s).hasMatch()) {
        if (!bounded(s, 1, &total))
            return error("tooLong");
        return total == 0 ? error("zero") : seconds(total);
    }
    const QString units = QStringLiteral("dhms");
    const qint64 factor[] = {86400, 3600, 60, 1};
    int nextUnit = 0;
    QString digits;
    for (const QChar c : s) {
        if (c >= QLatin1Char('0') && c <= QLatin1Char('9')) {
            digits += c;
            continue;
        }
        const int index = units.indexOf(c, nextUnit);
        if (digits.isEmpty() || index < 0)
            return error("malformed");
        qint64 part = 0;
        if (!bounded(digits, factor[index], &part))
            return error("tooLong");
        total += part;
        nextUnit = index + 1;
        digits.clear();
    }
    if (!digits.isEmpty())
        return error("malformed");
    if (total == 0)
        return error("zero");
    if (total > DURATION_MAX)
        return error("tooLong");
    return seconds(total);
}
