/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>

#include "dlfcn-util.h"

int alarmd_dlopen_many_sym_sentinel(void **dlp, const char *filename, char *error, size_t size, ...) {
        if (*dlp)
                return 0;

        /* systemd's flags (its PR #34611): RTLD_NOW, so that a broken installation fails here, where it is
         * reported, not in the middle of a ring; RTLD_NODELETE, since the library is never meant to go
         * away (the dlclose() after a failed lookup leaves it mapped too). */
        void *dl = dlopen(filename, RTLD_NOW|RTLD_NODELETE);
        if (!dl) {
                snprintf(error, size, "%s", dlerror());
                return -1;
        }

        va_list ap;
        va_start(ap, size);
        void (**fn)(void);
        while ((fn = va_arg(ap, void (**)(void)))) {
                const char *symbol = va_arg(ap, const char *);
                void (*tfn)(void) = (void (*)(void)) dlsym(dl, symbol);
                if (!tfn) {
                        snprintf(error, size, "%s", dlerror());
                        va_end(ap);
                        dlclose(dl);
                        return -1;
                }
                *fn = tfn;
        }
        va_end(ap);

        /* Never closed, like the shared library dependency it replaces. */
        *dlp = dl;
        return 1;
}
