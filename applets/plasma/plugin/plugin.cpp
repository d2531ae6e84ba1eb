// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// The QML plugin of the alarmd applet: registers AlarmdClient as org.alarmd.plasmoid.private.Client.
#include <QtQml/QQmlExtensionPlugin>
#include <QtQml/qqml.h>

#include "alarmdclient.h"

class AlarmdPlasmoidPlugin : public QQmlExtensionPlugin
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID QQmlExtensionInterface_iid)

public:
    void registerTypes(const char *uri) override
    {
        Q_ASSERT(QLatin1String(uri) == QLatin1String("org.alarmd.plasmoid.private"));
        qmlRegisterType<AlarmdClient>(uri, 1, 0, "Client");
        qmlRegisterUncreatableType<AlarmModel>(uri, 1, 0, "AlarmModel", QStringLiteral("AlarmdClient.alarms"));
    }
};

#include "plugin.moc"
