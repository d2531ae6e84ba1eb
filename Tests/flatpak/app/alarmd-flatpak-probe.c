/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

/* The app of the Flatpak test (Tests/flatpak/run): a small client of alarmd on GDBus, built on the
 * host and installed as a real Flatpak app, whose calls then pass through flatpak's xdg-dbus-proxy.
 * Not sd-bus: busctl 252 and sd-bus clients fail through Debian 12's xdg-dbus-proxy 0.1.4 ("Invalid
 * message header read"). One call per run, its answer on stdout, one line each:
 *
 *   alarmd-flatpak-probe [--register ID] COMMAND [ARGS]
 *     state                     GetAuthorizationState        state: STATE
 *     register ID               RegisterApp(ID)              registered: ID
 *     request-auth TEXT         RequestAuthorization(TEXT)   authorization: STATE (waits for the user)
 *     schedule [ID] KEY=VALUE…  Schedule(ID or "", {KEY: VALUE}), each VALUE in GVariant text
 *                               (title="'Tea'" duration='uint32 5')      scheduled: ID PATH
 *     list                      GetAlarms                    alarm: ID APP STATE TITLE …, then alarms: N
 *     objects                   GetManagedObjects            object: PATH …, then objects: N
 *     cancel ID                 Cancel(ID)                   cancelled: ID
 *     watch                     prints `watching`, then each signal from alarmd as it arrives:
 *                               signal: PATH INTERFACE.MEMBER ARGS; runs until killed
 *
 * --register ID calls RegisterApp(ID) first on the same connection (an unsandboxed app names itself
 * that way). A refused call prints `error: NAME: MESSAGE` (NAME the D-Bus error name) and exits 1;
 * a usage error exits 2. */
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#define NAME "org.alarmd.AlarmManager1"
#define PATH "/org/alarmd/AlarmManager1"
#define MANAGER "org.alarmd.AlarmManager1"

static int usage(void)
{
    fprintf(stderr, "usage: alarmd-flatpak-probe [--register ID] "
                    "state|register ID|request-auth TEXT|schedule [ID] KEY=VALUE...|list|objects|cancel ID|watch\n");
    return 2;
}

static int failed(GError *error)
{
    gchar *name = g_dbus_error_get_remote_error(error);
    if (name)
        g_dbus_error_strip_remote_error(error);
    printf("error: %s: %s\n", name ? name : "(local)", error->message);
    g_free(name);
    g_error_free(error);
    return 1;
}

/* Calls a method of the manager; NULL (and *error set) when refused. */
static GVariant *call(GDBusConnection *bus, const char *interface, const char *method, GVariant *args,
                      const char *reply_type, int timeout, GError **error)
{
    return g_dbus_connection_call_sync(bus, NAME, PATH, interface, method, args,
                                       reply_type ? G_VARIANT_TYPE(reply_type) : NULL,
                                       G_DBUS_CALL_FLAGS_NONE, timeout, NULL, error);
}

/* The alarm id an object path stands for (the UUID with `_` for `-`). */
static gchar *id_of_path(const char *path)
{
    const char *last = strrchr(path, '/');
    gchar *id = g_strdup(last ? last + 1 : path);
    for (char *c = id; *c; c++)
        if (*c == '_')
            *c = '-';
    return id;
}

static void on_signal(G_GNUC_UNUSED GDBusConnection *bus, G_GNUC_UNUSED const gchar *sender, const gchar *path,
                      const gchar *interface, const gchar *member, GVariant *args, G_GNUC_UNUSED gpointer data)
{
    gchar *text = g_variant_print(args, TRUE);
    printf("signal: %s %s.%s %s\n", path, interface, member, text);
    fflush(stdout);
    g_free(text);
}

static int schedule(GDBusConnection *bus, int argc, char **argv)
{
    const char *id = "";
    int first = 0;
    if (argc > 0 && strchr(argv[0], '=') == NULL) {
        id = argv[0];
        first = 1;
    }
    GVariantBuilder config;
    g_variant_builder_init(&config, G_VARIANT_TYPE("a{sv}"));
    for (int i = first; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq) {
            g_variant_builder_clear(&config);
            return usage();
        }
        gchar *key = g_strndup(argv[i], eq - argv[i]);
        GError *error = NULL;
        GVariant *value = g_variant_parse(NULL, eq + 1, NULL, NULL, &error);
        if (!value) {
            fprintf(stderr, "alarmd-flatpak-probe: %s: %s\n", argv[i], error->message);
            g_error_free(error);
            g_free(key);
            g_variant_builder_clear(&config);
            return 2;
        }
        g_variant_builder_add(&config, "{sv}", key, value);
        g_free(key);
    }
    GError *error = NULL;
    GVariant *reply = call(bus, MANAGER, "Schedule", g_variant_new("(sa{sv})", id, &config), "(o)", -1, &error);
    if (!reply)
        return failed(error);
    const char *path;
    g_variant_get(reply, "(&o)", &path);
    gchar *made = id_of_path(path);
    printf("scheduled: %s %s\n", made, path);
    g_free(made);
    g_variant_unref(reply);
    return 0;
}

static int list(GDBusConnection *bus)
{
    GError *error = NULL;
    GVariant *reply = call(bus, MANAGER, "GetAlarms", NULL, "(aa{sv})", -1, &error);
    if (!reply)
        return failed(error);
    GVariant *alarms = g_variant_get_child_value(reply, 0);
    gsize n = g_variant_n_children(alarms);
    for (gsize i = 0; i < n; i++) {
        GVariant *alarm = g_variant_get_child_value(alarms, i);
        const char *id = "?", *app = "?", *state = "?", *title = "";
        g_variant_lookup(alarm, "Id", "&s", &id);
        g_variant_lookup(alarm, "AppId", "&s", &app);
        g_variant_lookup(alarm, "State", "&s", &state);
        GVariant *presentation = g_variant_lookup_value(alarm, "Presentation", G_VARIANT_TYPE_VARDICT);
        if (presentation)
            g_variant_lookup(presentation, "title", "&s", &title);
        printf("alarm: %s %s %s %s\n", id, app, state, title);
        if (presentation)
            g_variant_unref(presentation);
        g_variant_unref(alarm);
    }
    printf("alarms: %zu\n", n);
    g_variant_unref(alarms);
    g_variant_unref(reply);
    return 0;
}

static int objects(GDBusConnection *bus)
{
    GError *error = NULL;
    GVariant *reply = call(bus, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", NULL,
                           "(a{oa{sa{sv}}})", -1, &error);
    if (!reply)
        return failed(error);
    GVariant *all = g_variant_get_child_value(reply, 0);
    GVariantIter iter;
    const char *path;
    gsize n = 0;
    g_variant_iter_init(&iter, all);
    while (g_variant_iter_next(&iter, "{&o@a{sa{sv}}}", &path, NULL)) {
        printf("object: %s\n", path);
        n++;
    }
    printf("objects: %zu\n", n);
    g_variant_unref(all);
    g_variant_unref(reply);
    return 0;
}

static int watch(GDBusConnection *bus)
{
    g_dbus_connection_signal_subscribe(bus, NAME, NULL, NULL, NULL, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                       on_signal, NULL, NULL);
    /* A round trip, so that the match rule is in place before `watching` is printed. */
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                  "org.freedesktop.DBus", "GetId", NULL, NULL,
                                                  G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    if (!reply)
        return failed(error);
    g_variant_unref(reply);
    printf("watching\n");
    fflush(stdout);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    int i = 1;
    const char *register_as = NULL;
    if (i + 1 < argc && strcmp(argv[i], "--register") == 0) {
        register_as = argv[i + 1];
        i += 2;
    }
    if (i >= argc)
        return usage();
    const char *command = argv[i++];
    int rest = argc - i;
    char **args = argv + i;

    GError *error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus)
        return failed(error);
    if (register_as) {
        GVariant *reply = call(bus, MANAGER, "RegisterApp", g_variant_new("(s)", register_as), "()", -1, &error);
        if (!reply)
            return failed(error);
        g_variant_unref(reply);
    }

    if (strcmp(command, "state") == 0 && rest == 0) {
        GVariant *reply = call(bus, MANAGER, "GetAuthorizationState", NULL, "(s)", -1, &error);
        if (!reply)
            return failed(error);
        const char *state;
        g_variant_get(reply, "(&s)", &state);
        printf("state: %s\n", state);
        g_variant_unref(reply);
        return 0;
    }
    if (strcmp(command, "register") == 0 && rest == 1) {
        GVariant *reply = call(bus, MANAGER, "RegisterApp", g_variant_new("(s)", args[0]), "()", -1, &error);
        if (!reply)
            return failed(error);
        printf("registered: %s\n", args[0]);
        g_variant_unref(reply);
        return 0;
    }
    if (strcmp(command, "request-auth") == 0 && rest == 1) {
        /* The reply comes when the user answers the prompt: no timeout of our own. */
        GVariant *reply = call(bus, MANAGER, "RequestAuthorization", g_variant_new("(s)", args[0]), "(s)",
                               G_MAXINT, &error);
        if (!reply)
            return failed(error);
        const char *state;
        g_variant_get(reply, "(&s)", &state);
        printf("authorization: %s\n", state);
        g_variant_unref(reply);
        return 0;
    }
    if (strcmp(command, "schedule") == 0)
        return schedule(bus, rest, args);
    if (strcmp(command, "list") == 0 && rest == 0)
        return list(bus);
    if (strcmp(command, "objects") == 0 && rest == 0)
        return objects(bus);
    if (strcmp(command, "cancel") == 0 && rest == 1) {
        GVariant *reply = call(bus, MANAGER, "Cancel", g_variant_new("(s)", args[0]), "()", -1, &error);
        if (!reply)
            return failed(error);
        printf("cancelled: %s\n", args[0]);
        g_variant_unref(reply);
        return 0;
    }
    if (strcmp(command, "watch") == 0 && rest == 0)
        return watch(bus);
    return usage();
}
