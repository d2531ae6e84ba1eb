/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

/* The app of the Flatpak test (Tests/flatpak/run): a small client of alarmd on GDBus, built on the
 * host and installed as a real Flatpak app, whose calls then pass through flatpak's xdg-dbus-proxy.
 * Not sd-bus: busctl 252 and sd-bus clients fail through Debian 12's xdg-dbus-proxy 0.1.4 ("Invalid
 * message header read"). One command per run, its answers on stdout, one line each:
 *
 *   alarmd-flatpak-probe [--register ID] COMMAND [ARGS]
 *     state                     GetAuthorizationState        state: STATE
 *     register ID               RegisterApp(ID)              registered: ID
 *     request-auth TEXT         RequestAuthorization(TEXT)   authorization: STATE (waits for the user)
 *     schedule [ID] KEY=VALUE…  Schedule(ID or "", {KEY: VALUE}), each VALUE in GVariant text
 *                               (title="'Tea'" duration='uint32 5')      scheduled: ID PATH
 *                               KEY=fd:WHAT hands over a descriptor (an `h` in a GUnixFDList):
 *                               fd:PATH a file opened for reading (O_NONBLOCK, so that a FIFO
 *                               opens without a writer), fd:pipe the read end of a pipe holding
 *                               a WAV header, fd:socket one end of a socket pair
 *                               (an undecided app's first Schedule waits for the user's answer)
 *     schedule-each             one Schedule("", …) per line of stdin, whose KEY=VALUE pairs are
 *                               separated by tabs; one answer line (scheduled: or error:) per line
 *     list                      GetAlarms                    alarm: ID APP STATE TITLE …, then alarms: N
 *     objects                   GetManagedObjects            object: PATH …, then objects: N
 *     introspect PATH           Introspect of PATH           node: NAME … and interface: NAME …
 *     prop [PATH IFACE] NAME    Properties.Get (the manager's property NAME without PATH and IFACE)
 *                                                            prop: NAME VALUE (GVariant text)
 *     cancel ID                 Cancel(ID)                   cancelled: ID
 *     watch                     subscribes to every signal of org.alarmd.AlarmManager1, calls Watch,
 *                               prints `watching`, then each signal alarmd sends it as it arrives:
 *                               signal: PATH INTERFACE.MEMBER ARGS; runs until killed
 *     flood N KEY=VALUE…        N Schedule("", {KEY: VALUE}) calls sent at once, without waiting for
 *                               answers, on one connection; then, once all are answered, one line
 *                               per distinct answer: reply: COUNT ok | reply: COUNT NAME: MESSAGE,
 *                               and flood: N sent in MS ms, answered in MS ms, realtime FROM-TO
 *                               (FROM and TO in µs of CLOCK_REALTIME, the host's clock too)
 *
 * --register ID calls RegisterApp(ID) first on the same connection (an unsandboxed app names itself
 * that way). A refused call prints `error: NAME: MESSAGE` (NAME the D-Bus error name) and exits 1;
 * a usage error exits 2. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define NAME "org.alarmd.AlarmManager1"
#define PATH "/org/alarmd/AlarmManager1"
#define MANAGER "org.alarmd.AlarmManager1"

static int usage(void)
{
    fprintf(stderr, "usage: alarmd-flatpak-probe [--register ID] "
                    "state|register ID|request-auth TEXT|schedule [ID] KEY=VALUE...|schedule-each|list|objects|"
                    "introspect PATH|prop [PATH IFACE] NAME|cancel ID|watch|flood N KEY=VALUE...\n");
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

/* An undecided app's first Schedule opens the consent prompt and is answered only when the user
 * answers it, or when alarmd withdraws it after prompt_timeout (120 s by default): wait longer than
 * that, as docs/API.md tells apps to, so that the answer is alarmd's and never our own timeout. */
#define SCHEDULE_TIMEOUT_MS 130000

/* The descriptors the configuration being read hands over; its `h` values index it. */
static GUnixFDList *handed;

/* A descriptor as an app could hand one over (see the usage above); -1, after saying why, if none. */
static int descriptor(const char *what)
{
    int fds[2];
    if (strcmp(what, "pipe") == 0) {
        if (pipe2(fds, O_CLOEXEC) != 0)
            return perror("pipe"), -1;
        /* What an app that streams its sound would write: a WAV header, then nothing more. */
        static const char wav[] = "RIFF\x24\0\0\0WAVEfmt ";
        if (write(fds[1], wav, sizeof wav - 1) < 0)
            perror("write");
        close(fds[1]);
        return fds[0];
    }
    if (strcmp(what, "socket") == 0) {
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
            return perror("socketpair"), -1;
        close(fds[1]);
        return fds[0];
    }
    int fd = open(what, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        perror(what);
    return fd;
}

/* {KEY: VALUE} of KEY=VALUE arguments, each VALUE in GVariant text (floating); NULL, after saying
 * why on stderr, when one is malformed. */
static GVariant *configuration(int argc, char **argv)
{
    GVariantBuilder config;
    g_variant_builder_init(&config, G_VARIANT_TYPE("a{sv}"));
    for (int i = 0; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq) {
            fprintf(stderr, "alarmd-flatpak-probe: %s: not KEY=VALUE\n", argv[i]);
            g_variant_builder_clear(&config);
            return NULL;
        }
        gchar *key = g_strndup(argv[i], eq - argv[i]);
        GError *error = NULL;
        GVariant *value;
        if (g_str_has_prefix(eq + 1, "fd:")) {
            int fd = descriptor(eq + 4);
            if (fd < 0) {
                g_free(key);
                g_variant_builder_clear(&config);
                return NULL;
            }
            if (!handed)
                handed = g_unix_fd_list_new();
            int index = g_unix_fd_list_append(handed, fd, &error);
            close(fd);
            if (index < 0) {
                fprintf(stderr, "alarmd-flatpak-probe: %s: %s\n", argv[i], error->message);
                g_error_free(error);
                g_free(key);
                g_variant_builder_clear(&config);
                return NULL;
            }
            value = g_variant_new_handle(index);
        } else
            value = g_variant_parse(NULL, eq + 1, NULL, NULL, &error);
        if (!value) {
            fprintf(stderr, "alarmd-flatpak-probe: %s: %s\n", argv[i], error->message);
            g_error_free(error);
            g_free(key);
            g_variant_builder_clear(&config);
            return NULL;
        }
        g_variant_builder_add(&config, "{sv}", key, value);
        g_free(key);
    }
    return g_variant_builder_end(&config);
}

/* Schedule(id, config), its answer printed: 0 scheduled, 1 refused. */
static int schedule_one(GDBusConnection *bus, const char *id, GVariant *config)
{
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_with_unix_fd_list_sync(
        bus, NAME, PATH, MANAGER, "Schedule", g_variant_new("(s@a{sv})", id, config), G_VARIANT_TYPE("(o)"),
        G_DBUS_CALL_FLAGS_NONE, SCHEDULE_TIMEOUT_MS, handed, NULL, NULL, &error);
    g_clear_object(&handed);
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

static int schedule(GDBusConnection *bus, int argc, char **argv)
{
    const char *id = "";
    if (argc > 0 && strchr(argv[0], '=') == NULL) {
        id = argv[0];
        argc--;
        argv++;
    }
    GVariant *config = configuration(argc, argv);
    return config ? schedule_one(bus, id, config) : 2;
}

/* Many configurations tried from one sandboxed process, as an app trying what alarmd lets it do
 * would: a line of stdin each (KEY=VALUE pairs separated by tabs, as values hold spaces). */
static int schedule_each(GDBusConnection *bus)
{
    char *line = NULL;
    size_t size = 0;
    ssize_t n;
    while ((n = getline(&line, &size, stdin)) > 0) {
        if (line[n - 1] == '\n')
            line[n - 1] = '\0';
        if (line[0] == '\0')
            continue;
        gchar **pairs = g_strsplit(line, "\t", -1);
        GVariant *config = configuration(g_strv_length(pairs), pairs);
        g_strfreev(pairs);
        if (!config) {
            free(line);
            return 2;
        }
        schedule_one(bus, "", config);
    }
    free(line);
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

static int introspect(GDBusConnection *bus, const char *path)
{
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_sync(bus, NAME, path, "org.freedesktop.DBus.Introspectable", "Introspect",
                                                  NULL, G_VARIANT_TYPE("(s)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    if (!reply)
        return failed(error);
    const char *xml;
    g_variant_get(reply, "(&s)", &xml);
    GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(xml, &error);
    g_variant_unref(reply);
    if (!node)
        return failed(error);
    for (GDBusInterfaceInfo **i = node->interfaces; i && *i; i++)
        printf("interface: %s\n", (*i)->name);
    for (GDBusNodeInfo **n = node->nodes; n && *n; n++)
        printf("node: %s\n", (*n)->path);
    g_dbus_node_info_unref(node);
    return 0;
}

static int prop(GDBusConnection *bus, const char *path, const char *interface, const char *name)
{
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_sync(bus, NAME, path, "org.freedesktop.DBus.Properties", "Get",
                                                  g_variant_new("(ss)", interface, name), G_VARIANT_TYPE("(v)"),
                                                  G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    if (!reply)
        return failed(error);
    GVariant *value;
    g_variant_get(reply, "(v)", &value);
    gchar *text = g_variant_print(value, FALSE);
    printf("prop: %s %s\n", name, text);
    g_free(text);
    g_variant_unref(value);
    g_variant_unref(reply);
    return 0;
}

static int watch(GDBusConnection *bus)
{
    /* Subscribe first, then Watch (docs/API.md): alarmd broadcasts nothing, and addresses its
     * signals only to the connections that called Watch. */
    g_dbus_connection_signal_subscribe(bus, NAME, NULL, NULL, NULL, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                       on_signal, NULL, NULL);
    GError *error = NULL;
    GVariant *reply = call(bus, MANAGER, "Watch", NULL, "()", -1, &error);
    if (!reply)
        return failed(error);
    g_variant_unref(reply);
    printf("watching\n");
    fflush(stdout);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}

/* The answers of a flood: "ok" or "NAME: MESSAGE" -> how many, in the order first seen. */
struct flood {
    int pending;
    GHashTable *counts;
    GPtrArray *order;
    GMainLoop *loop;
};

static void flooded(GObject *source, GAsyncResult *result, gpointer data)
{
    struct flood *f = data;
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
    gchar *key;
    if (reply) {
        key = g_strdup("ok");
        g_variant_unref(reply);
    } else {
        gchar *name = g_dbus_error_get_remote_error(error);
        if (name)
            g_dbus_error_strip_remote_error(error);
        key = g_strdup_printf("%s: %s", name ? name : "(local)", error->message);
        g_free(name);
        g_error_free(error);
    }
    gpointer count = g_hash_table_lookup(f->counts, key);
    if (!count)
        g_ptr_array_add(f->order, g_strdup(key));
    g_hash_table_insert(f->counts, key, GINT_TO_POINTER(GPOINTER_TO_INT(count) + 1));
    if (--f->pending == 0)
        g_main_loop_quit(f->loop);
}

/* As an app that floods alarmd would: every call sent before the first answer is read. */
static int flood(GDBusConnection *bus, int argc, char **argv)
{
    if (argc < 1 || atoi(argv[0]) <= 0)
        return usage();
    int n = atoi(argv[0]);
    GVariant *config = configuration(argc - 1, argv + 1);
    if (!config)
        return 2;
    g_variant_ref_sink(config);
    struct flood f = {n, g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                      g_ptr_array_new_with_free_func(g_free), g_main_loop_new(NULL, FALSE)};
    gint64 real_start = g_get_real_time(), start = g_get_monotonic_time();
    for (int i = 0; i < n; i++)
        g_dbus_connection_call(bus, NAME, PATH, MANAGER, "Schedule", g_variant_new("(s@a{sv})", "", config),
                               G_VARIANT_TYPE("(o)"), G_DBUS_CALL_FLAGS_NONE, 30000, NULL, flooded, &f);
    gint64 sent = g_get_monotonic_time();
    g_main_loop_run(f.loop);
    gint64 answered = g_get_monotonic_time(), real_end = g_get_real_time();
    for (guint i = 0; i < f.order->len; i++) {
        const char *key = g_ptr_array_index(f.order, i);
        printf("reply: %d %s\n", GPOINTER_TO_INT(g_hash_table_lookup(f.counts, key)), key);
    }
    printf("flood: %d sent in %" G_GINT64_FORMAT " ms, answered in %" G_GINT64_FORMAT " ms, realtime %" G_GINT64_FORMAT
           "-%" G_GINT64_FORMAT "\n", n, (sent - start) / 1000, (answered - start) / 1000, real_start, real_end);
    g_ptr_array_unref(f.order);
    g_hash_table_unref(f.counts);
    g_main_loop_unref(f.loop);
    g_variant_unref(config);
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
    if (strcmp(command, "schedule-each") == 0 && rest == 0)
        return schedule_each(bus);
    if (strcmp(command, "introspect") == 0 && rest == 1)
        return introspect(bus, args[0]);
    if (strcmp(command, "prop") == 0 && rest == 1)
        return prop(bus, PATH, MANAGER, args[0]);
    if (strcmp(command, "prop") == 0 && rest == 3)
        return prop(bus, args[0], args[1], args[2]);
    if (strcmp(command, "watch") == 0 && rest == 0)
        return watch(bus);
    if (strcmp(command, "flood") == 0)
        return flood(bus, rest, args);
    return usage();
}
