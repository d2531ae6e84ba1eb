/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#include "shim.h"

static void *pulse_dl;

DLSYM_FUNCTION(pa_context_connect);
DLSYM_FUNCTION(pa_context_disconnect);
DLSYM_FUNCTION(pa_context_errno);
DLSYM_FUNCTION(pa_context_get_server_info);
DLSYM_FUNCTION(pa_context_get_sink_info_by_index);
DLSYM_FUNCTION(pa_context_get_sink_info_by_name);
DLSYM_FUNCTION(pa_context_get_sink_input_info_list);
DLSYM_FUNCTION(pa_context_get_state);
DLSYM_FUNCTION(pa_context_new_with_proplist);
DLSYM_FUNCTION(pa_context_set_sink_mute_by_name);
DLSYM_FUNCTION(pa_context_set_sink_volume_by_name);
DLSYM_FUNCTION(pa_context_set_state_callback);
DLSYM_FUNCTION(pa_context_set_subscribe_callback);
DLSYM_FUNCTION(pa_context_subscribe);
DLSYM_FUNCTION(pa_context_unref);
DLSYM_FUNCTION(pa_operation_unref);
DLSYM_FUNCTION(pa_proplist_free);
DLSYM_FUNCTION(pa_proplist_gets);
DLSYM_FUNCTION(pa_proplist_new);
DLSYM_FUNCTION(pa_proplist_sets);
DLSYM_FUNCTION(pa_strerror);
DLSYM_FUNCTION(pa_threaded_mainloop_free);
DLSYM_FUNCTION(pa_threaded_mainloop_get_api);
DLSYM_FUNCTION(pa_threaded_mainloop_lock);
DLSYM_FUNCTION(pa_threaded_mainloop_new);
DLSYM_FUNCTION(pa_threaded_mainloop_start);
DLSYM_FUNCTION(pa_threaded_mainloop_stop);
DLSYM_FUNCTION(pa_threaded_mainloop_unlock);

int alarmd_load_pulse(char *error, size_t size) {
        return dlopen_many_sym(
                        &pulse_dl, "libpulse.so.0", error, size,
                        DLSYM_ARG(pa_context_connect),
                        DLSYM_ARG(pa_context_disconnect),
                        DLSYM_ARG(pa_context_errno),
                        DLSYM_ARG(pa_context_get_server_info),
                        DLSYM_ARG(pa_context_get_sink_info_by_index),
                        DLSYM_ARG(pa_context_get_sink_info_by_name),
                        DLSYM_ARG(pa_context_get_sink_input_info_list),
                        DLSYM_ARG(pa_context_get_state),
                        DLSYM_ARG(pa_context_new_with_proplist),
                        DLSYM_ARG(pa_context_set_sink_mute_by_name),
                        DLSYM_ARG(pa_context_set_sink_volume_by_name),
                        DLSYM_ARG(pa_context_set_state_callback),
                        DLSYM_ARG(pa_context_set_subscribe_callback),
                        DLSYM_ARG(pa_context_subscribe),
                        DLSYM_ARG(pa_context_unref),
                        DLSYM_ARG(pa_operation_unref),
                        DLSYM_ARG(pa_proplist_free),
                        DLSYM_ARG(pa_proplist_gets),
                        DLSYM_ARG(pa_proplist_new),
                        DLSYM_ARG(pa_proplist_sets),
                        DLSYM_ARG(pa_strerror),
                        DLSYM_ARG(pa_threaded_mainloop_free),
                        DLSYM_ARG(pa_threaded_mainloop_get_api),
                        DLSYM_ARG(pa_threaded_mainloop_lock),
                        DLSYM_ARG(pa_threaded_mainloop_new),
                        DLSYM_ARG(pa_threaded_mainloop_start),
                        DLSYM_ARG(pa_threaded_mainloop_stop),
                        DLSYM_ARG(pa_threaded_mainloop_unlock));
}
