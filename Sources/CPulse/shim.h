#ifndef ALARMD_CPULSE_SHIM_H
#define ALARMD_CPULSE_SHIM_H
#include <pulse/context.h>
#include <pulse/introspect.h>
#include <pulse/subscribe.h>
#include <pulse/thread-mainloop.h>
#include <pulse/volume.h>
#include <pulse/proplist.h>
#include <pulse/error.h>

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
