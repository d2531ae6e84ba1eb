#!/usr/bin/python3
"""waybar in a headless sway (pixman renderer, run as the non-root test user), its custom module
running `alarmctl panel --format waybar` (return-type json): the countdown is shown and ticks."""

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


if __name__ == "__main__":
    harness.main(globals())
