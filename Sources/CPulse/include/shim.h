/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#ifndef ALARMD_CPULSE_SHIM_H
#define ALARMD_CPULSE_SHIM_H
#include <pulse/context.h>
#include <pulse/introspect.h>
#include <pulse/subscribe.h>
#include <pulse/thread-mainloop.h>
#include <pulse/volume.h>
#include <pulse/proplist.h>
#include <pulse/error.h>
#include <dlfcn-util.h>

/* libpulse is opened on first use (the output guard's first connection): see dlfcn-util.h. */
int alarmd_load_pulse(char *error, size_t size);

DLSYM_PROTOTYPE(pa_context_connect);
DLSYM_PROTOTYPE(pa_context_disconnect);
DLSYM_PROTOTYPE(pa_context_errno);
DLSYM_PROTOTYPE(pa_context_get_server_info);
DLSYM_PROTOTYPE(pa_context_get_sink_info_by_index);
DLSYM_PROTOTYPE(pa_context_get_sink_info_by_name);
DLSYM_PROTOTYPE(pa_context_get_sink_input_info_list);
DLSYM_PROTOTYPE(pa_context_get_state);
DLSYM_PROTOTYPE(pa_context_new_with_proplist);
DLSYM_PROTOTYPE(pa_context_set_sink_mute_by_name);
DLSYM_PROTOTYPE(pa_context_set_sink_volume_by_name);
DLSYM_PROTOTYPE(pa_context_set_state_callback);
DLSYM_PROTOTYPE(pa_context_set_subscribe_callback);
DLSYM_PROTOTYPE(pa_context_subscribe);
DLSYM_PROTOTYPE(pa_context_unref);
DLSYM_PROTOTYPE(pa_operation_unref);
DLSYM_PROTOTYPE(pa_proplist_free);
DLSYM_PROTOTYPE(pa_proplist_gets);
DLSYM_PROTOTYPE(pa_proplist_new);
DLSYM_PROTOTYPE(pa_proplist_sets);
DLSYM_PROTOTYPE(pa_strerror);
DLSYM_PROTOTYPE(pa_threaded_mainloop_free);
DLSYM_PROTOTYPE(pa_threaded_mainloop_get_api);
DLSYM_PROTOTYPE(pa_threaded_mainloop_lock);
DLSYM_PROTOTYPE(pa_threaded_mainloop_new);
DLSYM_PROTOTYPE(pa_threaded_mainloop_start);
DLSYM_PROTOTYPE(pa_threaded_mainloop_stop);
DLSYM_PROTOTYPE(pa_threaded_mainloop_unlock);

/* pa_cvolume.values is a fixed C array, a 32-tuple in Swift: read and fill it here. */
static inline unsigned alarmd_cvolume_channels(const pa_cvolume *v) { return v->channels; }
static inline uint32_t alarmd_cvolume_get(const pa_cvolume *v, unsigned i) { return i < v->channels ? v->values[i] : 0; }
static inline void alarmd_cvolume_set(pa_cvolume *v, unsigned channels, const uint32_t *values) {
    if (channels > PA_CHANNELS_MAX) channels = PA_CHANNELS_MAX;
    v->channels = (uint8_t)channels;
    for (unsigned i = 0; i < channels; i++) v->values[i] = values[i];
}
/* The subscription event's parts; the masks are enum values Swift imports awkwardly. */
static inline int alarmd_event_is_sink(pa_subscription_event_type_t t) {
    return (t & PA_SUBSCRIPTION_EVENT_FACILITY_MASK) == PA_SUBSCRIPTION_EVENT_SINK;
}
static inline int alarmd_event_is_sink_input(pa_subscription_event_type_t t) {
    return (t & PA_SUBSCRIPTION_EVENT_FACILITY_MASK) == PA_SUBSCRIPTION_EVENT_SINK_INPUT;
}
static inline int alarmd_event_is_removal(pa_subscription_event_type_t t) {
    return (t & PA_SUBSCRIPTION_EVENT_TYPE_MASK) == PA_SUBSCRIPTION_EVENT_REMOVE;
}
static inline pa_subscription_mask_t alarmd_subscription_mask(void) {
    return (pa_subscription_mask_t)(PA_SUBSCRIPTION_MASK_SINK | PA_SUBSCRIPTION_MASK_SINK_INPUT);
}
#endif
