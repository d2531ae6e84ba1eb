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
#include <spawn.h>
#include <fcntl.h>
#include <unistd.h>

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

/* glibc's (2.34 and later; alarmd needs 2.36), declared only under _GNU_SOURCE, which Swift's Glibc
 * module is not built with: EventLoop.spawn closes every descriptor above stderr in the child, puts
 * it in a session of its own, and makes its pipe close-on-exec from the start. */
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
int pipe2(int fds[2], int flags);
static inline int alarmd_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
        return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
static inline int alarmd_pipe_cloexec(int fds[2]) {
        return pipe2(fds, O_CLOEXEC);
}
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif
static const short alarmd_posix_spawn_setsid = POSIX_SPAWN_SETSID;

#endif
