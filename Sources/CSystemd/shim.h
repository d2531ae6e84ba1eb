/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#ifndef ALARMD_CSYSTEMD_SHIM_H
#define ALARMD_CSYSTEMD_SHIM_H
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include <systemd/sd-daemon.h>
#include <sys/timerfd.h>
#include <signal.h>
#include <string.h>
#include <malloc.h>

/* Swift cannot expand the SD_BUS_* vtable macros. These inline builders use the real macros, so the
 * vtable format reference is the library's own symbol and argument names survive introspection. */
static inline sd_bus_vtable alarmd_vtable_start(uint64_t flags) {
        sd_bus_vtable v = SD_BUS_VTABLE_START(flags);
        return v;
}
static inline sd_bus_vtable alarmd_vtable_end(void) {
        sd_bus_vtable v = SD_BUS_VTABLE_END;
        return v;
}
static inline sd_bus_vtable alarmd_vtable_method(const char *member, const char *signature, const char *result,
                                                 const char *names, sd_bus_message_handler_t handler,
                                                 uint64_t flags) {
        sd_bus_vtable v;
        memset(&v, 0, sizeof v);
        v.type = _SD_BUS_VTABLE_METHOD;
        v.flags = flags;
        v.x.method.member = member;
        v.x.method.signature = signature;
        v.x.method.result = result;
        v.x.method.handler = handler;
        v.x.method.offset = 0;
        v.x.method.names = names;
        return v;
}
static inline sd_bus_vtable alarmd_vtable_signal(const char *member, const char *signature, const char *names,
                                                 uint64_t flags) {
        sd_bus_vtable v;
        memset(&v, 0, sizeof v);
        v.type = _SD_BUS_VTABLE_SIGNAL;
        v.flags = flags;
        v.x.signal.member = member;
        v.x.signal.signature = signature;
        v.x.signal.names = names;
        return v;
}
static inline sd_bus_vtable alarmd_vtable_property(const char *member, const char *signature,
                                                   sd_bus_property_get_t get, uint64_t flags) {
        sd_bus_vtable v;
        memset(&v, 0, sizeof v);
        v.type = _SD_BUS_VTABLE_PROPERTY;
        v.flags = flags;
        v.x.property.member = member;
        v.x.property.signature = signature;
        v.x.property.get = get;
        v.x.property.set = NULL;
        v.x.property.offset = 0;
        return v;
}

/* Not exported by glibc's headers as a constant Swift can see. */
#ifndef TFD_TIMER_CANCEL_ON_SET
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#endif
static const int alarmd_tfd_timer_cancel_on_set = TFD_TIMER_CANCEL_ON_SET;

#endif
