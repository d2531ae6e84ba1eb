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

    void duration_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        for (const QJsonValue &v : cases("duration")) {
            const QJsonObject c = v.toObject();
            const QString expected = c.contains(QLatin1String("seconds"))
                ? QString::number(qint64(c.value(QLatin1String("seconds")).toDouble())) + QLatin1String(" s")
                : c.value(QLatin1String("error")).toString();
            QTest::newRow(rowName(c, QStringLiteral("input")).constData()) << c.value(QLatin1String("input")).toString() << expected;
        }
    }

    void duration()
    {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        const QVariantMap got = AlarmdClient::duration(input);
        QCOMPARE(durationText(got), expected);
        QCOMPARE(got.size(), 1);
    }

    void color_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("hex");
        for (const QJsonValue &v : cases("color")) {
            const QJsonObject c = v.toObject();
            // null, the theme's colour, is "" here.
            QTest::newRow(rowName(c, QStringLiteral("input")).constData())
                << c.value(QLatin1String("input")).toString() << c.value(QLatin1String("hex")).toString();
        }
    }

    void color()
    {
        QFETCH(QString, input);
        QFETCH(QString, hex);
        QCOMPARE(AlarmdClient::colorHex(input), hex);
    }

    void clock_data()
    {
        QTest::addColumn<qint64>("usec");
        QTest::addColumn<QString>("text");
        for (const QJsonValue &v : cases("clock")) {
            const QJsonObject c = v.toObject();
            QTest::newRow(rowName(c, QStringLiteral("usec")).constData())
                << qint64(c.value(QLatin1String("usec")).toDouble()) << c.value(QLatin1String("text")).toString();
        }
    }

    void clock()
    {
        QFETCH(qint64, usec);
        QFETCH(QString, text);
        QCOMPARE(AlarmdClient::clock(usec), text);
    }

    void remaining_data()
    {
        QTest::addColumn<QVariantMap>("props");
        QTest::addColumn<qint64>("now");
        QTest::addColumn<qint64>("remaining");
        QTest::addColumn<double>("progress");
        for (const QJsonValue &v : cases("remaining")) {
            const QJsonObject c = v.toObject();
            QTest::newRow(rowName(c, QString()).constData()) << properties(c.value(QLatin1String("alarm")).toObject())
                << qint64(c.value(QLatin1String("now")).toDouble()) << qint64(c.value(QLatin1String("remaining")).toDouble())
                << c.value(QLatin1String("progress")).toDouble();
        }
    }

    void remaining()
    {
        QFETCH(QVariantMap, props);
        QFETCH(qint64, now);
        QFETCH(qint64, remaining);
        QFETCH(double, progress);
        const AlarmdAlarm a{QStringLiteral("/org/alarmd/AlarmManager1/alarm/a"), props};
        QCOMPARE(a.remaining(now), remaining);
        // Exactly: the same IEEE division as every other client's (QCOMPARE on doubles would be fuzzy).
        QVERIFY2(a.progress(now) == progress, qPrintable(QString::number(a.progress(now), 'g', 17)));
    }

    void panel_data()
    {
        QTest::addColumn<QJsonObject>("c");
        for (const QJsonValue &v : cases("panel"))
            QTest::newRow(rowName(v.toObject(), QString()).constData()) << v.toObject();
    }

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

    void alarmTime_data()
    {
        QTest::addColumn<QJsonObject>("c");
        for (const QJsonValue &v : cases("alarm_time"))
            QTest::newRow(qPrintable(v.toObject().value(QLatin1String("text")).toString())) << v.toObject();
    }

    void alarmTime()
    {
        QFETCH(QJsonObject, c);
        QCOMPARE(AlarmdClient::alarmTime(c.value(QLatin1String("hour")).toInt(), c.value(QLatin1String("minute")).toInt(),
                                         c.value(QLatin1String("hour12")).toBool(), QLocale::c()),
                 c.value(QLatin1String("text")).toString());
    }

    void alarmDays_data()
    {
        QTest::addColumn<QJsonObject>("c");
        for (const QJsonValue &v : cases("alarm_days")) {
            const QJsonObject c = v.toObject();
            QTest::newRow(qPrintable(c.value(QLatin1String("why")).toString(c.value(QLatin1String("text")).toString()))) << c;
        }
    }

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

    void nextAlarm_data()
    {
        QTest::addColumn<QJsonObject>("c");
        for (const QJsonValue &v : cases("next_alarm"))
            QTest::newRow(rowName(v.toObject(), QString()).constData()) << v.toObject();
    }

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
