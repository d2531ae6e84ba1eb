// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation
import TestSupport
import Testing

/// The shipped introspection XML feeds the code generators of GLib and Qt, and the code they
/// generate builds and talks to the real daemon.
@Suite(.serialized) struct CodegenTests {
    static let files = ["org.alarmd.AlarmManager1", "org.alarmd.Alarm1"]

    func xml(_ name: String) -> String { Products.sourceRoot + "/dbus/\(name).xml" }

    func sh(_ script: String, in dir: String) throws -> (status: Int32, out: String, err: String) {
        try runCommand("/bin/sh", ["-c", "cd '\(dir)' && \(script)"])
    }

    /// gdbus-codegen's C compiles warning-free, and a program built on it schedules through the
    /// generated proxy and reads the alarm back through the generated Alarm1 proxy.
    @Test func gdbusCodegenOutputBuildsAndTalksToTheDaemon() throws {
        let dir = TempDir("alarmd-gdbus")
        for name in Self.files {
            let r = try runCommand("/usr/bin/gdbus-codegen", ["--generate-c-code", "\(dir.path)/\(name)", "--c-namespace", "Alarmd",
                                                              "--interface-prefix", "org.alarmd.", xml(name)])
            try #require(r.status == 0, "gdbus-codegen \(name): \(r.err)")
            #expect(r.err.isEmpty, "gdbus-codegen \(name) said: \(r.err)")
        }
        let header = try String(contentsOfFile: dir.path + "/org.alarmd.AlarmManager1.h", encoding: .utf8)
        for function in ["alarmd_alarm_manager1_call_schedule_sync", "alarmd_alarm_manager1_call_get_alarms_sync",
                         "alarmd_alarm_manager1_call_list_authorizations_sync"] {
            #expect(header.contains(function), "the generated header lacks \(function)")
        }
        let program = #"""
            #include <stdio.h>
            #include "org.alarmd.AlarmManager1.h"
            #include "org.alarmd.Alarm1.h"

            static int fail(const char *what, GError *error) {
                fprintf(stderr, "%s: %s\n", what, error ? error->message : "?");
                return 1;
            }

            int main(int argc, char **argv) {
                GError *error = NULL;
                GDBusConnection *bus = g_dbus_connection_new_for_address_sync(argv[1],
                    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                    NULL, NULL, &error);
                if (!bus) return fail("connect", error);
                AlarmdAlarmManager1 *manager = alarmd_alarm_manager1_proxy_new_sync(bus, G_DBUS_PROXY_FLAGS_NONE,
                    "org.alarmd.AlarmManager1", "/org/alarmd/AlarmManager1", NULL, &error);
                if (!manager) return fail("manager proxy", error);
                GVariantBuilder config;
                g_variant_builder_init(&config, G_VARIANT_TYPE_VARDICT);
                g_variant_builder_add(&config, "{sv}", "title", g_variant_new_string("GLib tea"));
                g_variant_builder_add(&config, "{sv}", "duration", g_variant_new_uint32(300));
                gchar *path = NULL;
                if (!alarmd_alarm_manager1_call_schedule_sync(manager, "", g_variant_builder_end(&config), &path, NULL, &error))
                    return fail("Schedule", error);
                GVariant *alarms = NULL;
                if (!alarmd_alarm_manager1_call_get_alarms_sync(manager, &alarms, NULL, &error))
                    return fail("GetAlarms", error);
                printf("alarms %lu\n", (unsigned long)g_variant_n_children(alarms));
                GVariant *page = NULL;
                gchar *next = NULL;
                if (!alarmd_alarm_manager1_call_get_alarms_page_sync(manager, "", 10, &page, &next, NULL, &error))
                    return fail("GetAlarmsPage", error);
                printf("page %lu\n", (unsigned long)g_variant_n_children(page));
                if (!alarmd_alarm_manager1_call_set_authorization_sync(manager, "org.example.Clock", "denied", NULL, &error))
                    return fail("SetAuthorization", error);
                GVariant *authorizations = NULL;
                if (!alarmd_alarm_manager1_call_list_authorizations_sync(manager, &authorizations, NULL, &error))
                    return fail("ListAuthorizations", error);
                const gchar *state = NULL;
                if (g_variant_lookup(authorizations, "org.example.Clock", "&s", &state)) printf("auth %s\n", state);
                AlarmdAlarm1 *alarm = alarmd_alarm1_proxy_new_sync(bus, G_DBUS_PROXY_FLAGS_NONE,
                    "org.alarmd.AlarmManager1", path, NULL, &error);
                if (!alarm) return fail("alarm proxy", error);
                printf("state %s\n", alarmd_alarm1_get_state(alarm));
                const gchar *title = NULL;
                GVariant *presentation = alarmd_alarm1_get_presentation(alarm);
                if (presentation && g_variant_lookup(presentation, "title", "&s", &title)) printf("title %s\n", title);
                return 0;
            }
            """#
        try program.write(toFile: dir.path + "/main.c", atomically: true, encoding: .utf8)
        let cc = try sh("gcc -Wall -Wextra -Werror -Wno-unused-parameter -o client main.c org.alarmd.AlarmManager1.c org.alarmd.Alarm1.c "
                        + "$(pkg-config --cflags --libs gio-2.0 gio-unix-2.0)", in: dir.path)
        try #require(cc.status == 0, "gcc: \(cc.err)")

        let h = try Harness()
        let run = try runCommand(dir.path + "/client", [h.bus.address])
        #expect(run.status == 0, "the GLib client failed: \(run.err)")
        #expect(run.out == "alarms 1\npage 1\nauth denied\nstate countdown\ntitle GLib tea\n")
    }

    /// qdbusxml2cpp of Qt 5 and Qt 6 generates proxies and adaptors for both files without "unknown
    /// type" complaints (which it prints even when it exits 0); the output compiles with that Qt and
    /// a client built on the proxies schedules, lists and reads the alarm back from the daemon.
    @Test(arguments: [5, 6]) func qdbusxml2cppOutputBuildsAndTalksToTheDaemon(qt: Int) throws {
        let generator = "/usr/lib/qt\(qt)/bin/qdbusxml2cpp"
        let moc = qt == 5 ? "/usr/lib/qt5/bin/moc" : "/usr/lib/qt6/libexec/moc"
        try #require(FileManager.default.isExecutableFile(atPath: generator) && FileManager.default.isExecutableFile(atPath: moc),
                     "scripts/install-deps installs Qt \(qt)'s tools")
        let dir = TempDir("alarmd-qt\(qt)")
        try FileManager.default.copyItem(atPath: Products.sourceRoot + "/dbus/alarmd-qt.h", toPath: dir.path + "/alarmd-qt.h")
        var units: [String] = []
        for name in Self.files {
            for (flag, suffix) in [("-p", "proxy"), ("-a", "adaptor")] {
                let base = "\(name)_\(suffix)"
                let r = try runCommand(generator, ["-i", "alarmd-qt.h", flag, "\(dir.path)/\(base)", xml(name)])
                #expect(r.status == 0, "qdbusxml2cpp \(flag) \(name): \(r.err)")
                #expect(!r.err.lowercased().contains("unknown type"), "qdbusxml2cpp \(flag) \(name): \(r.err)")
                #expect(r.err.isEmpty, "qdbusxml2cpp \(flag) \(name) said: \(r.err)")
                let m = try runCommand(moc, ["\(dir.path)/\(base).h", "-o", "\(dir.path)/moc_\(base).cpp"])
                #expect(m.status == 0, "moc \(base).h: \(m.err)")
                units += ["\(base).cpp", "moc_\(base).cpp"]
            }
        }
        let proxy = try String(contentsOfFile: dir.path + "/org.alarmd.AlarmManager1_proxy.h", encoding: .utf8)
        let adaptor = try String(contentsOfFile: dir.path + "/org.alarmd.AlarmManager1_adaptor.h", encoding: .utf8)
        for declaration in ["QDBusPendingReply<QDBusObjectPath> Schedule(const QString &id, const QVariantMap &configuration)",
                            "QDBusPendingReply<QList<QVariantMap> > GetAlarms()", "QDBusPendingReply<AlarmdStringMap> ListAuthorizations()"] {
            #expect(proxy.contains(declaration), "the Qt \(qt) proxy lacks \(declaration)")
        }
        for declaration in ["QDBusObjectPath Schedule(const QString &id, const QVariantMap &configuration)",
                            "QList<QVariantMap> GetAlarms()", "AlarmdStringMap ListAuthorizations()"] {
            #expect(adaptor.contains(declaration), "the Qt \(qt) adaptor lacks \(declaration)")
        }
        let alarmProxy = try String(contentsOfFile: dir.path + "/org.alarmd.Alarm1_proxy.h", encoding: .utf8)
        #expect(alarmProxy.contains("Q_PROPERTY(QVariantMap Presentation READ presentation)"))

        let program = #"""
            #include <QtCore/QCoreApplication>
            #include <cstdio>
            #include "org.alarmd.AlarmManager1_proxy.h"
            #include "org.alarmd.Alarm1_proxy.h"

            int main(int argc, char **argv)
            {
                QCoreApplication app(argc, argv);
                alarmdRegisterDBusTypes();
                QDBusConnection bus = QDBusConnection::connectToBus(QString::fromLocal8Bit(argv[1]), QStringLiteral("alarmd"));
                OrgAlarmdAlarmManager1Interface manager(QStringLiteral("org.alarmd.AlarmManager1"),
                                                        QStringLiteral("/org/alarmd/AlarmManager1"), bus);
                QVariantMap config;
                config.insert(QStringLiteral("title"), QStringLiteral("Qt tea"));
                config.insert(QStringLiteral("duration"), QVariant::fromValue(300u));
                QDBusPendingReply<QDBusObjectPath> path = manager.Schedule(QString(), config);
                path.waitForFinished();
                if (path.isError()) { std::fprintf(stderr, "Schedule: %s\n", qPrintable(path.error().message())); return 1; }
                QDBusPendingReply<QList<QVariantMap> > alarms = manager.GetAlarms();
                alarms.waitForFinished();
                if (alarms.isError()) { std::fprintf(stderr, "GetAlarms: %s\n", qPrintable(alarms.error().message())); return 1; }
                std::printf("alarms %d\n", int(alarms.value().size()));
                QDBusPendingReply<QList<QVariantMap>, QString> page = manager.GetAlarmsPage(QString(), 10u);
                page.waitForFinished();
                if (page.isError()) { std::fprintf(stderr, "GetAlarmsPage: %s\n", qPrintable(page.error().message())); return 1; }
                std::printf("page %d\n", int(page.argumentAt<0>().size()));
                manager.SetAuthorization(QStringLiteral("org.example.Clock"), QStringLiteral("denied")).waitForFinished();
                QDBusPendingReply<AlarmdStringMap> authorizations = manager.ListAuthorizations();
                authorizations.waitForFinished();
                if (authorizations.isError()) { std::fprintf(stderr, "ListAuthorizations: %s\n", qPrintable(authorizations.error().message())); return 1; }
                std::printf("auth %s\n", qPrintable(authorizations.value().value(QStringLiteral("org.example.Clock"))));
                OrgAlarmdAlarm1Interface alarm(QStringLiteral("org.alarmd.AlarmManager1"), path.value().path(), bus);
                std::printf("state %s\n", qPrintable(alarm.state()));
                std::printf("title %s\n", qPrintable(alarm.presentation().value(QStringLiteral("title")).toString()));
                return 0;
            }
            """#
        try program.write(toFile: dir.path + "/main.cpp", atomically: true, encoding: .utf8)
        // One translation unit: a single compiler run per Qt version (the machine is small).
        let all = (["main.cpp"] + units).map { "#include \"\($0)\"\n" }.joined()
        try all.write(toFile: dir.path + "/all.cpp", atomically: true, encoding: .utf8)
        // An adaptor method with more than one out argument is generated as a stub without a return
        // statement, for the service author to fill in: Qt's template, not something the XML can change.
        let cxx = try sh("g++ -std=c++17 -fPIC -Wall -Werror -Wno-error=return-type -o client all.cpp $(pkg-config --cflags --libs Qt\(qt)DBus)",
                         in: dir.path)
        try #require(cxx.status == 0, "g++ (Qt \(qt)): \(cxx.err)")

        let h = try Harness()
        let run = try runCommand(dir.path + "/client", [h.bus.address])
        #expect(run.status == 0, "the Qt \(qt) client failed: \(run.err)")
        #expect(run.out == "alarms 1\npage 1\nauth denied\nstate countdown\ntitle Qt tea\n")
    }
}
