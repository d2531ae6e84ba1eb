# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""What every desktop suite shares: its log line, its failure, its run of named checks, waiting on an
event, and reading screenshots (words found by OCR, pixels). Each suite's OCR itself (crop, scale, filters) stays its own:
each desktop's text needs other treatment."""
import os
import re
import subprocess
import time
import traceback

T0 = time.monotonic()


def log(msg):
    print(f'[{time.monotonic() - T0:6.1f}s] {msg}', flush=True)


class Fail(Exception):
    pass


class CheckRun:
    """Runs a suite's named checks against its session `s`: each is logged PASS or FAIL with its time,
    a failure leaves a screenshot, and `tidy` (a suite's own) runs after every check."""

    def __init__(self, s):
        self.s = s
        self.results = []
        self.failures = []

    def tidy(self):
        pass

    def check(self, name, fn):
        t = time.monotonic()
        try:
            fn()
            ok = True
            log(f'PASS {name} ({time.monotonic() - t:.1f}s)')
        except Exception as e:
            ok = False
            log(f'FAIL {name}: {e}')
            self.failures.append(f'{name}: {e}')
            if not isinstance(e, Fail):
                traceback.print_exc()
            try:
                self.s.screenshot('failure')
            except Exception:
                pass
        try:
            self.tidy()
        except Exception:
            pass
        self.results.append((name, ok))
        return ok


def recap(checks):
    """Repeats the failures just before a suite's last line: a CI log that keeps only its tail must
    still say what failed and why."""
    for line in getattr(checks, 'failures', []) if checks else []:
        print(f'failed: {line}'[:2000], flush=True)


def wait_for(what, predicate, timeout=10.0, interval=0.1):
    """Polls predicate until it returns something truthy, or fails after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            last = predicate()
        except Fail:
            last = None
        if last:
            return last
        if time.monotonic() > deadline:
            raise Fail(f'timed out after {timeout:.0f}s waiting for {what}')
        time.sleep(interval)


def tesseract(args):
    """tesseract's output for ARGS (its input and options), on one thread: its OpenMP threads make it
    several times slower on a loaded machine. A tesseract that fails is named with what it said, never
    taken for a screen with no words on it."""
    r = subprocess.run(['tesseract'] + args, capture_output=True, text=True, env=dict(os.environ, OMP_THREAD_LIMIT='1'))
    if r.returncode != 0:
        raise Fail(f'tesseract {" ".join(args)} failed ({r.returncode}): {r.stderr.strip()[-400:]}')
    return r.stdout


def reading_order(words):
    """OCR's words (text, x, y, w, h) line by line, left to right. A line is the words whose boxes'
    middles lie within half a box of the first one's: a short word ("a") has its box top a few pixels
    below its neighbours' ascenders, so cutting lines at fixed heights could put it after the line."""
    out, line, ref = [], [], 0.0
    for w in sorted(words, key=lambda w: w[2] + w[4] / 2):
        middle = w[2] + w[4] / 2
        if line and middle - ref > max(3, min(v[4] for v in line) / 2):
            out += sorted(line, key=lambda v: v[1])
            line = []
        if not line:
            ref = middle
        line.append(w)
    return out + sorted(line, key=lambda v: v[1])


def text_of(words):
    """OCR's words (text, x, y, w, h) as one line."""
    return ' '.join(w[0] for w in words)


def find_word(words, pattern):
    """The first word matching the regular expression, or None."""
    for w in words:
        if re.search(pattern, w[0]):
            return w
    return None


def pixels(png, crop):
    """RGB triples of a region, from ImageMagick's text format."""
    x, y, w, h = crop
    r = subprocess.run(['convert', png, '-crop', f'{w}x{h}+{x}+{y}', '+repage', 'txt:-'], capture_output=True,
                       text=True, check=True)
    out = []
    for line in r.stdout.splitlines()[1:]:
        m = re.search(r'\((\d+(?:\.\d+)?),(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)', line)
        if m:
            out.append(tuple(int(float(v)) for v in m.groups()))
    return out


def count_near(pix, rgb, tol=40):
    """How many of the pixels are within tol of the colour in every channel."""
    return sum(1 for p in pix if all(abs(a - b) <= tol for a, b in zip(p, rgb)))
