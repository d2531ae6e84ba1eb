/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#ifndef ALARMD_CGIO_SHIM_H
#define ALARMD_CGIO_SHIM_H
#include <dlfcn-util.h>

/* GSettings, for one job: putting alarmd on feedbackd's allow-important list (a phone). libgio is opened
 * only where feedbackd's schema may exist, never on an idle desktop's alarmd.
 *
 * GLib's headers need pkg-config's include paths, which a Swift package's C target cannot ask for without
 * linking the library too; these are the prototypes of gio/gsettings.h, gio/gsettingsschema.h,
 * glib/gvariant.h, glib/gstrfuncs.h and gobject/gobject.h (stable API since GLib 2.32), over opaque types. */
typedef int gboolean;
typedef char gchar;
typedef struct _GSettings GSettings;
typedef struct _GSettingsSchema GSettingsSchema;
typedef struct _GSettingsSchemaSource GSettingsSchemaSource;
typedef struct _GVariant GVariant;

GSettingsSchemaSource *g_settings_schema_source_get_default(void);
GSettingsSchema *g_settings_schema_source_lookup(GSettingsSchemaSource *source, const gchar *schema_id, gboolean recursive);
gboolean g_settings_schema_has_key(GSettingsSchema *schema, const gchar *name);
void g_settings_schema_unref(GSettingsSchema *schema);
GSettings *g_settings_new_full(GSettingsSchema *schema, void *backend, const gchar *path);
GVariant *g_settings_get_user_value(GSettings *settings, const gchar *key);
gchar **g_settings_get_strv(GSettings *settings, const gchar *key);
gboolean g_settings_set_strv(GSettings *settings, const gchar *key, const gchar *const *value);
void g_settings_sync(void);
void g_variant_unref(GVariant *value);
void g_strfreev(gchar **str_array);
void g_object_unref(void *object);

int alarmd_load_gio(char *error, size_t size);

DLSYM_PROTOTYPE(g_settings_schema_source_get_default);
DLSYM_PROTOTYPE(g_settings_schema_source_lookup);
DLSYM_PROTOTYPE(g_settings_schema_has_key);
DLSYM_PROTOTYPE(g_settings_schema_unref);
DLSYM_PROTOTYPE(g_settings_new_full);
DLSYM_PROTOTYPE(g_settings_get_user_value);
DLSYM_PROTOTYPE(g_settings_get_strv);
DLSYM_PROTOTYPE(g_settings_set_strv);
DLSYM_PROTOTYPE(g_settings_sync);
DLSYM_PROTOTYPE(g_variant_unref);
DLSYM_PROTOTYPE(g_strfreev);
DLSYM_PROTOTYPE(g_object_unref);
#endif
