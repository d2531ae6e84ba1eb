/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

/* An app that sets a 3-second timer with alarmd, through C bindings that gdbus-codegen generates
 * from alarmd's interface XML (see the Makefile): it names itself, asks the user for permission,
 * schedules the timer, waits for its State to become "alerting" (PropertiesChanged, seen as
 * notify::state on the generated proxy), stops it and waits for AlarmRemoved.
 * Exit status 0 when all of that happened. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "org.alarmd.Alarm1.h"
#include "org.alarmd.AlarmManager1.h"

#define NAME "org.alarmd.AlarmManager1"
#define APP_ID "org.alarmd.examples.CTimer"

static GMainLoop *loop;
static AlarmdAlarmManager1 *manager;
static gchar *alarm_id;
static int status = 1;

static int fail(const char *what, GError *error)
{
    fprintf(stderr, "%s: %s\n", what, error ? error->message : "failed");
    return 1;
}

static void on_state(AlarmdAlarm1 *alarm, GParamSpec *pspec, gpointer data)
{
    GError *error = NULL;
    if (g_strcmp0(alarmd_alarm1_get_state(alarm), "alerting") != 0)
        return;
    printf("ringing\n");
    if (!alarmd_alarm_manager1_call_stop_sync(manager, alarm_id, NULL, &error)) {
        fail("Stop", error);
        g_main_loop_quit(loop);
    }
}

static void on_alarm_removed(AlarmdAlarmManager1 *proxy, const gchar *id, const gchar *app, const gchar *reason, gpointer data)
{
    if (g_strcmp0(id, alarm_id) != 0)
        return;
    printf("removed: %s\n", reason);
    status = g_strcmp0(reason, "stopped") == 0 ? 0 : 1;
    g_main_loop_quit(loop);
}

static gboolean on_timeout(gpointer data)
{
    fprintf(stderr, "timed out\n");
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(void)
{
    GError *error = NULL;
    setvbuf(stdout, NULL, _IOLBF, 0);
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus)
        return fail("session bus", error);
    manager = alarmd_alarm_manager1_proxy_new_sync(bus, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES, NAME,
                                                   "/org/alarmd/AlarmManager1", NULL, &error);
    if (!manager)
        return fail("alarmd", error);

    /* In a Flatpak sandbox alarmd knows the app by its Flatpak id; elsewhere the app names itself. */
    if (access("/.flatpak-info", F_OK) != 0 && !alarmd_alarm_manager1_call_register_app_sync(manager, APP_ID, NULL, &error))
        return fail("RegisterApp", error);
    /* Asks the user once (a notification with Allow / Don't Allow); the reply waits for the answer. */
    g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(manager), 130000);
    gchar *state = NULL;
    if (!alarmd_alarm_manager1_call_request_authorization_sync(manager, "Rings the example's 3-second timer", &state, NULL, &error))
        return fail("RequestAuthorization", error);
    g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(manager), -1);
    printf("authorization: %s\n", state);
    if (strcmp(state, "authorized") != 0) {
        fprintf(stderr, "not authorized; allow it with: alarmctl auth allow %s\n", APP_ID);
        return 1;
    }

    loop = g_main_loop_new(NULL, FALSE);
    g_signal_connect(manager, "alarm-removed", G_CALLBACK(on_alarm_removed), NULL);
    /* alarmd broadcasts nothing: it sends its signals to the connections that watch, each about its own alarms. */
    if (!alarmd_alarm_manager1_call_watch_sync(manager, NULL, &error))
        return fail("Watch", error);
    alarm_id = g_uuid_string_random();
    GVariantBuilder config;
    g_variant_builder_init(&config, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&config, "{sv}", "title", g_variant_new_string("C tea"));
    g_variant_builder_add(&config, "{sv}", "duration", g_variant_new_uint32(3));
    gchar *path = NULL;
    if (!alarmd_alarm_manager1_call_schedule_sync(manager, alarm_id, g_variant_builder_end(&config), &path, NULL, &error))
        return fail("Schedule", error);
    printf("scheduled %s\n", path);

    /* The proxy reads every property once and follows PropertiesChanged from then on. */
    AlarmdAlarm1 *alarm = alarmd_alarm1_proxy_new_sync(bus, G_DBUS_PROXY_FLAGS_NONE, NAME, path, NULL, &error);
    if (!alarm)
        return fail("alarm", error);
    g_signal_connect(alarm, "notify::state", G_CALLBACK(on_state), NULL);
    on_state(alarm, NULL, NULL); /* in case it rang already */

    g_timeout_add_seconds(30, on_timeout, NULL);
    g_main_loop_run(loop);
    return status;
}
