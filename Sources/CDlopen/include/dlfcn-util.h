/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#ifndef ALARMD_DLFCN_UTIL_H
#define ALARMD_DLFCN_UTIL_H
/* Optional libraries opened on first use, as systemd does (src/shared/dlfcn-util.h): an idle alarmd
 * maps neither libpulse nor libcanberra, nor the codecs, X11 and D-Bus client libraries they pull in.
 *
 * Each function alarmd calls is a pointer `sym_NAME` declared with the type of the real NAME from the
 * library's own header, so every call (Swift's too) is checked against the real prototype, and
 * DLSYM_ARG() refuses to compile when a pointer and the symbol loaded into it disagree. */
#include <stddef.h>

/* Swift would refuse a mutable global: each library's are written by the one thread that loads it, before
 * the first call through them. libpulse's on the event-loop thread, before libpulse's thread (where alarmd's
 * callbacks call libpulse too) starts; libcanberra's on the sound thread, which makes every libcanberra
 * call but one: the loop calls ca_strerror for an event the sound thread or canberra sent it after the
 * load, through a pipe, which orders the load before the call. */
#define DLSYM_PROTOTYPE(symbol) \
        extern __typeof__(symbol) *sym_##symbol __attribute__((swift_attr("nonisolated(unsafe)")))
#define DLSYM_FUNCTION(symbol) \
        __typeof__(symbol) *sym_##symbol = NULL

#define DLSYM_ARG(arg) \
        ({ _Static_assert(__builtin_types_compatible_p(__typeof__(sym_##arg), __typeof__(&arg)), \
                          "sym_" #arg " is not a pointer to " #arg); \
           &sym_##arg; }), #arg

/* Opens `filename` unless *dlp already holds it, and resolves every (pointer, name) pair, NULL-ended.
 * Returns 1 when it loaded now, 0 when it was loaded before, and -1 with dlerror()'s text in `error`
 * when the library or one of its symbols is missing; *dlp then stays NULL, and no pointer may be used
 * (some may be set). The handle is kept for the life of the process. */
int alarmd_dlopen_many_sym_sentinel(void **dlp, const char *filename, char *error, size_t size, ...)
        __attribute__((sentinel));
#define dlopen_many_sym(dlp, filename, error, size, ...) \
        alarmd_dlopen_many_sym_sentinel(dlp, filename, error, size, __VA_ARGS__, NULL)

#endif
