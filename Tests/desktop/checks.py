# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

"""What every bar must show, checked the same way on each: a running timer as '<label> M:SS' with the
time the daemon says remains, counting down; a ringing alarm as its title; after a click on it, nothing
(stopped) or the snooze countdown."""

import re
import time

from harness import Failure, wait_until

# The alarm the click tests ring: its countdown shows the compact label, its alert the title, so the
# two are told apart on the screen.
RING_TITLE, RING_LABEL = "Pizza", "PZ"
SLACK = 3  # seconds between the countdown shown and the daemon's


def countdown_in(label):
    """A check for wait_for_bar: the seconds shown after `label` ('TEA 9:58' → 598), or None."""
    pattern = re.compile(re.escape(label) + r"\s+(\d{1,2}(?::\d{2}){1,2})\b")

    def check(ocr):
        m = pattern.search(ocr.text)
        if not m:
            return None
        seconds = 0
        for part in m.group(1).split(":"):
            seconds = seconds * 60 + int(part)
        return seconds

    return check


def countdown_matching_daemon(s, label, fire):
    """A check for wait_for_bar: the bar shows `label` and the time left until `fire` (the daemon's end of
    the countdown) when the screenshot was taken, give or take SLACK seconds (the panel rounds either
    way and redraws once a second; a loaded machine draws late). Returns the seconds shown."""
    def check(ocr):
        shown = countdown_in(label)(ocr)
        if shown is None:
            return None
        taken_from, taken_to = s.last_shot_window
        low, high = fire - taken_to, fire - taken_from
        if not low - SLACK <= shown <= high + SLACK:
            raise Failure(f"the bar shows {ocr}: {shown} s left, but the daemon says {low:.1f}–{high:.1f} s")
        return max(shown, 1)  # truthy even at 0:00

    return check


def countdown_shown_and_ticking(s, alarm, label, bar, since, watch=()):
    """The bar shows the countdown with the daemon's figure, then a smaller one; both screenshots kept."""
    fire = s.fire_time(alarm)
    shot, ocr, shown = s.wait_for_bar(f"'{label} M:SS'", countdown_matching_daemon(s, label, fire),
                                      timeout=45, watch=watch)
    s.timings[f"{bar}_module_visible"] = time.monotonic() - since
    s.log(f"bar reads {ocr}: {shown} s left, as the daemon says")
    s.keep(shot, f"{bar}-countdown-1.png", ocr)

    def fewer(ocr):
        value = countdown_matching_daemon(s, label, fire)(ocr)
        return value if value is not None and value < shown else None

    shot, ocr, later = s.wait_for_bar(f"'{label}' counting down from {shown} s", fewer, timeout=10, watch=watch)
    s.log(f"bar reads {ocr}: {later} s left")
    s.keep(shot, f"{bar}-countdown-2.png", ocr)


def ringing_shown(s, alarm, bar, since, watch=()):
    """Waits until the bar shows the ringing alarm's title, checks the daemon says it is alerting, and
    returns where the title is on the screen (to click it)."""
    shot, ocr, where = s.wait_for_bar(f"the ringing alarm '{RING_TITLE}'", lambda o: o.find(RING_TITLE),
                                      timeout=30, watch=watch)
    s.timings[f"{bar}_alert_visible"] = time.monotonic() - since
    state = s.alarm_state(alarm)
    if state != "alerting":
        raise Failure(f"the bar shows {ocr} but the alarm is {state!r}, not alerting")
    s.log(f"bar reads {ocr}; '{RING_TITLE}' at {where}; State alerting")
    s.keep(shot, f"{bar}-alerting.png", ocr)
    return where


def stopped(s, alarm, bar, watch=()):
    """Stop removes a one-shot timer: GetAlarms no longer lists it and the module shows nothing."""
    wait_until("the alarm to be gone from GetAlarms", lambda: alarm not in s.alarms(), 10)
    s.log("GetAlarms no longer lists it")
    shot, ocr, _ = s.wait_for_bar("an empty module", lambda o: o.empty, timeout=10, watch=watch)
    s.log("the module shows nothing")
    s.keep(shot, f"{bar}-after-left-click.png", ocr)


def snoozed(s, alarm, bar, watch=()):
    """Snoozed: State countdown, and the bar counts down the snooze (post_alert, 300 s by default)."""
    wait_until("the alarm to be snoozed (State countdown)", lambda: s.alarm_state(alarm) == "countdown", 10)
    fire = s.fire_time(alarm)
    left = fire - time.time()
    if not 290 <= left <= 300:
        raise Failure(f"snoozed for {left:.0f} s, not the default 300 s")
    s.log(f"State countdown, {left:.0f} s left")
    shot, ocr, shown = s.wait_for_bar(f"the snooze countdown '{RING_LABEL} 4:5x'",
                                      countdown_matching_daemon(s, RING_LABEL, fire), timeout=10, watch=watch)
    s.log(f"bar reads {ocr}: {shown} s left, as the daemon says")
    s.keep(shot, f"{bar}-after-right-click.png", ocr)
