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
