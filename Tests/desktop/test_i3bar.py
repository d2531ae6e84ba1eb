#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

"""i3bar under Xvfb (i3 as the window manager), its status_command `alarmctl panel --format i3bar`:
the countdown is shown and ticks; a real click on the ringing alarm's block stops it (button 1) or
snoozes it (button 3), through the click events i3bar writes to alarmctl's stdin."""

import time

import checks
import harness

BAR = """position top
tray_output none
workspace_buttons no
font pango:DejaVu Sans 14
colors {{
    background {bg}
    statusline #ffffff
}}
{status_command}"""
URGENT_BG = "#900000"  # i3bar's default urgent colours


def start_i3bar(s):
    """Xvfb, then i3 with one bar; returns when it started and the processes to watch."""
    t = time.monotonic()
    xvfb = s.start_xvfb()
    # The user guide's bar block, as a user copies it.
    i3 = s.start_i3(BAR.format(bg=harness.BAR_BG, status_command=harness.Session.panel_snippet("i3")))
    return t, (xvfb, i3)


def shown_urgent(s, where):
    """The ringing alarm's block is urgent: i3bar draws it on its urgent background (red, #900000)."""
    x, _ = where
    colour = s.pixel(s.last_shot, x, 2)
    if colour != URGENT_BG:
        raise harness.Failure(f"the ringing alarm's block is drawn on {colour}, not i3bar's urgent {URGENT_BG}")
    s.log(f"the block is on i3bar's urgent background {URGENT_BG}")


def test_i3bar_shows_the_countdown(s):
    s.start_bus()
    s.start_alarmd()
    alarm = s.schedule_timer("Tea", "10m", compact_label="TEA")
    since, procs = start_i3bar(s)
    checks.countdown_shown_and_ticking(s, alarm, "TEA", "i3bar", since, procs)


def test_i3bar_left_click_stops_the_ringing_alarm(s):
    s.start_bus()
    s.start_alarmd()
    since, procs = start_i3bar(s)
    alarm = s.schedule_timer(checks.RING_TITLE, "3s", compact_label=checks.RING_LABEL)
    where = checks.ringing_shown(s, alarm, "i3bar", since, procs)
    shown_urgent(s, where)
    s.click(*where, button=1)
    checks.stopped(s, alarm, "i3bar", procs)


def test_i3bar_right_click_snoozes_the_ringing_alarm(s):
    s.start_bus()
    s.start_alarmd()
    since, procs = start_i3bar(s)
    alarm = s.schedule_timer(checks.RING_TITLE, "3s", compact_label=checks.RING_LABEL)
    where = checks.ringing_shown(s, alarm, "i3bar", since, procs)
    shown_urgent(s, where)
    s.click(*where, button=3)
    checks.snoozed(s, alarm, "i3bar", procs)


if __name__ == "__main__":
    harness.main(globals())
