/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

/* glibc's gettext and locale data: Swift's Glibc module leaves out <libintl.h>, and
 * _NL_TIME_FIRST_WEEKDAY is a glibc extension that a macro only reaches in C. */
#ifndef ALARMD_CINTL_SHIM_H
#define ALARMD_CINTL_SHIM_H
#include <libintl.h>
#include <langinfo.h>
#include <locale.h>

/* The locale's first day of the week, 1 = Sunday … 7 = Saturday (glibc's week-1stday is a Sunday
 * in every shipped locale, so first_weekday alone says it). */
static inline int alarmd_first_weekday(void) {
    return (int)(unsigned char)*nl_langinfo(_NL_TIME_FIRST_WEEKDAY);
}
#endif
