// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// KWin's kde_lockscreen_overlay_v1 (plasma-wayland-protocols): a surface allowed by it, while still
// unmapped, stays visible and takes input while the session is locked. KWin announces the global
// only to programs whose desktop file lists it in X-KDE-Wayland-Interfaces (README.md).
#ifndef ALARMD_LOCKSCREENOVERLAY_H
#define ALARMD_LOCKSCREENOVERLAY_H

#include <QtWaylandClient/QWaylandClientExtensionTemplate>

#include "qwayland-kde-lockscreen-overlay-v1.h"

class QWindow;

class LockscreenOverlay : public QWaylandClientExtensionTemplate<LockscreenOverlay>,
                          public QtWayland::kde_lockscreen_overlay_v1
{
public:
    LockscreenOverlay();
    ~LockscreenOverlay() override;

    /** Whether the compositor offered the global to this program (and it is bound). */
    bool offered() const { return isActive() && isInitialized(); }
    /** The protocol version bound (the compositor's, at most ours). */
    uint32_t boundVersion() const { return QtWayland::kde_lockscreen_overlay_v1::version(); }

    /** Asks for `window`'s surface to show above the lock screen. The window must have its surface
     *  (shown) and no buffer yet: call right after show(), before the event loop runs. */
    bool allowWindow(QWindow *window);
};

#endif
