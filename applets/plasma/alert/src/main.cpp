// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// alarmd-lockscreen-alert --alarm ID: a ringing alarm's title with Stop (and Snooze) above the Plasma
// lock screen, through KWin's kde_lockscreen_overlay_v1, as KClock's ringing window. The Plasma applet
// starts it when an alarm rings while the screen is locked; it ends when the alarm stops ringing, alarmd
// leaves the bus or the screen is unlocked. README.md says how KWin decides who may use the protocol.
//
// --probe only says whether the compositor offers the protocol to this program (status 0 or 3).
//
// Exit status: 0 the alert ended (or there was nothing to show), 1 bad arguments or alarmd unreachable,
// 2 no Wayland display, 3 the compositor does not offer kde_lockscreen_overlay_v1 to this program,
// 4 the window could not be made.

#include "alert.h"
#include "lockscreenoverlay.h"

#include <KLocalizedString>
#include <KWaylandExtras>
#include <KWindowSystem>

#include <QtCore/QCommandLineParser>
#include <QtCore/QTimer>
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusError>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlContext>
#include <QtQuick/QQuickWindow>

#include <wayland-client-core.h>

#include <memory>

static const QString s_desktopFile = QStringLiteral("org.alarmd.LockScreenAlert");

// A Wayland display to talk to, checked before Qt is asked for one (Qt aborts when it cannot connect).
static bool waylandReachable(QString *why)
{
    const QByteArray name = qgetenv("WAYLAND_DISPLAY");
    if (name.isEmpty() && qEnvironmentVariableIsEmpty("WAYLAND_SOCKET")) {
        *why = QStringLiteral("WAYLAND_DISPLAY is not set");
        return false;
    }
    wl_display *display = wl_display_connect(nullptr);
    if (!display) {
        *why = QStringLiteral("cannot connect to the Wayland display %1").arg(QString::fromLocal8Bit(name));
        return false;
    }
    wl_display_disconnect(display);
    return true;
}

int main(int argc, char *argv[])
{
    // Only KWin on Wayland can put a window above its lock screen: X11 is no fallback.
    QString why;
    if (!waylandReachable(&why)) {
        say(QStringLiteral("no Wayland session (%1): only KWin on Wayland shows windows above the lock screen").arg(why));
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "wayland");

    QGuiApplication app(argc, argv);
    // The applet's domain: one catalogue for everything the alarmd Plasma package shows (CMakeLists.txt).
    KLocalizedString::setApplicationDomain(TRANSLATION_DOMAIN);
    QGuiApplication::setApplicationName(QStringLiteral("alarmd-lockscreen-alert"));
    QGuiApplication::setApplicationVersion(QStringLiteral("1.0"));
    // The app id KWin sees (xdg_toplevel.set_app_id) and activates by: this program's desktop file.
    QGuiApplication::setDesktopFileName(s_desktopFile);
    QGuiApplication::setQuitOnLastWindowClosed(false);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("A ringing alarmd alarm above the Plasma lock screen"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption alarmOption(QStringLiteral("alarm"), QStringLiteral("The ringing alarm's Id."), QStringLiteral("ID"));
    parser.addOption(alarmOption);
    const QCommandLineOption probeOption(QStringLiteral("probe"),
                                         QStringLiteral("Only say whether the compositor offers kde_lockscreen_overlay_v1 to this program."));
    parser.addOption(probeOption);
    parser.process(app);
    const QString id = parser.value(alarmOption);
    const bool probe = parser.isSet(probeOption);
    if (id.isEmpty() == !probe || !parser.positionalArguments().isEmpty()) {
        say(QStringLiteral("usage: alarmd-lockscreen-alert --alarm ID | --probe"));
        return 1;
    }

    LockscreenOverlay overlay;
    if (probe && overlay.offered()) {
        say(QStringLiteral("the compositor offers kde_lockscreen_overlay_v1 (version %1) to this program").arg(overlay.boundVersion()));
        return 0;
    }
    if (!overlay.offered()) {
        say(QStringLiteral("the compositor does not offer kde_lockscreen_overlay_v1 to this program (KWin offers it only to "
                           "programs whose desktop file lists it in X-KDE-Wayland-Interfaces): cannot show above the lock screen"));
        return 3;
    }

    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        say(QStringLiteral("no session bus: %1").arg(bus.lastError().message()));
        return 1;
    }
    Alert alert(bus, id);
    const int early = alert.start();
    if (early >= 0)
        return early;
    QObject::connect(&alert, &Alert::finished, &app, [](int status) {
        QCoreApplication::exit(status);
    });

    QQmlApplicationEngine engine;
    engine.rootContext()->setContextProperty(QStringLiteral("alarm"), &alert);
    engine.load(QUrl(QStringLiteral("qrc:/qml/Alert.qml")));
    QQuickWindow *window = engine.rootObjects().isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
    if (!window) {
        say(QStringLiteral("the alert's window could not be made (qml/Alert.qml)"));
        return 4;
    }

    // show() gives the window its xdg_toplevel and an empty first commit; allow() goes out before any
    // buffer does (KWin refuses a surface that is already mapped, and needs its window to exist).
    // The first frame on the screen: one line, which the tests wait for.
    auto firstFrame = std::make_shared<QMetaObject::Connection>();
    *firstFrame = QObject::connect(window, &QQuickWindow::frameSwapped, window, [firstFrame] {
        QObject::disconnect(*firstFrame);
        say(QStringLiteral("alert shown"));
    });
    window->show();
    if (!overlay.allowWindow(window)) {
        say(QStringLiteral("the alert's window has no Wayland surface"));
        return 4;
    }
    say(QStringLiteral("window allowed above the lock screen (kde_lockscreen_overlay_v1)"));
    // Closed by the user (its title bar's ×): the alarm rings on, in alarmd and on the unlocked desktop.
    const QMetaObject::Connection closed = QObject::connect(window, &QQuickWindow::visibleChanged, &app, [](bool visible) {
        if (!visible) {
            say(QStringLiteral("window closed: the alert ends, the alarm rings on"));
            QCoreApplication::exit(0);
        }
    });

    // Raised and focused as KClock does: an xdg-activation token, which KWin grants a program that may
    // use kde_lockscreen_overlay_v1 without a user's input serial, then activation with it.
    QObject::connect(KWaylandExtras::self(), &KWaylandExtras::xdgActivationTokenArrived, window,
                     [window](int, const QString &token) {
                         KWindowSystem::setCurrentXdgActivationToken(token);
                         KWindowSystem::activateWindow(window);
                     });
    KWaylandExtras::requestXdgActivationToken(window, KWaylandExtras::lastInputSerial(window), s_desktopFile);
    window->requestActivate();

    const int status = app.exec();
    QObject::disconnect(closed); // the window goes with the engine below: that is no closing
    return status;
}
