// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

#include "lockscreenoverlay.h"

#include <QtGui/QGuiApplication>
#include <QtGui/QWindow>
#include <QtGui/qpa/qplatformnativeinterface.h>

static constexpr int s_version = 1;

LockscreenOverlay::LockscreenOverlay()
    : QWaylandClientExtensionTemplate<LockscreenOverlay>(s_version)
{
    // The registry's globals are known once QGuiApplication is up: this binds at once if offered.
    initialize();
}

LockscreenOverlay::~LockscreenOverlay()
{
    if (isInitialized())
        destroy();
}

bool LockscreenOverlay::allowWindow(QWindow *window)
{
    QPlatformNativeInterface *native = QGuiApplication::platformNativeInterface();
    if (!native || !window)
        return false;
    auto *surface = static_cast<wl_surface *>(native->nativeResourceForWindow(QByteArrayLiteral("surface"), window));
    if (!surface)
        return false;
    allow(surface);
    return true;
}
