/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#ifndef ALARMD_CCANBERRA_SHIM_H
#define ALARMD_CCANBERRA_SHIM_H
#include <canberra.h>
#include <dlfcn-util.h>

/* libcanberra is opened on first use (the first ring): see dlfcn-util.h. Its backend (libcanberra-pulse,
 * and through it libpulse) is loaded by libcanberra itself, as before. */
int alarmd_load_canberra(char *error, size_t size);

DLSYM_PROTOTYPE(ca_context_cancel);
DLSYM_PROTOTYPE(ca_context_change_props_full);
DLSYM_PROTOTYPE(ca_context_create);
DLSYM_PROTOTYPE(ca_context_destroy);
DLSYM_PROTOTYPE(ca_context_play_full);
DLSYM_PROTOTYPE(ca_proplist_create);
DLSYM_PROTOTYPE(ca_proplist_destroy);
DLSYM_PROTOTYPE(ca_proplist_sets);
DLSYM_PROTOTYPE(ca_strerror);
#endif
