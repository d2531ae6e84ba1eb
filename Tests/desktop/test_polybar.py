#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

"""polybar under Xvfb, a custom/script module (tail = true) running `alarmctl panel --format polybar`:
the countdown is shown and ticks; the ringing alarm's %{A1:…:} and %{A3:…:} actions, clicked for real,
stop it or snooze it (polybar runs `alarmctl stop|snooze ID` with the bar's environment)."""

import time

import checks
import harness


def start_polybar(s):
    """Xvfb, then polybar (no window manager needed); returns when it started and the processes to watch."""
    t = time.monotonic()
    xvfb = s.start_xvfb()
    # The user guide's module, as a user copies it.
    bar = s.start_polybar(harness.Session.panel_snippet("polybar"))
    return t, (xvfb, bar)


def test_polybar_shows_the_countdown(s):
    s.start_bus()
    s.start_alarmd()
    alarm = s.schedule_timer("Tea", "10m", compact_label="TEA")
    since, procs = start_polybar(s)
    checks.countdown_shown_and_ticking(s, alarm, "TEA", "polybar", since, procs)


def test_polybar_left_click_stops_the_ringing_alarm(s):
    s.start_bus()
    s.start_alarmd()
    since, procs = start_polybar(s)
    alarm = s.schedule_timer(checks.RING_TITLE, "3s", compact_label=checks.RING_LABEL)
    where = checks.ringing_shown(s, alarm, "polybar", since, procs)
    s.click(*where, button=1)
    checks.stopped(s, alarm, "polybar", procs)


def test_polybar_right_click_snoozes_the_ringing_alarm(s):
    s.start_bus()
    s.start_alarmd()
    since, procs = start_polybar(s)
    alarm = s.schedule_timer(checks.RING_TITLE, "3s", compact_label=checks.RING_LABEL)
    where = checks.ringing_shown(s, alarm, "polybar", since, procs)
    s.click(*where, button=3)
    checks.snoozed(s, alarm, "polybar", procs)


if __name__ == "__main__":
    harness.main(globals())
