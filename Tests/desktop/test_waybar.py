#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

"""waybar in a headless sway (pixman renderer, run as the non-root test user), its custom module
running `alarmctl panel --format waybar` (return-type json): the countdown is shown and ticks."""

import os
import signal
import time

import checks
import harness


def test_waybar_in_headless_sway_shows_the_countdown(s):
    s.start_bus()
    s.start_alarmd()
    alarm = s.schedule_timer("Tea", "10m", compact_label="TEA")
    since = time.monotonic()
    sway = s.start_sway_waybar()
    checks.countdown_shown_and_ticking(s, alarm, "TEA", "waybar", since, (sway,))



PANEL = ("panel", "--format", "waybar")


def test_waybar_module_ends_with_waybar(s):
    """When waybar goes away (it is killed, or restarts) its module must not linger: alarmctl panel, writing
    into a closed pipe, exits."""
    s.start_bus()
    s.start_alarmd()
    alarm = s.schedule_timer("Tea", "10m", compact_label="TEA")
    sway = s.start_sway_waybar()
    s.wait_for_bar("'TEA M:SS'", checks.countdown_in("TEA"), timeout=45, watch=(sway,))
    waybar = harness.wait_until("waybar's process", lambda: s.find_processes("waybar"), 5)
    panels = s.find_processes(args=PANEL)
    if not panels:
        raise harness.Failure("no process runs `panel --format waybar`")
    s.log(f"killing waybar {waybar} (SIGKILL); its module: {panels}")
    for pid in waybar:
        os.kill(pid, signal.SIGKILL)
    harness.wait_until("alarmctl panel to exit after waybar died",
                       lambda: not set(panels) & set(s.find_processes(args=PANEL)), 5)
    s.log("alarmctl panel exited")


if __name__ == "__main__":
    harness.main(globals())
