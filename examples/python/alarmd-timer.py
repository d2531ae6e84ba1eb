#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

"""An app that sets a 3-second timer with alarmd (Gio through PyGObject): it names itself, asks
the user for permission, schedules the timer, waits for its State to become "alerting"
(PropertiesChanged), stops it and waits for AlarmRemoved. Exit status 0 when all of that happened.
With --sound-file PATH the timer rings with that WAV or Ogg Vorbis file, handed to alarmd open, as a
Flatpak app hands over a sound of its own."""
import argparse
import os
import sys
import uuid

from gi.repository import Gio, GLib

NAME, MANAGER, IFACE = "org.alarmd.AlarmManager1", "/org/alarmd/AlarmManager1", "org.alarmd.AlarmManager1"
APP_ID = "org.alarmd.examples.PythonTimer"

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--sound-file", metavar="PATH", help="ring with this file instead of the default sound")
args = parser.parse_args()

bus = Gio.bus_get_sync(Gio.BusType.SESSION)
loop = GLib.MainLoop()
alarm_id = str(uuid.uuid4())
alarm_path = MANAGER + "/alarm/" + alarm_id.replace("-", "_")
result = {"status": 1}


def call(method, args=None, timeout_ms=-1):
    return bus.call_sync(NAME, MANAGER, IFACE, method, args, None, Gio.DBusCallFlags.NONE, timeout_ms, None).unpack()


def on_properties_changed(_bus, _sender, _path, _iface, _signal, params):
    interface, changed, _invalidated = params.unpack()
    if interface == "org.alarmd.Alarm1" and changed.get("State") == "alerting":
        print("ringing")
        call("Stop", GLib.Variant("(s)", (alarm_id,)))


def on_alarm_removed(_bus, _sender, _path, _iface, _signal, params):
    removed_id, _app, reason = params.unpack()
    if removed_id == alarm_id:
        print("removed:", reason)
        result["status"] = 0 if reason == "stopped" else 1
        loop.quit()


# In a Flatpak sandbox alarmd knows the app by its Flatpak id; elsewhere the app names itself.
if not os.path.exists("/.flatpak-info"):
    call("RegisterApp", GLib.Variant("(s)", (APP_ID,)))
# Asks the user once (a notification with Allow / Don't Allow); the reply waits for the answer.
(state,) = call("RequestAuthorization", GLib.Variant("(s)", ("Rings the example's 3-second timer",)), 130_000)
print("authorization:", state)
if state != "authorized":
    sys.exit(f"not authorized; allow it with: alarmctl auth allow {APP_ID}")

# Subscribe before scheduling, so that no change can be missed.
bus.signal_subscribe(NAME, "org.freedesktop.DBus.Properties", "PropertiesChanged", alarm_path, None,
                     Gio.DBusSignalFlags.NONE, on_properties_changed)
bus.signal_subscribe(NAME, IFACE, "AlarmRemoved", MANAGER, None, Gio.DBusSignalFlags.NONE, on_alarm_removed)
# alarmd broadcasts nothing: it sends its signals to the connections that watch, each about its own alarms.
call("Watch", None)
config = {"title": GLib.Variant("s", "Python tea"), "duration": GLib.Variant("u", 3)}
fds = None
if args.sound_file:
    # A path inside a sandbox means nothing to alarmd; an open file does. The "h" value is the
    # descriptor's index in the call's fd list. alarmd keeps a copy, so the file may close after the call.
    fds = Gio.UnixFDList.new_from_array([os.open(args.sound_file, os.O_RDONLY | os.O_CLOEXEC)])
    config["sound_file"] = GLib.Variant("h", 0)
reply, _ = bus.call_with_unix_fd_list_sync(NAME, MANAGER, IFACE, "Schedule", GLib.Variant("(sa{sv})", (alarm_id, config)),
                                           GLib.VariantType("(o)"), Gio.DBusCallFlags.NONE, -1, fds, None)
(path,) = reply.unpack()
print("scheduled", path)
if args.sound_file:
    # The alarm's Sound names alarmd's copy, the file it rings with.
    (sound,) = bus.call_sync(NAME, path, "org.freedesktop.DBus.Properties", "Get",
                             GLib.Variant("(ss)", ("org.alarmd.Alarm1", "Sound")), None, Gio.DBusCallFlags.NONE, -1, None).unpack()
    print("sound:", sound)
GLib.timeout_add_seconds(30, lambda: print("timed out", file=sys.stderr) or loop.quit())
loop.run()
sys.exit(result["status"])
