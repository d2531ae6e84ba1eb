// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// Qt names for the D-Bus types of org.alarmd.*.xml that Qt has no name of its own for. Generate
// with `qdbusxml2cpp -i alarmd-qt.h …` and call alarmdRegisterDBusTypes() once before the first
// call. QMap<QString, QString> cannot be written in the annotation itself: its comma would split
// the Q_ARG/Q_RETURN_ARG macros of generated adaptors.
#ifndef ALARMD_QT_H
#define ALARMD_QT_H

#include <QtCore/QList>
#include <QtCore/QMap>
#include <QtCore/QString>
#include <QtCore/QVariant>
#include <QtDBus/QDBusMetaType>

typedef QMap<QString, QString> AlarmdStringMap;   // a{ss}: ListAuthorizations, StoreRecovery

inline void alarmdRegisterDBusTypes()
{
    qDBusRegisterMetaType<AlarmdStringMap>();
    qDBusRegisterMetaType<QList<QVariantMap>>();   // aa{sv}: GetAlarms
}

#endif
