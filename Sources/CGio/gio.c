/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#include "shim.h"

static void *gio_dl;

DLSYM_FUNCTION(g_settings_schema_source_get_default);
DLSYM_FUNCTION(g_settings_schema_source_lookup);
DLSYM_FUNCTION(g_settings_schema_has_key);
DLSYM_FUNCTION(g_settings_schema_unref);
DLSYM_FUNCTION(g_settings_new_full);
DLSYM_FUNCTION(g_settings_get_user_value);
DLSYM_FUNCTION(g_settings_get_strv);
DLSYM_FUNCTION(g_settings_set_strv);
DLSYM_FUNCTION(g_settings_sync);
DLSYM_FUNCTION(g_variant_unref);
DLSYM_FUNCTION(g_strfreev);
DLSYM_FUNCTION(g_object_unref);

/* dlsym() on libgio's handle finds libglib's and libgobject's symbols too: they are its dependencies. */
int alarmd_load_gio(char *error, size_t size) {
        return dlopen_many_sym(
                        &gio_dl, "libgio-2.0.so.0", error, size,
                        DLSYM_ARG(g_settings_schema_source_get_default),
                        DLSYM_ARG(g_settings_schema_source_lookup),
                        DLSYM_ARG(g_settings_schema_has_key),
                        DLSYM_ARG(g_settings_schema_unref),
                        DLSYM_ARG(g_settings_new_full),
                        DLSYM_ARG(g_settings_get_user_value),
                        DLSYM_ARG(g_settings_get_strv),
                        DLSYM_ARG(g_settings_set_strv),
                        DLSYM_ARG(g_settings_sync),
                        DLSYM_ARG(g_variant_unref),
                        DLSYM_ARG(g_strfreev),
                        DLSYM_ARG(g_object_unref));
}
