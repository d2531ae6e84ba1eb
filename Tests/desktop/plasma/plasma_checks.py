# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The checks of the Plasma suites, written once: what a user of the applet would notice, read from
screenshots (tesseract) and clicked with xdotool, against the real alarmd.

The suites differ in their session only: Tests/desktop/plasma/run starts Plasma 5.27 on this machine,
run-root starts Plasma 6.3 (trixie) or 6.7 (forky) in a Debian root. A session gives the checks: art
(the screenshots' folder), work (a scratch folder of the host), version (5, 6), screenshot(label),
spawn(name, argv, extra), stop(name, p, sig), run(argv), xdotool(*args), click(x, y), busctl(*args),
name_owner(name), pid_of(unique), connections_of(pid), app_pid(p, comm) (the PID the bus reports for
a process it spawned), cmdline(pid), monitor_log, schedule(...), alarm_prop(id, prop), alarms(),
call(method, id), alarmd, start_alarmd(*args), start_plasmashell() and optionally
do_not_disturb() (turns it on as a user does; returns what says it is on), lock_screen() and
lock_alert_runs() (the arguments each run of the lock-screen alert's stand-in recorded).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'Tests', 'lib'))
from languages import LANGUAGES, WAYS, msgstr, read_lines, squeeze, tesseract_has  # noqa: E402
from screen import CheckRun, Fail, count_near, find_word, log, pixels, reading_order, recap, tesseract, text_of, wait_for  # noqa: E402,F401  (the suites import them from here)
APPLET = 'org.alarmd.plasmoid'
# The QML packages: Plasma 5.27's and Plasma 6's; one translation template for both.
PACKAGES = {5: os.path.join(ROOT, 'applets', 'plasma', 'package'), 6: os.path.join(ROOT, 'applets', 'plasma', 'package6')}
POT = os.path.join(ROOT, 'applets', 'plasma', 'po', f'plasma_applet_{APPLET}.pot')
BUS = 'org.alarmd.AlarmManager1'
MGR = ['org.alarmd.AlarmManager1', '/org/alarmd/AlarmManager1', 'org.alarmd.AlarmManager1']
W, H = 1280, 800
WIN = (0, 0, 560, 720)  # where plasmawindowed's window is put (x, y, w, h of its contents)
VIEW = (0, 30, 560, 720)  # its contents on the screen, below kwin's title bar
TOP = (0, 30, 560, 160)  # the first rows of the list
PANEL = (0, H - 44, W, 44)  # plasmashell's default panel, at the bottom


# --- reading the screen ----------------------------------------------------------------------
def ocr_words(png, crop, scale=3, negate=False, threshold=False, blue=False, psm=11, lanczos=False, border=0):
    """tesseract word boxes of a region (x, y, w, h), cropped, upscaled and in grey (Plasma's fonts are
    small): [(text, x, y, w, h)] in screen coordinates. blue: the grey of the blue channel alone, where
    orange text (the warning phase) is as dark as black text on Breeze's light grey. psm: tesseract's
    page segmentation (11: sparse words; 7: one line). lanczos, border: a sharper upscale and a white margin
    around it, which small panel text (Plasma 6's) needs to be read."""
    x0, y0, w, h = crop
    tmp = png[:-4] + f'-ocr-{x0}-{y0}-{scale}.png'
    grey = ['-channel', 'B', '-separate', '+channel'] if blue else ['-colorspace', 'Gray']
    args = (['convert', png, '-crop', f'{w}x{h}+{x0}+{y0}', '+repage'] + (['-filter', 'Lanczos'] if lanczos else [])
            + ['-resize', f'{scale * 100}%'] + grey)
    if negate:
        args.append('-negate')
    if threshold:
        args += ['-threshold', '60%' if not negate else '50%']
    if border:
        args += ['-bordercolor', 'white', '-border', str(border)]
    subprocess.run(args + [tmp], check=True)
    try:
        out = tesseract([tmp, '-', '--psm', str(psm), 'tsv'])
    finally:
        os.unlink(tmp)
    words = []
    for line in out.splitlines()[1:]:
        f = line.split('\t')
        if len(f) == 12 and f[11].strip() and float(f[10]) > 0:
            words.append((f[11].strip(), x0 + (int(f[6]) - border) // scale, y0 + (int(f[7]) - border) // scale,
                          int(f[8]) // scale, int(f[9]) // scale))
    return words


def merge_words(*readings):
    """The words of several readings of one image, each once (same text at about the same place)."""
    out = []
    for words in readings:
        for w in words:
            if not any(w[0] == v[0] and abs(w[1] - v[1]) < 8 and abs(w[2] - v[2]) < 6 for v in out):
                out.append(w)
    return reading_order(out)


COUNTDOWN = r'^\d{1,2}:\d\d$'
# How long a check waits for the screen to show something: generous, as a loaded machine takes seconds
# per screenshot and OCR (a check that passes returns as soon as it sees it).
SHOW = 20
RED, ORANGE = (0xff, 0x3b, 0x30), (0xff, 0x95, 0x00)
WORK_WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday']
ICONS = os.path.join(ROOT, 'data', 'icons')  # alarmd's own, alarmd-alarm-symbolic among them


class Checks(CheckRun):
    def __init__(self, s):
        super().__init__(s)
        # What read() reads: plasmawindowed's window, or the panel's popup (panel_alarms).
        self.view = VIEW
        # The panel's alarm-clock slot with no alarm on (panel_alarms), else None: nothing to look at.
        self.no_alarm_slot = None
        # Where the panel is: at the bottom, its height the session's Plasma's.
        self.PANEL = getattr(s, 'panel', PANEL)

    def pot_current(self):
        """The template holds every string of both QML packages, the plugin's (none) and the lock-screen alert's."""
        def msgids(path):
            with open(path, encoding='utf-8') as f:
                return set(re.findall(r'^msgid "(.+)"$', f.read(), re.M))
        tmp = os.path.join(self.s.work, 'applet.pot')
        sources = sorted(os.path.join(d, f) for pkg in PACKAGES.values() for d, _, files in os.walk(pkg)
                         for f in files if f.endswith('.qml'))
        plugin = os.path.join(ROOT, 'applets', 'plasma', 'plugin')
        sources += sorted(os.path.join(plugin, f) for f in os.listdir(plugin) if f.endswith('.cpp'))
        # The lock-screen alert shares the applet's domain.
        alert = os.path.join(ROOT, 'applets', 'plasma', 'alert')
        sources += sorted(os.path.join(d, f) for d, _, files in os.walk(alert) for f in files if f.endswith(('.cpp', '.qml')))
        subprocess.run(['xgettext', '--from-code=UTF-8', '-C', '--kde', '-ci18n', '-ki18n:1', '-ki18nc:1c,2', '-ki18np:1,2',
                        '-ki18ncp:1c,2,3', '-o', tmp] + sources, check=True, capture_output=True)
        want = msgids(tmp)
        have = msgids(POT)
        if want != have:
            raise Fail(f'the .pot is stale (make plasma-pot): missing {sorted(want - have)}, extra {sorted(have - want)}')
        print(f'    {len(want)} strings from {len(sources)} files')

    # --- plasmawindowed: the full view ----------------------------------------------------------
    # How the window is read: scale, and whether in black and white (60 %). A short bold title just above
    # a progress bar ("Soup") can be missed in grey, where the bar's track joins the line; black and white
    # drops the track (and the grey placeholder with it, which grey reads).
    PLAIN, MORE = ((3, False),), ((3, True), (4, False))

    def read(self, label, crop=None, ways=PLAIN):
        """A screenshot of the applet's window and its words, in reading order."""
        png = self.s.screenshot(label)
        return png, self.more(png, [], crop, ways)

    def more(self, png, words, crop=None, ways=MORE):
        """words, with what other ways of reading png find besides."""
        words = list(words)
        for scale, bw in ways:
            for w in ocr_words(png, crop or self.view, scale=scale, threshold=bw):
                if not any(w[0] == v[0] and abs(w[1] - v[1]) < 8 and abs(w[2] - v[2]) < 6 for v in words):
                    words.append(w)
        return reading_order(words)

    def read_until(self, label, ok):
        """read(label), at a second scale too when ok(words) does not hold at the first; (png, words) or None."""
        png, words = self.read(label)
        if not ok(words):
            words = self.more(png, words)
        return (png, words) if ok(words) else None

    def shows(self, label, *patterns, timeout=SHOW):
        return wait_for(f'the applet showing {patterns}', lambda: self.read_until(
            label, lambda words: all(re.search(p, text_of(words)) for p in patterns)), timeout=timeout, interval=0.3)

    def row_button(self, words, title, button):
        """The button `button` in the row of the alarm titled `title` (below the title, within 70 px)."""
        t = find_word(words, f'^{title}$')
        if not t:
            return None
        return next((w for w in words if w[0] == button and t[2] < w[2] < t[2] + 70), None)

    def click_word(self, w):
        self.s.click(w[1] + w[3] // 2, w[2] + w[4] // 2)

    def click_row_button(self, label, title, button):
        png, words = wait_for(f'{button} in the row of {title}', lambda: self.read_until(
            label, lambda words: self.row_button(words, title, button)), timeout=SHOW, interval=0.3)
        self.click_word(self.row_button(words, title, button))

    def start_windowed(self):
        self.before = self.s.schedule('title', 's', 'Dentist', 'fixed_date', 'x', str(int(time.time()) + 3 * 3600 + 120))
        self.tea = self.s.schedule('title', 's', 'Tea', 'duration', 's', '25m')
        self.win, self.win_pid, self.wid = self.open_windowed()
        png, words = self.shows('windowed-start', r'\bTea\b', r'\bDentist\b', timeout=30)
        log(f'plasmawindowed shows the list {time.monotonic() - self.t_windowed:.1f}s after start')
        print(f'    {text_of(words)!r}')
        conns = self.s.connections_of(self.win_pid)
        if not conns:
            raise Fail('plasmawindowed has no bus connection')
        self.applet_conns = conns

    def open_windowed(self, extra=None):
        """plasmawindowed with the applet, placed at WIN: (process, pid, window)."""
        self.t_windowed = time.monotonic()
        win = self.s.spawn('plasmawindowed', ['plasmawindowed', APPLET], extra)
        try:
            # Not the one before (a root's session finds it by name, and it may not be gone yet).
            before = getattr(self, 'win_pid', None)
            win_pid = wait_for('plasmawindowed\'s process', lambda: (lambda pid: pid if pid != before else None)(
                self.s.app_pid(win, 'plasmawindowed')), timeout=10)
            wid = wait_for('the plasmawindowed window', lambda: self.s.xdotool('search', '--onlyvisible', '--pid',
                           str(win_pid), check=False).stdout.split(), timeout=30, interval=0.3)[-1]
            # Placed and sized, until the window has that size: a request made while the window is being
            # mapped can be lost (seen in Plasma 6.7, where the window then kept its own 360x352).
            def placed():
                m = re.search(r'Geometry: (\d+)x(\d+)', self.s.xdotool('getwindowgeometry', wid, check=False).stdout)
                if m and (int(m.group(1)), int(m.group(2))) == (WIN[2], WIN[3]):
                    return True
                self.s.xdotool('windowmove', wid, str(WIN[0]), str(WIN[1]))
                self.s.xdotool('windowsize', wid, str(WIN[2]), str(WIN[3]))
                return False
            wait_for(f'the window sized {WIN[2]}x{WIN[3]}', placed, timeout=15, interval=0.5)
        except Fail:
            # No window left behind to stand over what the next checks read.
            self.s.stop('plasmawindowed', win)
            raise
        return win, win_pid, wid

    def listed_after(self):
        self.soup = self.s.schedule('title', 's', 'Soup', 'duration', 's', '10m')
        png, words = self.shows('soup-added', r'\bSoup\b', r'\bTea\b', r'\bDentist\b')
        for want in (r'\bPause\b', r'\bCancel\b', r'\bNew\b', r'25\s*min'):
            if not re.search(want, text_of(words)):
                raise Fail(f'the popup does not show {want!r}: {text_of(words)!r}')

    def _tea_left(self, words):
        t = find_word(words, r'^Tea$')
        if not t:
            return None
        left = next((w for w in words if re.match(COUNTDOWN, w[0]) and abs(w[2] - t[2]) < 10), None)
        return left[0] if left else None

    def ticking(self):
        first = wait_for('Tea\'s time left', lambda: self._tea_left(self.read('tea-left')[1]), timeout=SHOW, interval=0.3)
        if not re.match(r'^(25:00|24:[0-5]\d)$', first):
            raise Fail(f'Tea shows {first}, expected about 25:00')
        second = wait_for('Tea\'s time left to change', lambda: (lambda c: c if c and c != first else None)(
            self._tea_left(self.read('tea-left-later')[1])), timeout=SHOW, interval=0.3)
        print(f'    read {first}, then {second}')

    def pause_resume_cancel(self):
        self.click_row_button('soup-pause', 'Soup', 'Pause')
        wait_for('Soup paused after Pause (busctl)', lambda: self.s.alarm_prop(self.soup, 'State') == 'paused', timeout=10)
        png, words = self.shows('soup-paused', r'Paused')
        self.click_row_button('soup-resume', 'Soup', 'Resume')
        wait_for('Soup counting down after Resume (busctl)', lambda: self.s.alarm_prop(self.soup, 'State') == 'countdown',
                 timeout=5)
        self.click_row_button('soup-cancel', 'Soup', 'Cancel')
        wait_for('Soup gone after Cancel (busctl)', lambda: self.soup not in [a['Id'] for a in self.s.alarms()], timeout=10)
        wait_for('Soup gone from the list (Tea still there)', lambda: (lambda t: 'Soup' not in t and 'Tea' in t)(
            text_of(self.read('soup-cancelled', ways=Checks.PLAIN + Checks.MORE)[1])), timeout=SHOW, interval=0.3)

    def snooze(self):
        self.pasta = self.s.schedule('title', 's', 'Pasta', 'duration', 'u', '2')
        wait_for('Pasta alerting (busctl)', lambda: self.s.alarm_prop(self.pasta, 'State') == 'alerting', timeout=10,
                 interval=0.2)
        png, words = self.shows('pasta-ringing', r'\bPasta\b', r'Ringing', r'\bSnooze\b', r'\bStop\b')
        self.click_row_button('pasta-snooze', 'Pasta', 'Snooze')
        wait_for('Pasta counting down after Snooze (busctl)', lambda: self.s.alarm_prop(self.pasta, 'State') == 'countdown',
                 timeout=5)
        self.s.call('Cancel', self.pasta)

    def stop(self):
        self.rice = self.s.schedule('title', 's', 'Rice', 'duration', 'u', '2')
        wait_for('Rice alerting (busctl)', lambda: self.s.alarm_prop(self.rice, 'State') == 'alerting', timeout=10,
                 interval=0.2)
        self.click_row_button('rice-stop', 'Rice', 'Stop')
        wait_for('Rice gone after Stop (busctl)', lambda: self.rice not in [a['Id'] for a in self.s.alarms()], timeout=10)
        wait_for('Rice gone from the list', lambda: 'Rice' not in text_of(self.read('rice-stopped', ways=Checks.PLAIN + Checks.MORE)[1]), timeout=SHOW,
                 interval=0.3)

    def quick_and_typed(self):
        before = [a['Id'] for a in self.s.alarms()]
        png, words = self.read('quick')
        one = next((w for i, w in enumerate(words) if w[0] == '1' and i + 1 < len(words)
                    and words[i + 1][0].startswith('min')), None)
        if one is None:
            raise Fail(f'no "1 min" button in {text_of(words)!r}')
        self.click_word(one)
        new = wait_for('a new timer (busctl GetAlarms)', lambda: [a for a in self.s.alarms() if a['Id'] not in before],
                       timeout=5)
        if not (len(new) == 1 and new[0]['Kind'] == 'timer' and new[0]['total'] == 60 and new[0]['title'] == 'Timer'):
            raise Fail(f'expected one 60-second "Timer", got {new}')
        self.s.call('Cancel', new[0]['Id'])
        # The entry's placeholder "Timer… (e.g. …)" is the last "Timer" word (titles and the heading come first).
        entry = [w for w in words if w[0].startswith('Timer')][-1]
        self.click_word(entry)
        self.s.xdotool('type', '5x')
        self.s.xdotool('key', 'Return')
        self.shows('typed-error', r'not a duration')
        before = [a['Id'] for a in self.s.alarms()]
        self.s.xdotool('key', 'BackSpace', 'BackSpace')
        self.s.xdotool('type', '1h30m')
        self.s.xdotool('key', 'Return')
        new = wait_for('a 1h30m timer (busctl GetAlarms)', lambda: [a for a in self.s.alarms() if a['Id'] not in before],
                       timeout=5)
        if not (len(new) == 1 and new[0]['total'] == 5400):
            raise Fail(f'expected one 5400-second timer, got {new}')
        print(f'    "1 min" scheduled a 60 s Timer; "5x" refused with an error line; "1h30m" scheduled {new[0]["Id"]}')
        self.s.call('Cancel', new[0]['Id'])

    def method_calls(self, since, until):
        """Method calls on the bus between two wall-clock times, as (sender, destination, member)."""
        calls = []
        with open(self.s.monitor_log, errors='replace') as f:
            for line in f:
                m = re.match(r'method call time=(\d+\.\d+) sender=(\S+) -> destination=(\S+) .*member=(\S+)', line)
                if m and since <= float(m.group(1)) <= until:
                    calls.append((m.group(2), m.group(3), m.group(4)))
        return calls

    def idle_no_calls(self, label, conns, read_time):
        alarmd_names = {BUS, self.s.name_owner(BUS)}
        # Positive control: the monitor saw the applet's own calls to alarmd before (its first read).
        seen = [c for c in self.method_calls(0, time.time()) if c[0] in conns and c[1] in alarmd_names]
        if not seen:
            raise Fail(f'positive control: the monitor saw no call of the applet ({conns}) to alarmd at all')
        start = time.time()
        first = wait_for('a time shown', lambda: read_time(f'{label}-idle-start'), timeout=SHOW, interval=0.3)
        shown = {first}
        # At least six seconds, and until the time shown has changed twice (a loaded machine reads slowly).
        while time.time() - start < 6 or (len(shown) < 3 and time.time() - start < 30):
            v = read_time(f'{label}-idle')
            if v:
                shown.add(v)
        end = time.time()
        time.sleep(0.5)  # dbus-monitor writes what it saw in the window
        calls = self.method_calls(start, end)
        to_alarmd = [c for c in calls if c[1] in alarmd_names]
        mine = [c for c in calls if c[0] in conns]
        print(f'    {end - start:.1f}s idle: countdown showed {sorted(shown)}; method calls to alarmd: '
              f'{len(to_alarmd)}; from the applet\'s connection {conns}: {len(mine)} {mine[:5]}; '
              f'earlier calls of the applet to alarmd: {sorted(set(c[2] for c in seen))}')
        if len(shown) < 3:
            raise Fail(f'the countdown did not tick during the idle window: {sorted(shown)}')
        if to_alarmd or [c for c in mine if c[1] != 'org.freedesktop.DBus']:
            raise Fail(f'method calls while idle: {to_alarmd + mine}')

    def restart(self):
        # alarmd killed: "not running" with Start, the list emptied. alarmd started again, this time
        # refusing replies over 4 KiB (its test option), so that GetManagedObjects is refused for size
        # and the applet pages with GetAlarmsPage: the list is right again, and the new alarmd's
        # signals arrive.
        # Lamp2…Lamp4: tesseract reads a bold "Lamp1" as "Lampl" in Plasma 6's font.
        lamps = [self.s.schedule('title', 's', f'Lamp{n + 1}', 'subtitle', 's', 'x' * 250, 'fixed_date', 'x',
                                 str(int(time.time()) + (4 + n) * 3600)) for n in range(1, 4)]
        self.shows('lamps', r'\bLamp4\b')
        self.s.stop('alarmd', self.s.alarmd, signal.SIGKILL)
        wait_for('alarmd off the bus', lambda: not self.s.name_owner(BUS), timeout=5)
        png, words = self.shows('not-running', r'not running', r'\bStart\b')
        if find_word(words, r'^Tea$'):
            raise Fail('Tea still listed while alarmd is not running')
        since = time.time()
        self.s.start_alarmd('--max-reply-bytes', '4096')
        png, words = self.shows('restarted', r'\bTea\b', r'\bDentist\b', r'\bLamp2\b', r'\bLamp3\b', r'\bLamp4\b')
        time.sleep(0.3)
        reads = [c[2] for c in self.method_calls(since, time.time()) if c[0] in self.applet_conns
                 and c[2] in ('GetManagedObjects', 'GetAlarmsPage')]
        print(f'    killed, "not running" shown, restarted: {text_of(words)!r}; the applet read with {reads}')
        if reads[:1] != ['GetManagedObjects'] or 'GetAlarmsPage' not in reads:
            raise Fail(f'expected GetManagedObjects refused, then GetAlarmsPage: {reads}')
        kettle = self.s.schedule('title', 's', 'Kettle', 'duration', 'u', '400')
        self.shows('after-restart-new', r'\bKettle\b', r'\bTea\b')
        for id in lamps + [kettle]:
            self.s.call('Cancel', id)
        wait_for('Kettle and the lamps gone', lambda: (lambda t: 'Kettle' not in t and 'Lamp' not in t)(
            text_of(self.read('kettle-gone', ways=Checks.PLAIN + Checks.MORE)[1])), timeout=SHOW, interval=0.3)

    def activation(self):
        old = self.s.name_owner(BUS)
        old_pid = self.s.pid_of(old)
        self.s.stop('alarmd', self.s.alarmd)
        wait_for('alarmd off the bus', lambda: not self.s.name_owner(BUS), timeout=5)
        png, words = self.shows('start-offered', r'not running', r'\bStart\b')
        self.click_word(find_word(words, r'^Start$'))
        new = wait_for('alarmd back through activation', lambda: self.s.name_owner(BUS), timeout=10)
        pid = self.s.pid_of(new)
        cmd = self.s.cmdline(pid)
        if pid == old_pid or '--bus-address' in cmd:
            raise Fail('the alarmd now on the bus is not the activated one')
        self.shows('activated', r'\bTea\b', r'\bDentist\b')
        print(f'    alarmd {old_pid} stopped; "Start alarmd" activated {pid}: {cmd}')

    # --- wake-up alarms: set, listed, changed, off and on, deleted, by clicks and typing -------------
    def wake_alarms(self):
        """The alarms of Kind alarm at a time of day, as GetAlarms gives them."""
        r = self.s.busctl('--json=short', 'call', *MGR, 'GetAlarms')
        out = []
        for d in json.loads(r.stdout)['data'][0]:
            sched = {k: v['data'] for k, v in d['Schedule']['data'].items()}
            if d['Kind']['data'] != 'alarm' or 'hour' not in sched:
                continue
            out.append({'Id': d['Id']['data'], 'State': d['State']['data'], 'Enabled': d['Enabled']['data'],
                        'fire': d['FireTimeUSec']['data'], 'hour': sched['hour'], 'minute': sched['minute'],
                        'weekdays': sched.get('weekdays', []), 'post_alert': d['PostAlert']['data'],
                        'title': d['Presentation']['data'].get('title', {}).get('data', '')})
        return out

    def pair(self, words, first, second):
        """The word `first` followed by `second` on the same line (a two-word button), or None."""
        return next((w for i, w in enumerate(words) if re.search(first, w[0]) and i + 1 < len(words)
                     and re.search(second, words[i + 1][0]) and abs(words[i + 1][2] - w[2]) < 8), None)

    def click_when(self, label, what, find):
        """Clicks what find(words) returns once the screen shows it; the words."""
        png, words = wait_for(what, lambda: (lambda r: r if find(r[1]) else None)(self.read(label)),
                              timeout=SHOW, interval=0.3)
        self.click_word(find(words))
        return words

    def type_into(self, word, text):
        self.click_word(word)
        self.s.xdotool('key', 'ctrl+a')
        self.s.xdotool('type', text)

    def next_day(self, hour, minute, weekdays):
        """The weekday (Mon…) on which hour:minute next comes on one of weekdays, by the session's clock."""
        now = self.s.run(['date', '+%u %H %M']).stdout.split()
        day, hm = int(now[0]) - 1, (int(now[1]), int(now[2]))
        names = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
        for ahead in range(8):
            d = (day + ahead) % 7
            if (not weekdays or ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'][d]
                    in weekdays) and (ahead > 0 or (hour, minute) > hm):
                return names[d]
        raise Fail('no next day')

    def switch_of(self, png, words, title):
        """The centre of the switch on the row of `title`, found by its colour when on, else at its place."""
        t = find_word(words, f'^{title.split()[-1]}$')
        band = (self.view[0] + self.view[2] // 2, t[2] - 6, self.view[2] // 2 - 10, 30)
        pix = pixels(png, band)
        # Breeze's highlight, full (Plasma 5) or light (Plasma 6): blue well above red.
        lit = [i for i, p in enumerate(pix) if p[2] - p[0] > 60 and p[2] > 180]
        return (band[0] + sum(i % band[2] for i in lit) // len(lit), band[1] + sum(i // band[2] for i in lit) // len(lit),
                len(lit)) if lit else None

    def alarm_form(self, hour, minute, h12, weekdays_button, title, label):
        """Fills the open form: the time typed (h12: with AM or PM clicked), Weekdays clicked when asked,
        the title typed; the words of the form before Save."""
        png, words = wait_for('the alarm form', lambda: self.read_until(label, lambda w: find_word(w, '^Save')
                              and find_word(w, '^Weekdays$') and find_word(w, '^Snooze$')), timeout=SHOW, interval=0.3)
        save = find_word(words, '^Save')
        fields = [w for w in words if re.match(r'^\d{1,2}$', w[0]) and w[2] < find_word(words, '^Weekdays$')[2]]
        if len(fields) < 2:
            raise Fail(f'no hour and minute fields in {text_of(words)!r}')
        shown = f'{fields[0][0]}:{fields[1][0]}'
        h = (hour % 12 or 12) if h12 else hour
        self.type_into(fields[0], str(h) if h12 else f'{h:02d}')
        self.type_into(fields[1], f'{minute:02d}')
        if h12:
            self.click_word(find_word(words, r'(^|\W)AM(\W|$)' if hour < 12 else r'(^|\W)PM(\W|$)'))
        if weekdays_button:
            self.click_word(find_word(words, '^Weekdays$'))
        if title is not None:
            # The title field lies between Weekdays and Snooze (its grey placeholder, Alarm, reads badly).
            days, snooze = find_word(words, '^Weekdays$'), find_word(words, '^Snooze$')
            self.type_into(('', days[1] + 10, days[2] + days[4], 0, snooze[2] - days[2] - days[4]), title)
        # In the window, read once the last word typed is drawn (the user guide's picture is this one); the
        # panel's popup is translucent, and over the wallpaper behind it a typed title does not read. What
        # Save sent is alarmd's to say either way.
        last = title.split()[-1] if title else r'\d\d'
        png, words = wait_for('the form filled', lambda: self.read_until(label + '-filled', lambda w: self.view != VIEW
                              or find_word(w, f'^{last}$')), timeout=SHOW, interval=0.3)
        self.form_png = png
        self.click_word(save)
        return shown, words

    def expect_alarm(self, what, **want):
        def one():
            mine = [a for a in self.wake_alarms() if a['title'] == want['title']]
            return mine[0] if len(mine) == 1 and all(mine[0][k] == v for k, v in want.items()) else None
        try:
            return wait_for(what, one, timeout=10, interval=0.3)
        except Fail:
            raise Fail(f'{what}: expected one alarm {want}, alarmd has {self.wake_alarms()}')

    def alarms_by_clicks(self):
        # Dentist, an alarm at a fixed date, would be the next alarm: only Get up is, here.
        self.s.call('Cancel', self.before)
        self.alarm_flow()
        # The user guide's picture (docs/screenshots/plasma6-new-alarm.png is Plasma 6.3's): the form, filled.
        docs = os.path.join(self.s.art, 'plasma-new-alarm.png')
        png, words = self.new_form
        top, bottom = min(w[2] for w in words) - 5, max(w[2] + w[4] for w in words) + 12
        subprocess.run(['convert', png, '-crop', f'{VIEW[2]}x{bottom - top}+{VIEW[0]}+{top}', '+repage',
                        '-strip', '+dither', '-colors', '64', docs], check=True)
        print(f'    for the README and docs/user-guide.md: {os.path.relpath(docs, ROOT)}')

    def clear_wake_alarms(self):
        """None left by a check that failed: each check here counts on its own alarms alone."""
        for a in self.wake_alarms():
            self.s.call('Cancel', a['Id'])

    def alarm_flow(self):
        self.clear_wake_alarms()
        h12 = False
        self.click_when('alarm-new', '"New alarm"', lambda w: self.pair(w, '^New$', '^alarm$'))
        shown, words = self.alarm_form(6, 45, h12, True, 'Get up', 'alarm-form')
        self.new_form = (self.form_png, words)
        print(f'    the form: {text_of(words)!r}')
        a = self.expect_alarm('06:45 Mon–Fri "Get up" (busctl GetAlarms)', title='Get up', hour=6, minute=45,
                              weekdays=WORK_WEEK, post_alert=300, Enabled=True, State='scheduled')
        day = self.next_day(6, 45, WORK_WEEK)
        shown_day = self.s.run(['date', '-d', f'@{a["fire"] // 1000000}', '+%a %H:%M']).stdout.strip()
        if shown_day != f'{day} 06:45':
            raise Fail(f'alarmd rings at {shown_day}, expected {day} 06:45')
        png, words = self.shows('alarm-listed', r'Next alarm: ' + day + r' 06:45', r'\bGet up\b', r'06:45 . Mon.Fri')
        print(f'    alarmd: {a}; the popup: {text_of(words)!r}')
        self.alarm_icon(True)
        # Opened from its row: the form as it was set; to 07:00.
        self.click_word(find_word(words, '^Get$'))
        shown, words = self.alarm_form(7, 0, h12, False, None, 'alarm-edit')
        if shown != '06:45' or not find_word(words, '^Edit$'):
            raise Fail(f'the opened alarm\'s form shows {shown}: {text_of(words)!r}')
        self.expect_alarm('07:00 Mon–Fri "Get up" (busctl)', title='Get up', hour=7, minute=0, weekdays=WORK_WEEK,
                          Enabled=True, Id=a['Id'])
        day = self.next_day(7, 0, WORK_WEEK)
        png, words = self.shows('alarm-changed', r'Next alarm: ' + day + r' 07:00', r'07:00 . Mon.Fri')
        # Off: the heading goes, the row stays, alarmd keeps it; then on again.
        for on in (False, True):
            # Found lit while on; while off, at the same place beside the title (the row may have moved).
            png, words = wait_for('Get up\'s row', lambda: self.read_until('alarm-switch', lambda w: find_word(w, '^up$')),
                                  timeout=SHOW, interval=0.3)
            title_y = find_word(words, '^up$')[2]
            if not on:
                sw = self.switch_of(png, words, 'Get up')
                if not sw:
                    raise Fail('no switch that is on in Get up\'s row')
                dy = sw[1] - title_y
            self.s.click(sw[0], title_y + dy)
            self.expect_alarm(f'Get up switched {"on" if on else "off"} (busctl Enabled)', title='Get up', Enabled=on)
            self.alarm_icon(on)
            if on:
                self.shows('alarm-on', r'Next alarm: ' + day + r' 07:00', r'\bGet up\b')
            else:
                wait_for('the heading gone, the row kept', lambda: (lambda t: 'Next alarm' not in t and 'Get up' in t)(
                         text_of(self.read('alarm-off', ways=Checks.PLAIN + Checks.MORE)[1])), timeout=SHOW, interval=0.3)
                if self.wake_alarms()[0]['fire'] != 0:
                    raise Fail('alarmd has a fire time for the alarm switched off')
        print(f'    off: no heading, Enabled false, FireTimeUSec 0; on: "Next alarm: {day} 07:00" again')
        png, words = self.read('alarm-open-to-delete')
        self.click_word(find_word(words, '^Get$'))
        self.click_when('alarm-delete', 'Delete in the form', lambda w: find_word(w, '^Delete'))
        wait_for('Get up gone (busctl)', lambda: not self.wake_alarms(), timeout=10)
        wait_for('Get up and the heading gone from the popup', lambda: (lambda t: 'Get up' not in t and 'Next alarm' not in t
                 and 'Tea' in t)(text_of(self.read('alarm-deleted', ways=Checks.PLAIN + Checks.MORE)[1])), timeout=SHOW,
                 interval=0.3)
        self.alarm_icon(False)

    # The panel's alarm clock: the icon just left of the widget's label (TEA), told by its shape from what
    # stands there without an alarm on (the applet's own icon), whichever way the widget grows.
    def icon_slot(self, label):
        png, words = wait_for('TEA in the panel', lambda: (lambda r: r if self.panel_countdown(r[1], 'TEA') else None)(
            self.panel_read(label)), timeout=SHOW, interval=0.3)
        tea = self.panel_countdown(words, 'TEA')[1]
        box = (tea[1] - 40, self.PANEL[1] + 4, 36, self.PANEL[3] - 8)
        pix = pixels(png, box)
        bg = max(set(pix), key=pix.count)
        return [[max(abs(a - b) for a, b in zip(pix[y * box[2] + x], bg)) > 60 for x in range(box[2])] for y in range(box[3])]

    @staticmethod
    def unlike(a, b):
        """The share of pixels in which two ink masks differ, at the shift (±3 px) where they are most alike."""
        h, w = len(a), len(a[0])
        best = 1.0
        for dy in range(-2, 3):
            for dx in range(-3, 4):
                diff = sum(1 for y in range(3, h - 3) for x in range(4, w - 4) if a[y][x] != b[y + dy][x + dx])
                best = min(best, diff / ((h - 6) * (w - 8)))
        return best

    def alarm_icon(self, on):
        if self.no_alarm_slot is None:
            return
        def slot():
            now = self.icon_slot('panel-alarm-icon')
            d = self.unlike(now, self.no_alarm_slot)
            ink = sum(map(sum, now))
            return (d, ink) if (d > 0.04 and ink > 30) == on else None
        d, ink = wait_for(f'the alarm clock {"in" if on else "gone from"} the panel', slot, timeout=SHOW, interval=0.3)
        print(f'    panel: alarm clock {"shown" if on else "gone"} ({d:.3f} of the slot unlike the applet\'s own icon, {ink} ink pixels)')

    def panel_alarms(self):
        x = self.widget_x()
        self.no_alarm_slot = self.icon_slot('panel-no-alarm')
        self.s.click(x + 10, self.PANEL[1] + self.PANEL[3] // 2)
        wait_for('the popup open', lambda: self.popup_open(self.popup_words('panel-alarm-popup', x)[1]), timeout=SHOW,
                 interval=0.3)
        self.view = self.popup_area(x)
        try:
            self.alarm_flow()
        finally:
            self.view, self.no_alarm_slot = VIEW, None
        self.close_popup(x)

    def alarms_12h(self):
        # The applet reads the clock's form from the locale (LC_TIME): a 12-hour one shows and takes AM/PM.
        self.clear_wake_alarms()
        self.s.stop('plasmawindowed', self.win)
        self.win, self.win_pid, self.wid = self.open_windowed({'LC_TIME': 'en_US.UTF-8'})
        self.click_when('alarm12-new', '"New alarm"', lambda w: self.pair(w, '^New$', '^alarm$'))
        shown, words = self.alarm_form(6, 45, True, False, 'Get up', 'alarm12-form')
        if shown != '7:00' or not (find_word(words, r'(^|\W)AM(\W|$)') and find_word(words, r'(^|\W)PM(\W|$)')):
            raise Fail(f'expected a new alarm at 7:00 with AM and PM: {text_of(words)!r}')
        a = self.expect_alarm('6:45 AM, once, "Get up" (busctl)', title='Get up', hour=6, minute=45, weekdays=[], Enabled=True)
        day = self.next_day(6, 45, [])
        png, words = self.shows('alarm12-listed', r'Next alarm: ' + day + r' 6:45 AM', r'6:45 AM . (Today|Tomorrow)')
        print(f'    set as 6:45 AM (shown {shown} at first); listed: {text_of(words)!r}')
        self.s.call('Cancel', a['Id'])

    def windowed_language(self, locale):
        """The applet in another language: its catalogue found where it is installed, its words read whole."""
        lang, tess, _, _ = LANGUAGES[locale]
        if not tesseract_has(tess):
            raise Fail(f'tesseract cannot read {tess} (scripts/install-plasma-deps installs it)')
        want = [msgstr(lang, 'Alarms and Timers'), msgstr(lang, 'New alarm'), msgstr(lang, 'New timer')]
        self.s.stop('plasmawindowed', self.win)
        self.win, self.win_pid, self.wid = self.open_windowed({'LANG': locale})
        self.last = ''

        def read():
            self.last = ''.join(t for t, _ in read_lines(self.s.screenshot(f'windowed-{lang}'), self.view, tess))
            return all(squeeze(w) in self.last for w in want)
        try:
            wait_for(f'the applet in {locale}', read, timeout=SHOW, interval=0.5)
        except Fail:
            raise Fail(f'{locale}: not all of {want} read: {self.last!r}')
        print(f'    {locale}: {self.last!r}')

    def off_stays_silent(self):
        # Two alarms at one time a few minutes ahead, Lazy switched off by its switch; then alarmd's test
        # clock (--test-clock) is stepped to that time rather than waited for: Wake rings, Lazy does not,
        # in the one step. The clock goes back after, for the checks that follow.
        self.clear_wake_alarms()
        h, m = (int(v) for v in self.s.run(['date', '+%H %M']).stdout.split())
        hour, minute = divmod((h * 60 + m + 3) % 1440, 60)
        ids = {title: self.s.schedule('title', 's', title, 'hour', 'u', str(hour), 'minute', 'u', str(minute))
               for title in ('Wake', 'Lazy')}
        try:
            png, words = wait_for('Lazy\'s row', lambda: self.read_until('silent-switch', lambda w: find_word(w, '^Lazy$')),
                                  timeout=SHOW, interval=0.3)
            sw = self.switch_of(png, words, 'Lazy')
            if not sw:
                raise Fail('no switch that is on in Lazy\'s row')
            self.s.click(sw[0], sw[1])
            self.expect_alarm('Lazy switched off (busctl Enabled)', title='Lazy', Enabled=False)
            fire = int(self.s.alarm_prop(ids['Wake'], 'FireTimeUSec'))
            self.s.busctl('call', BUS, '/org/alarmd/TestClock1', 'org.alarmd.TestClock1', 'SetTime', 't', str(fire + 1_000_000))
            wait_for(f'Wake ringing at {hour:02d}:{minute:02d}, alarmd\'s clock stepped there (busctl)',
                     lambda: self.s.alarm_prop(ids['Wake'], 'State') == 'alerting', timeout=10, interval=0.2)
            # The same instant: Lazy, off, was due with Wake and stays silent.
            lazy = [a for a in self.wake_alarms() if a['title'] == 'Lazy']
            png, words = self.shows('silent-wake-rings', r'\bWake\b', r'\bLazy\b', r'\bStop\b')
            if lazy != [dict(lazy[0], State='scheduled', Enabled=False, fire=0)]:
                raise Fail(f'Lazy, switched off, is {lazy}')
            if not self.row_button(words, 'Wake', 'Stop') or self.row_button(words, 'Lazy', 'Stop'):
                raise Fail(f'expected Stop on Wake\'s row only: {text_of(words)!r}')
            print(f'    Wake rang at {hour:02d}:{minute:02d}; Lazy, off: {lazy[0]["State"]}, '
                  f'FireTimeUSec {lazy[0]["fire"]}; the popup: {text_of(words)!r}')
        finally:
            # Neither may stay: Wake would be the next alarm of the checks after this one.
            for id in ids.values():
                self.s.busctl('call', *MGR, 'Cancel', 's', id, check=False)
            self.s.busctl('call', BUS, '/org/alarmd/TestClock1', 'org.alarmd.TestClock1', 'SetTime', 't',
                          str(int(time.time() * 1_000_000)), check=False)

    def windowed(self):
        if not self.check('plasmawindowed: lists an alarm and a timer that existed before start', self.start_windowed):
            return
        self.check('plasmawindowed: lists an alarm added afterwards, with its buttons', self.listed_after)
        self.check('plasmawindowed: the countdown ticks', self.ticking)
        self.check('plasmawindowed: idle: countdown ticks, no method call to alarmd',
                   lambda: self.idle_no_calls('windowed', self.applet_conns,
                                              lambda label: self._tea_left(self.read(label, TOP)[1])))
        self.check('plasmawindowed: Pause, Resume, Cancel clicks act', self.pause_resume_cancel)
        self.check('plasmawindowed: a ringing alarm shows; Snooze acts', self.snooze)
        self.check('plasmawindowed: Stop acts', self.stop)
        self.check('plasmawindowed: quick timer and typed duration', self.quick_and_typed)
        self.check('plasmawindowed: alarmd killed: not running; restarted: the list again (paged)', self.restart)
        self.check('plasmawindowed: Start alarmd activates it', self.activation)
        self.check('plasmawindowed: a wake-up alarm set by clicks and typing, listed, changed, off and on, deleted',
                   self.alarms_by_clicks)
        self.check('plasmawindowed: an alarm switched off stays silent at its time while one on rings', self.off_stays_silent)
        self.check('plasmawindowed: a 12-hour locale: 6:45 AM shown and set', self.alarms_12h)
        if self.s.version == 5:
            # Plasma 6's suite runs its passes in other languages in the panel (language()).
            self.check('plasmawindowed: in vi_VN.UTF-8 the popup says the applet\'s Vietnamese',
                       lambda: self.windowed_language('vi_VN.UTF-8'))
        self.s.stop('plasmawindowed', self.win)

    # --- plasmashell: the compact view in a real panel -------------------------------------------
    def shell_script(self, script):
        r = self.s.busctl('call', 'org.kde.plasmashell', '/PlasmaShell', 'org.kde.PlasmaShell', 'evaluateScript', 's',
                          script, check=False)
        if r.returncode != 0:
            raise Fail(f'evaluateScript: {r.stderr.strip()}')
        return json.loads(r.stdout.strip()[2:]) if r.stdout.startswith('s ') else r.stdout

    def panel_read(self, label):
        """The panel's words (it sits at the bottom of the screen), and the screenshot."""
        png = self.s.screenshot(label)
        dark = sum(sum(p) for p in pixels(png, (W // 2, self.PANEL[1] + 2, 40, 4))) / (3 * 160) < 128
        # Three readings: the blue channel (orange text is dark in it), and sharper, larger, with a margin,
        # in grey and in blue (Plasma 6's panel text is small).
        words = merge_words(ocr_words(png, self.PANEL, negate=dark, blue=True),
                            ocr_words(png, self.PANEL, negate=dark, scale=5, lanczos=True, border=40),
                            ocr_words(png, self.PANEL, negate=dark, blue=True, scale=5, lanczos=True, border=40))
        return png, words

    def panel_countdown(self, words, label):
        """The time right of the compact label `label` in the panel ("TEA 24:59"), or None."""
        l = find_word(words, f'^{label}$')
        if not l:
            return None
        t = next((w for w in words if re.match(COUNTDOWN, w[0]) and 0 < w[1] - (l[1] + l[3]) < 30), None)
        return (t[0], l, t) if t else None

    def start_shell(self):
        self.tea2 = self.s.schedule('title', 's', 'Tea', 'duration', 's', '25m', 'compact_label', 's', 'TEA')
        t = time.monotonic()
        self.shell = self.s.start_plasmashell()
        wait_for('plasmashell on the bus', lambda: self.shell.poll() is None and self.s.name_owner('org.kde.plasmashell'),
                 timeout=60, interval=0.3)
        wait_for('a panel (evaluateScript: panels().length)', lambda: re.search(r'[1-9]', str(self.shell_script(
                 'print(panels().length)'))), timeout=60, interval=0.5)
        self.shell_script(f'panels()[0].addWidget("{APPLET}")')
        png, words = wait_for('TEA and its countdown in the panel', lambda: (lambda r: r if self.panel_countdown(r[1], 'TEA')
                              else None)(self.panel_read('panel-start')), timeout=60, interval=0.5)
        log(f'plasmashell panel shows the applet {time.monotonic() - t:.1f}s after start')
        print(f'    panel: {text_of(words)!r}')
        self.shell_pid = wait_for('plasmashell\'s process', lambda: self.s.app_pid(self.shell, 'plasmashell'), timeout=10)
        self.shell_conns = self.s.connections_of(self.shell_pid)

    def panel_ticking(self):
        first = wait_for('TEA\'s time in the panel', lambda: self.panel_countdown(self.panel_read('panel-tea')[1], 'TEA'),
                         timeout=SHOW, interval=0.3)[0]
        if not re.match(r'^(25:00|24:[0-5]\d)$', first):
            raise Fail(f'the panel shows {first}, expected about 25:00')
        second = wait_for('the panel\'s countdown to change', lambda: (lambda c: c[0] if c and c[0] != first else None)(
            self.panel_countdown(self.panel_read('panel-tea-later')[1], 'TEA')), timeout=SHOW, interval=0.3)
        print(f'    read TEA {first}, then TEA {second}')

    def _label_box(self, words, label):
        l = find_word(words, f'^{label}$')
        c = self.panel_countdown(words, label)
        x1 = (c[2][1] + c[2][3]) if c else l[1] + l[3]
        return (l[1] - 2, self.PANEL[1] + 4, x1 - l[1] + 4, self.PANEL[3] - 8)

    def panel_warning_ringing(self):
        # 20 s in each phase: room for a slow machine's OCR before the warning and its repaint in it.
        eggs = self.s.schedule('title', 's', 'Eggs', 'duration', 'u', '40', 'warning_threshold', 'u', '20',
                               'compact_label', 's', 'BOIL')
        try:
            self._panel_warning_ringing(eggs)
        except BaseException:
            # Left ringing, Eggs would hold the panel and fail every check after this one.
            try:
                self.s.call('Cancel', eggs)
            except Exception as e:
                log(f'Eggs not cancelled: {e}')
            raise

    def _panel_warning_ringing(self, eggs):
        png, words = wait_for('BOIL and its countdown in the panel', lambda: (lambda r: r if self.panel_countdown(r[1], 'BOIL')
                              else None)(self.panel_read('panel-eggs')), timeout=SHOW, interval=0.3)
        if self.s.alarm_prop(eggs, 'Phase') != 'normal':
            raise Fail('Eggs left the normal phase too early for the control')
        box = self._label_box(words, 'BOIL')
        normal = count_near(pixels(png, box), ORANGE)
        if normal != 0:
            raise Fail(f'{normal} orange pixels in BOIL\'s label before the warning phase')
        wait_for('Phase warning (busctl)', lambda: self.s.alarm_prop(eggs, 'Phase') == 'warning', timeout=25)
        # The panel repaints after alarmd said so, later on a busy machine: the label turns orange in
        # place (the time's digits only change, so a margin covers its width), still in the warning phase.
        wide = (box[0] - 4, box[1], box[2] + 16, box[3])
        def orange():
            png = self.s.screenshot('panel-eggs-warning')
            n = count_near(pixels(png, wide), ORANGE)
            if n >= 20:
                return png, n
            # The phase over (Eggs rings) ends the wait: orange after it would prove nothing.
            return (None, n) if self.s.alarm_prop(eggs, 'Phase') != 'warning' else None
        png, warning = wait_for('BOIL\'s label orange (warning)', orange, timeout=SHOW, interval=0.3)
        if png is None:
            raise Fail(f'the warning phase ended with {warning} orange pixels in BOIL\'s label')
        words = self.panel_read('panel-eggs-warning')[1]
        if not self.panel_countdown(words, 'BOIL'):
            raise Fail(f'orange in the panel, but not BOIL and its countdown: {text_of(words)!r}')
        print(f'    orange pixels in BOIL\'s label: normal phase {normal}, warning phase {warning}')
        wait_for('Eggs alerting (busctl)', lambda: self.s.alarm_prop(eggs, 'State') == 'alerting', timeout=25, interval=0.2)
        def ringing():
            # The red pill, found by its colour, then read alone as one line: tesseract misses white
            # text on red among the panel's dark-on-light words.
            png = self.s.screenshot('panel-ringing')
            pix = pixels(png, self.PANEL)
            red = [i for i, p in enumerate(pix) if all(abs(a - b) <= 30 for a, b in zip(p, RED))]
            if len(red) < 200:
                return None
            xs, ys = [i % W for i in red], [i // W for i in red]
            box = (min(xs), self.PANEL[1] + min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
            words = ocr_words(png, box, negate=True, threshold=True, psm=7)
            return (png, words, len(red), box) if find_word(words, 'Eggs') else None
        png, words, red, box = wait_for('Eggs titled on red in the panel', ringing, timeout=SHOW, interval=0.3)
        print(f'    ringing: {text_of(words)!r} on {red} red pixels at {box}')
        self.s.call('Stop', eggs)
        wait_for('the panel back on TEA after Stop', lambda: self.panel_countdown(self.panel_read('panel-after-stop')[1], 'TEA')
                 and not find_word(self.panel_read('panel-after-stop')[1], '^Eggs|^BOIL'), timeout=SHOW, interval=0.3)
        # Eggs opened the popup when it began ringing (ring_opens_popup checks that): closed again.
        self.close_popup(self.widget_x())

    def panel_popup(self):
        # Something of every kind for the picture: an alarm later today or this week, a paused timer.
        dentist = self.s.schedule('title', 's', 'Dentist', 'fixed_date', 'x', str(int(time.time()) + 3 * 3600 + 120))
        soup = self.s.schedule('title', 's', 'Soup', 'duration', 's', '10m', 'accent_color', 's', 'green')
        self.s.call('Pause', soup)
        # Soup counts down first (shortest), then is paused: the panel goes back to Tea.
        png, words = wait_for('TEA in the panel again (Soup paused)', lambda: (lambda r: r if self.panel_countdown(r[1], 'TEA')
                              else None)(self.panel_read('panel-before-click')), timeout=SHOW, interval=0.3)
        c = self.panel_countdown(words, 'TEA')
        x = c[1][1]
        # The popup opens above the widget, over the wallpaper: a click counts when that area changes (a
        # click a busy Plasma drops is repeated, at most twice).
        strip = (max(0, min(W - 400, x - 200)), self.PANEL[1] - 200, 400, 8)
        before = pixels(png, strip)
        for attempt in range(3):
            self.s.click(c[1][1] + c[1][3] // 2, c[1][2] + c[1][4] // 2)
            try:
                wait_for('the popup to open', lambda: sum(1 for a, b in zip(before, pixels(self.s.screenshot('panel-popup'),
                         strip)) if a != b) > len(before) // 2, timeout=8, interval=0.3)
                break
            except Fail:
                log(f'the popup did not open after click {attempt + 1}')

        def popup():
            png = self.s.screenshot('panel-popup')
            words = ocr_words(png, self.popup_area(x))
            text = text_of(words)
            return (png, words) if all(re.search(p, text) for p in (r'\bTea\b', r'\bPause\b', r'\bDentist\b',
                                                                     r'\bSoup\b', r'Resume')) else None
        png, words = wait_for('the popup listing Tea, Soup (paused) and Dentist', popup, timeout=SHOW, interval=0.4)
        print(f'    popup: {text_of(words)!r}')
        # The user guide's picture (docs/screenshots/plasma-panel.png is a copy): the popup over the panel.
        top = max(0, min(w[2] for w in words) - 40)
        docs = os.path.join(self.s.art, 'plasma-panel.png')
        x0 = self.popup_area(x)[0]
        subprocess.run(['convert', png, '-crop', f'640x{H - top}+{x0}+{top}', '+repage', '-strip', '+dither',
                        '-colors', '128', docs], check=True)
        print(f'    for the README and docs/user-guide.md: {os.path.relpath(docs, ROOT)}')
        self.close_popup(x)
        for id in (dentist, soup):
            self.s.call('Cancel', id)

    # --- a ringing alarm opens the popup ----------------------------------------------------------
    def popup_area(self, x):
        """Where the popup of the widget at x opens: above the panel, about the widget."""
        return (max(0, min(W - 640, x - 320)), 0, 640, self.PANEL[1])

    def popup_words(self, label, x):
        """The popup's words: those from its heading down (a notification may stand above it)."""
        png = self.s.screenshot(label)
        words = ocr_words(png, self.popup_area(x))
        heading = next((w for i, w in enumerate(words) if w[0] == 'Alarms' and i + 2 < len(words)
                        and words[i + 1][0] == 'and' and words[i + 2][0].startswith('Timers')), None)
        return png, [w for w in words if w[2] >= heading[2] - 2] if heading else words

    def popup_open(self, words):
        """The popup shows its list: its new-timer part is always there."""
        return bool(re.search(r'\bNew timer\b|\b25 min\b', text_of(words)))

    def popup_with(self, label, x, *buttons):
        """(png, words) when the popup is open with each (title, button) on its row, else None."""
        png, words = self.popup_words(label, x)
        ok = self.popup_open(words) and all(self.row_button(words, title, b) for title, b in buttons)
        return (png, words) if ok else None

    def close_popup(self, x):
        """Closes the popup (Escape, else a click on the widget) and waits until it is gone."""
        self.s.xdotool('key', 'Escape')
        try:
            wait_for('the popup to close (Escape)', lambda: not self.popup_open(self.popup_words('popup-closing', x)[1]),
                     timeout=5, interval=0.3)
        except Fail:
            self.s.click(x + 10, self.PANEL[1] + self.PANEL[3] // 2)
            wait_for('the popup to close (a click on the widget)', lambda: not self.popup_open(
                self.popup_words('popup-closing', x)[1]), timeout=SHOW, interval=0.3)

    def widget_x(self):
        """The x of the widget's label in the panel (TEA counts down there)."""
        png, words = wait_for('TEA in the panel', lambda: (lambda r: r if self.panel_countdown(r[1], 'TEA') else None)(
            self.panel_read('panel-tea')), timeout=SHOW, interval=0.3)
        return self.panel_countdown(words, 'TEA')[1][1]

    def ring_opens_popup(self):
        x = self.widget_x()
        png, words = self.popup_words('popup-closed', x)
        if self.popup_open(words):
            raise Fail(f'the popup is open before anything rings: {text_of(words)!r}')
        if hasattr(self.s, 'do_not_disturb'):
            print(f'    Do Not Disturb on: {self.s.do_not_disturb()}')
        bread = self.s.schedule('title', 's', 'Bread', 'duration', 'u', '2')
        wait_for('Bread alerting (busctl)', lambda: self.s.alarm_prop(bread, 'State') == 'alerting', timeout=10,
                 interval=0.2)

        png, words = wait_for('the popup open by itself on Bread, with Stop and Snooze', lambda: self.popup_with(
            'ring-popup', x, ('Bread', 'Stop'), ('Bread', 'Snooze')), timeout=SHOW, interval=0.4)
        print(f'    popup: {text_of(words)!r}')
        if hasattr(self.s, 'lock_alert_runs'):
            # In the same window as the popup that opened: the screen is not locked, no lock-screen alert.
            runs = self.s.lock_alert_runs()
            if runs:
                raise Fail(f'the lock-screen alert ran with the screen unlocked: {runs}')
            print('    the screen unlocked: the lock-screen alert did not run')
        # Once per ringing: closed, the popup stays closed while Bread rings on (the applet redraws every
        # second meanwhile: Tea counts down), until another alarm, Toast, begins to ring. A read counts when
        # Toast was still not ringing after it (busctl).
        self.close_popup(x)
        toast = self.s.schedule('title', 's', 'Toast', 'duration', 'u', '8')
        t0, closed = time.monotonic(), []
        while True:
            png, words = self.popup_words('popup-stays-closed', x)
            if self.s.alarm_prop(toast, 'State') == 'alerting':
                break
            if self.popup_open(words):
                raise Fail(f'the popup opened again while Bread rang on: {text_of(words)!r}')
            closed.append(time.monotonic() - t0)
            if time.monotonic() - t0 > 30:
                raise Fail('Toast did not ring within 30 s')
        if len(closed) < 2 or closed[-1] < 1.5:
            raise Fail(f'too few reads of the closed popup before Toast rang: at {closed}')
        print(f'    closed, the popup stayed closed while Bread rang on ({len(closed)} reads over {closed[-1]:.1f}s)')

        png, words = wait_for('the popup open again on Toast ringing', lambda: self.popup_with(
            'ring-popup-again', x, ('Toast', 'Stop'), ('Bread', 'Stop')), timeout=SHOW, interval=0.4)
        print(f'    Toast rang, the popup opened again: {text_of(words)!r}')
        self.click_word(self.row_button(words, 'Bread', 'Stop'))
        wait_for('Bread gone after Stop in the popup (busctl)', lambda: bread not in [a['Id'] for a in self.s.alarms()],
                 timeout=10)
        if self.s.alarm_prop(toast, 'State') != 'alerting':
            raise Fail('Stop on Bread\'s row stopped Toast too')
        self.s.call('Stop', toast)
        self.close_popup(x)

    def language(self, locale):
        """Plasma and alarmd in another language (issue #36): plasmashell and alarmd started again with
        LANG; a ringing alarm opens the popup, which says the applet's words from its .po (heading, Stop,
        New timer) and alarmd's Snooze, each read whole (not cut off on its button), while alarmd's
        notification above it offers alarmd's Stop and Snooze in that language."""
        lang, tess, stop, snooze = LANGUAGES[locale]
        if not tesseract_has(tess):
            raise Fail(f'tesseract cannot read {tess} (scripts/install-plasma-deps installs it)')
        heading = msgstr(lang, 'Alarms and Timers')
        words = {'the heading': heading, 'the popup\'s Stop': msgstr(lang, 'Stop', '@action:button stop a ringing alarm'),
                 'New timer': msgstr(lang, 'New timer')}
        env = {'LANG': locale}
        # Where the widget is, read while the panel still speaks English (the first pass): in Chinese the
        # panel's font is Noto Sans CJK, whose narrow space joins "TEA 20:43" into one word for tesseract.
        # The popup is then waited for itself (read_ringing).
        if getattr(self, 'widget_at', None) is None:
            # An alarm an earlier check left ringing would stand in the panel where TEA counts down.
            for a in self.s.alarms():
                if a['State'] == 'alerting':
                    self.s.call('Stop', a['Id'])
            self.widget_at = self.widget_x()
        x = self.widget_at
        self.s.restart_alarmd(extra={**env, 'ALARMD_LOCALEDIR': self.s.alarmd_localedir})
        self.shell = self.s.relaunch_plasmashell(self.shell, env)
        wait_for('plasmashell on the bus', lambda: self.shell.poll() is None and self.s.name_owner('org.kde.plasmashell'),
                 timeout=60, interval=0.3)
        if APPLET not in str(wait_for('a panel', lambda: self.shell_script(
                'print(panels().length ? panels()[0].widgets().map(function (w) { return w.type; }).join(" ") : "")'),
                timeout=60, interval=0.5)):
            self.shell_script(f'panels()[0].addWidget("{APPLET}")')
        bread = self.s.schedule('title', 's', 'Bread', 'duration', 'u', '2')
        try:
            wait_for('Bread alerting (busctl)', lambda: self.s.alarm_prop(bread, 'State') == 'alerting', timeout=10,
                     interval=0.2)
            png, popup, note = self.read_ringing(locale, x, heading, dict(words, **{'alarmd\'s Snooze': snooze}),
                                                 {'alarmd\'s Stop': stop, 'alarmd\'s Snooze': snooze})
        finally:
            self.s.call('Stop', bread)
        print(f'    {locale}: popup {popup!r}; notification {note!r}')
        shutil.copyfile(png, os.path.join(self.s.art, f'plasma6-panel-{lang}.png'))
        self.s.xdotool('key', 'Escape')
        wait_for('the popup to close (Escape)', lambda: squeeze(heading) not in ''.join(
            t for t, _ in read_lines(self.s.screenshot('popup-closing'), self.popup_area(x), tess)), timeout=SHOW, interval=0.3)

    def read_ringing(self, locale, x, heading, want_popup, want_note):
        """The popup (from its heading down) and the notification above it, read in the language until
        each holds its words whole; (png, popup's readings, notification's readings)."""
        tess = LANGUAGES[locale][1]
        area = self.popup_area(x)
        last = (None, [], [])

        def read():
            nonlocal last
            png = self.s.screenshot(f'ring-popup-{LANGUAGES[locale][0]}')
            popup, note = [], []
            for scale, threshold in WAYS:
                lines = read_lines(png, area, tess, scale, threshold)
                top = next((y for t, y in lines if squeeze(heading) in t), None)
                if top is not None:
                    popup.append(''.join(t for t, y in lines if y >= top - 2))
                    note.append(''.join(t for t, y in lines if y < top - 2))
            last = (png, popup, note)
            return all(any(squeeze(w) in r for r in popup) for w in want_popup.values()) and all(
                any(squeeze(w) in r for r in note) for w in want_note.values())
        try:
            wait_for(f'the popup and the notification in {locale}', read, timeout=SHOW * 2, interval=0.5)
        except Fail:
            png, popup, note = last
            missing = [f'{k} {v!r}' for k, v in want_popup.items() if not any(squeeze(v) in r for r in popup)]
            missing += [f'{k} {v!r} in the notification' for k, v in want_note.items()
                        if not any(squeeze(v) in r for r in note)]
            raise Fail(f'{locale}: not read whole: {", ".join(missing)}; popup {popup!r}; above it {note!r}')
        return last

    def lock_hook(self):
        self.widget_x()  # the panel is there, TEA counting down
        print(f'    {self.s.lock_screen()}')
        self.s.screenshot('locked')
        runs = {}
        for title in ('Muffin', 'Cookie'):
            id = self.s.schedule('title', 's', title, 'duration', 'u', '2')
            wait_for(f'{title} alerting (busctl)', lambda: self.s.alarm_prop(id, 'State') == 'alerting', timeout=10,
                     interval=0.2)
            want = f'--alarm {id}'
            wait_for(f'the lock-screen alert started for {title} ({want})', lambda: want in self.s.lock_alert_runs(),
                     timeout=SHOW, interval=0.2)
            runs[title] = (id, want)
        # Muffin kept ringing while Cookie began and the applet redrew every second (TEA counts down):
        # once per alarm and episode.
        seen = self.s.lock_alert_runs()
        print(f'    the stand-in ran: {seen}')
        for title, (id, want) in runs.items():
            if seen.count(want) != 1:
                raise Fail(f'the lock-screen alert ran {seen.count(want)} times for {title}: {seen}')
            self.s.call('Stop', id)
        self.s.screenshot('locked-after')

    def shell(self):
        if not self.check('plasmashell: the applet in a real panel shows the soonest countdown with its label',
                          self.start_shell):
            return
        self.check('plasmashell: the panel\'s countdown ticks', self.panel_ticking)
        self.check('plasmashell: idle: the panel ticks, no method call to alarmd',
                   lambda: self.idle_no_calls('panel', self.shell_conns,
                                              lambda label: (self.panel_countdown(self.panel_read(label)[1], 'TEA') or [None])[0]))
        self.check('plasmashell: warning phase in the accent colour, ringing title on red', self.panel_warning_ringing)
        self.check('plasmashell: a click opens the popup with the list', self.panel_popup)
        self.check('plasmashell: a wake-up alarm by clicks in the popup: the panel\'s alarm clock and "Next alarm" '
                   'follow it', self.panel_alarms)
        dnd = ', Do Not Disturb on' if hasattr(self.s, 'do_not_disturb') else ''
        self.check(f'plasmashell: a ringing alarm opens the popup{dnd}: title, Stop and Snooze; once per ringing; '
                   'Stop acts', self.ring_opens_popup)
        if hasattr(self.s, 'relaunch_plasmashell'):
            for locale in LANGUAGES:
                self.check(f'{locale}: the popup of a ringing alarm in {locale}, alarmd\'s notification\'s Stop and '
                           'Snooze too, whole on their buttons', lambda: self.language(locale))
            # Back to the session's language for what follows.
            try:
                self.s.restart_alarmd()
            except Fail as e:
                log(f'alarmd not restarted: {e}')
        if hasattr(self.s, 'lock_screen'):
            self.check('plasmashell: screen locked, a ringing alarm starts the lock-screen alert once (--alarm ID)',
                       self.lock_hook)

    def all(self):
        self.check('translation template is current', self.pot_current)
        if os.environ.get('PLASMA_TEST_ONLY') == 'alarms':
            if self.check('plasmawindowed: lists an alarm and a timer that existed before start', self.start_windowed):
                self.check('plasmawindowed: a wake-up alarm by clicks', self.alarms_by_clicks)
                self.check('plasmawindowed: off stays silent', self.off_stays_silent)
                self.check('plasmawindowed: 12-hour', self.alarms_12h)
            return self.results
        if os.environ.get('PLASMA_TEST_ONLY') != 'shell':
            self.windowed()
        for a in self.s.alarms():
            self.s.call('Cancel', a['Id'])
        self.shell()
        return self.results
