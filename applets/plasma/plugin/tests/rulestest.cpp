// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The client rules on the plugin's AlarmdClient: duration grammar, colours, the countdown clock, remaining
// time and progress, the panel view, an alarm's time and days, the next alarm, on the cases of Tests/cases/client-rules.json, which alarmd's Swift
// tests and the GNOME Shell extension's (gjs) read too. $ALARMD_CLIENT_RULES names another copy of the
// file; by default it is the source tree's. Needs no bus: the rules are AlarmdClient's static functions.
// The cases' day names and AM/PM are English: they are read in the C locale, as the applet reads the user's.

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include <ctime>

#include "alarmdclient.h"

namespace {

// An Alarm1 property map as the bus gives it: the numbers are the …USec properties (t), the objects a{sv}.
QVariantMap properties(const QJsonObject &json)
{
    QVariantMap props;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it.value().isDouble())
            props.insert(it.key(), QVariant::fromValue(qulonglong(it.value().toDouble())));
        else if (it.value().isObject())
            props.insert(it.key(), it.value().toObject().toVariantMap());
        else
            props.insert(it.key(), it.value().toVariant());
    }
    return props;
}

// What AlarmdClient::duration says, as text: "300 s" or the error's name.
QString durationText(const QVariantMap &m)
{
    return m.contains(QLatin1String("seconds")) ? QString::number(m.value(QStringLiteral("seconds")).toLongLong()) + QLatin1String(" s")
                                                 : m.value(QStringLiteral("error")).toString();
}

// A case's name: its own, else its input as JSON (escaped: row names are printed).
QByteArray rowName(const QJsonObject &c, const QString &inputKey)
{
    if (c.contains(QLatin1String("name")))
        return c.value(QLatin1String("name")).toString().toUtf8();
    return QJsonDocument(QJsonArray{c.value(inputKey)}).toJson(QJsonDocument::Compact);
}

QList<AlarmdAlarm> alarmsOf(const QJsonArray &json)
{
    QList<AlarmdAlarm> alarms;
    for (const QJsonValue &a : json) {
        const QVariantMap props = properties(a.toObject());
        alarms << AlarmdAlarm{QLatin1String("/org/alarmd/AlarmManager1/alarm/") + props.value(QStringLiteral("Id")).toString(), props};
    }
    return alarms;
}

// The words the QML gives alarmDays's kinds (FullRepresentation's daysOf), in English.
QString daysText(const QVariantMap &days)
{
    static const QHash<QString, QString> words = {{QStringLiteral("every"), QStringLiteral("Every day")},
        {QStringLiteral("today"), QStringLiteral("Today")}, {QStringLiteral("tomorrow"), QStringLiteral("Tomorrow")},
        {QStringLiteral("once"), QStringLiteral("Once")}};
    const QString kind = days.value(QStringLiteral("kind")).toString();
    return words.value(kind, days.value(QStringLiteral("text")).toString());
}

} // namespace

class RulesTest : public QObject
{
    Q_OBJECT

private:
    QJsonObject m_rules;

    QJsonArray cases(const char *section) const
    {
        return m_rules.value(QLatin1String(section)).toObject().value(QLatin1String("cases")).toArray();
    }

    // One row a case of the section, the case itself its data; named by its name, else by inputKey's value.
    void caseRows(const char *section, const QString &inputKey)
    {
        QTest::addColumn<QJsonObject>("c");
        for (const QJsonValue &v : cases(section))
            QTest::newRow(rowName(v.toObject(), inputKey).constData()) << v.toObject();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QByteArray env = qgetenv("ALARMD_CLIENT_RULES");
        QFile file(env.isEmpty() ? QStringLiteral(ALARMD_CLIENT_RULES) : QString::fromLocal8Bit(env));
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName() + QLatin1String(": ") + file.errorString()));
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
        QVERIFY2(doc.isObject(), qPrintable(error.errorString()));
        m_rules = doc.object();
        for (const char *section : {"duration", "color", "clock", "remaining", "panel", "alarm_time", "alarm_days", "next_alarm"})
            QVERIFY2(!cases(section).isEmpty(), section);
        for (const char *section : {"alarm_days", "next_alarm"})
            QCOMPARE(m_rules.value(QLatin1String(section)).toObject().value(QLatin1String("zone")),
                     m_rules.value(QLatin1String("panel")).toObject().value(QLatin1String("zone")));
        // The panel's local times are in the zone the cases name.
        qputenv("TZ", m_rules.value(QLatin1String("panel")).toObject().value(QLatin1String("zone")).toString().toUtf8());
        tzset();
    }

    void duration_data() { caseRows("duration", QStringLiteral("input")); }

    void duration()
    {
        QFETCH(QJsonObject, c);
        const QString expected = c.contains(QLatin1String("seconds"))
            ? QString::number(qint64(c.value(QLatin1String("seconds")).toDouble())) + QLatin1String(" s")
            : c.value(QLatin1String("error")).toString();
        const QVariantMap got = AlarmdClient::duration(c.value(QLatin1String("input")).toString());
        QCOMPARE(durationText(got), expected);
        QCOMPARE(got.size(), 1);
    }

    void color_data() { caseRows("color", QStringLiteral("input")); }

    // null, the theme's colour, is "" here.
    void color()
    {
        QFETCH(QJsonObject, c);
        QCOMPARE(AlarmdClient::colorHex(c.value(QLatin1String("input")).toString()), c.value(QLatin1String("hex")).toString());
    }

    void clock_data() { caseRows("clock", QStringLiteral("usec")); }

    void clock()
    {
        QFETCH(QJsonObject, c);
        QCOMPARE(AlarmdClient::clock(qint64(c.value(QLatin1String("usec")).toDouble())), c.value(QLatin1String("text")).toString());
    }

    void remaining_data() { caseRows("remaining", QString()); }

    void remaining()
    {
        QFETCH(QJsonObject, c);
        const qint64 now = qint64(c.value(QLatin1String("now")).toDouble());
        const double progress = c.value(QLatin1String("progress")).toDouble();
        const AlarmdAlarm a{QStringLiteral("/org/alarmd/AlarmManager1/alarm/a"), properties(c.value(QLatin1String("alarm")).toObject())};
        QCOMPARE(a.remaining(now), qint64(c.value(QLatin1String("remaining")).toDouble()));
        // Exactly: the same IEEE division as every other client's (QCOMPARE on doubles would be fuzzy).
        QVERIFY2(a.progress(now) == progress, qPrintable(QString::number(a.progress(now), 'g', 17)));
    }

    void panel_data() { caseRows("panel", QString()); }

    // AlarmdClient's panel in the shared vocabulary: "" where the cases say null, and an untitled ringing
    // alarm's label "" with its kind, of which the QML makes "Timer" or "Alarm" (main.qml's titleOf).
    void panel()
    {
        QFETCH(QJsonObject, c);
        const QList<AlarmdAlarm> alarms = alarmsOf(c.value(QLatin1String("alarms")).toArray());
        const AlarmdPanel p = AlarmdClient::panelView(alarms, c.value(QLatin1String("running")).toBool(),
                                                      qint64(c.value(QLatin1String("now")).toDouble()));
        const QJsonObject e = c.value(QLatin1String("expect")).toObject();
        QCOMPARE(p.mode, e.value(QLatin1String("mode")).toString());
        QCOMPARE(p.alarmId, e.value(QLatin1String("alarm")).toString());
        const bool untitled = p.mode == QLatin1String("alerting") && p.label.isEmpty();
        const QString kindName = p.kind == QLatin1String("timer") ? QStringLiteral("Timer") : QStringLiteral("Alarm");
        QCOMPARE(untitled ? kindName : p.label, e.value(QLatin1String("label")).toString());
        QCOMPARE(p.more, e.value(QLatin1String("more")).toInt());
        QCOMPARE(p.time, e.value(QLatin1String("time")).toString());
        QCOMPARE(p.color, e.value(QLatin1String("color")).toString());
    }

    void alarmTime_data() { caseRows("alarm_time", QStringLiteral("text")); }

    void alarmTime()
    {
        QFETCH(QJsonObject, c);
        QCOMPARE(AlarmdClient::alarmTime(c.value(QLatin1String("hour")).toInt(), c.value(QLatin1String("minute")).toInt(),
                                         c.value(QLatin1String("hour12")).toBool(), QLocale::c()),
                 c.value(QLatin1String("text")).toString());
    }

    void alarmDays_data() { caseRows("alarm_days", QStringLiteral("text")); }

    void alarmDays()
    {
        QFETCH(QJsonObject, c);
        QStringList weekdays;
        for (const QJsonValue &d : c.value(QLatin1String("weekdays")).toArray())
            weekdays << d.toString();
        static const QStringList week = {QStringLiteral("monday"), QStringLiteral("tuesday"), QStringLiteral("wednesday"),
            QStringLiteral("thursday"), QStringLiteral("friday"), QStringLiteral("saturday"), QStringLiteral("sunday")};
        const int firstDay = int(week.indexOf(c.value(QLatin1String("first_day")).toString(QStringLiteral("monday")))) + 1;
        QVERIFY(firstDay > 0);
        const QVariantMap got = AlarmdClient::alarmDays(weekdays, firstDay, qint64(c.value(QLatin1String("fire")).toDouble()),
                                                        qint64(c.value(QLatin1String("now")).toDouble()), QLocale::c());
        QCOMPARE(daysText(got), c.value(QLatin1String("text")).toString());
    }

    void nextAlarm_data() { caseRows("next_alarm", QString()); }

    void nextAlarm()
    {
        QFETCH(QJsonObject, c);
        const AlarmdNext n = AlarmdClient::nextAlarm(alarmsOf(c.value(QLatin1String("alarms")).toArray()),
                                                     c.value(QLatin1String("hour12")).toBool(), QLocale::c());
        const QJsonObject e = c.value(QLatin1String("expect")).toObject();
        QCOMPARE(n.alarmId, e.value(QLatin1String("alarm")).toString());
        QCOMPARE(n.text, e.value(QLatin1String("text")).toString());
    }
};

QTEST_GUILESS_MAIN(RulesTest)
#include "rulestest.moc"
