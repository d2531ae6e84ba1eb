/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#include "shim.h"

static void *canberra_dl;

DLSYM_FUNCTION(ca_context_cancel);
DLSYM_FUNCTION(ca_context_change_props_full);
DLSYM_FUNCTION(ca_context_create);
DLSYM_FUNCTION(ca_context_destroy);
DLSYM_FUNCTION(ca_context_play_full);
DLSYM_FUNCTION(ca_proplist_create);
DLSYM_FUNCTION(ca_proplist_destroy);
DLSYM_FUNCTION(ca_proplist_sets);
DLSYM_FUNCTION(ca_strerror);

int alarmd_load_canberra(char *error, size_t size) {
        return dlopen_many_sym(
                        &canberra_dl, "libcanberra.so.0", error, size,
                        DLSYM_ARG(ca_context_cancel),
                        DLSYM_ARG(ca_context_change_props_full),
                        DLSYM_ARG(ca_context_create),
                        DLSYM_ARG(ca_context_destroy),
                        DLSYM_ARG(ca_context_play_full),
                        DLSYM_ARG(ca_proplist_create),
                        DLSYM_ARG(ca_proplist_destroy),
                        DLSYM_ARG(ca_proplist_sets),
                        DLSYM_ARG(ca_strerror));
}
