# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""alarmd's deadline timer as the kernel shows it, for the suites that check which clock it runs on
(package, wake): read from /proc/PID/fdinfo, never from alarmd."""
import re

# The clock-step watcher is a CLOCK_REALTIME timerfd armed for 2100: over 30 years left.
_WATCHER_SECONDS = 30 * 365 * 86400


def timerfd(info):
    """(clockid, seconds left, settime flags) of one timerfd's fdinfo (its lines, or all on one line);
    None for what is not a timerfd's. 0 = CLOCK_REALTIME, 8 = CLOCK_REALTIME_ALARM."""
    clock = re.search(r"clockid:\s*(\d+)", info or "")
    if not clock:
        return None
    flags = re.search(r"settime flags:\s*(\d+)", info)
    left = re.search(r"it_value:\s*\((\d+),\s*(\d+)\)", info)
    secs = int(left.group(1)) + int(left.group(2)) / 1e9 if left else 0.0
    return int(clock.group(1)), secs, int(flags.group(1), 8) if flags else 0


def is_deadline_timer(info):
    """Whether a timerfd is alarmd's deadline timer: set with TFD_TIMER_CANCEL_ON_SET (settime flags
    bit 1), which only it and the clock-step watcher are, and not the watcher."""
    t = timerfd(info)
    if t is None or not t[2] & 2:
        return False
    clock, secs, _ = t
    return not (clock == 0 and secs > _WATCHER_SECONDS)
