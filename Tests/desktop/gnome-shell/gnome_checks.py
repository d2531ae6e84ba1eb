# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The checks of the GNOME Shell suites, written once: what a user of the extension would notice, read
from screenshots (tesseract) and clicked through Mutter's RemoteDesktop, against the real alarmd.

The suites differ in their session only: Tests/desktop/gnome-shell/run starts GNOME Shell 43 on this
machine, run-root starts GNOME Shell 48 (trixie), 50 (forky), 51 (sid) or 46 (built from source) in a
Debian root. A session gives the checks: art (the screenshots' folder), screenshot(label), send(input command), locked(),
screensaver(method, *args), schedule(...), alarm_prop(id, prop), alarms(), call(method, id),
name_owner(name), pid_of(unique), match_rules(unique), shell_unique, stop_alarmd(), gsettings(*args,
extension=False), set_extension(enabled), unit() (the model's unit checks), regions (screen areas that
differ from the defaults below) and version (43, 46, 48, 50, 51…).
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'Tests', 'lib'))
from screen import CheckRun, Fail, count_near, find_word, log, pixels, recap, tesseract, text_of, wait_for  # noqa: E402,F401  (the suites import them from here)
EXT_UUID = 'alarmd@alarmd.org'
EXT_SRC = os.path.join(ROOT, 'applets', 'gnome-shell', EXT_UUID)
ASSEMBLE = os.path.join(ROOT, 'applets', 'gnome-shell', 'assemble')
# The extension's gettext domain (its metadata.json's gettext-domain; the daemon's own is alarmd).
DOMAIN = 'gnome-shell-extension-alarmd'
BUS = 'org.alarmd.AlarmManager1'
MGR = [BUS, '/org/alarmd/AlarmManager1', BUS]
W, H = 1280, 800
WORKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday']


def install_icons(data_home):
    """alarmd's symbolic icons (data/icons) in the user's XDG_DATA_HOME, as the package puts them
    system-wide: the extension shows alarmd-alarm-symbolic while an alarm is on. Only those: the coloured
    ones would change how GNOME's lock-screen list draws alarmd's notifications, which the lock checks read."""
    sub = os.path.join('hicolor', 'symbolic')
    shutil.copytree(os.path.join(ROOT, 'data', 'icons', sub), os.path.join(data_home, 'icons', sub), dirs_exist_ok=True)


# --- reading the screen ----------------------------------------------------------------------
def ocr_words(png, crop, scale=3, negate=True, threshold=True, min_conf=0, lang=None):
    """tesseract word boxes of a region (x, y, w, h): [(text, x, y, w, h)] in screen coordinates, of words
    read with a confidence above min_conf (tesseract gives some well-read words 0, e.g. "Wed 01:14" after the
    alarm icon; -1 marks rows that are no words). lang: tesseract's language (eng when None; chi_sim, vie)."""
    x0, y0, w, h = crop
    tmp = png[:-4] + f'-ocr-{x0}-{y0}.png'
    args = ['convert', png, '-crop', f'{w}x{h}+{x0}+{y0}', '+repage', '-resize', f'{scale * 100}%',
            '-colorspace', 'Gray']
    if negate:
        # Light text on dark (the bar, the menu) or on red (a ringing alarm) → black on white.
        args.append('-negate')
    if threshold:
        args += ['-threshold', '50%']
    subprocess.run(args + [tmp], check=True)
    try:
        out = tesseract([tmp, '-', '--psm', '11'] + (['-l', lang] if lang else []) + ['tsv'])
    finally:
        os.unlink(tmp)
    words = []
    for line in out.splitlines()[1:]:
        f = line.split('\t')
        if len(f) == 12 and f[11].strip() and float(f[10]) > min_conf:
            words.append((f[11].strip(), x0 + int(f[6]) // scale, y0 + int(f[7]) // scale,
                          int(f[8]) // scale, int(f[9]) // scale))
    return words


def line_text(png, word, area, scale=3):
    """The text of the line of `word` (a box from ocr_words) across `area`'s width, read as one line of
    text (tesseract --psm 7), which keeps the short words a sparse reading of a whole area may drop."""
    x0, _, w, _ = area
    y, h = word[2] - 6, word[4] + 12
    tmp = png[:-4] + f'-line-{y}.png'
    subprocess.run(['convert', png, '-crop', f'{w}x{h}+{x0}+{y}', '+repage', '-resize', f'{scale * 100}%',
                    '-colorspace', 'Gray', '-negate', tmp], check=True)
    try:
        return tesseract([tmp, '-', '--psm', '7']).strip()
    finally:
        os.unlink(tmp)


def bar_words(png):
    return ocr_words(png, (0, 0, W, 32))


def brightness(png):
    """The mean brightness of the whole screen, 0 (black) … 1 (white)."""
    r = subprocess.run(['convert', png, '-colorspace', 'Gray', '-format', '%[fx:mean]', 'info:'], capture_output=True,
                       text=True, check=True)
    return float(r.stdout.strip())


def shell_version(text):
    """The major version of `gnome-shell --version`'s answer ("GNOME Shell 48.7" → 48)."""
    m = re.search(r'GNOME Shell (\d+)', text)
    if not m:
        raise Fail(f'not a GNOME Shell version: {text!r}')
    return int(m.group(1))


def variant_of(major):
    """The extension's variant a GNOME Shell of that major version loads, as assemble maps it."""
    return subprocess.run([ASSEMBLE, '--variant', str(major)], capture_output=True, text=True,
                          check=True).stdout.strip()


def unlisted(found, suite):
    """None when the extension lists the GNOME Shell `found` ("GNOME Shell 51.0") in the metadata.json of
    the variant that Shell loads; else the one line a suite fails with, which says what to do. A moving
    distribution (forky, sid) brings a new Shell without warning: this says so before anything runs,
    where the shell itself would only mark the extension OUT OF DATE."""
    major = shell_version(found)
    variant = variant_of(major)
    meta = os.path.join(EXT_SRC, f'gnome{variant}', 'metadata.json')
    with open(meta) as f:
        listed = json.load(f)['shell-version']
    if str(major) in listed:
        return None
    return (f'{suite}\'s root has {found}, which the extension does not list ({os.path.relpath(meta, ROOT)}: '
            f'{", ".join(listed)}): add "{major}" there, run this suite, and port the extension until it passes '
            f'(docs/HACKING.md, "When a distribution moves")')


COUNTDOWN = r'^\d{1,2}:\d\d$'

# The sessions in other languages than English that the GNOME Shell 48 suite runs a short pass in
# (run-root: LANGUAGES), and what a user must read there: the extension's words (its po/) and the Stop and
# Snooze of alarmd's own notification (the daemon's domain, alarmd), both in the glossary of issue #36.
# `ocr`: tesseract's language data (Debian's tesseract-ocr-chi-sim, tesseract-ocr-vie).
LANGUAGES = {
    'zh_CN.UTF-8': {'ocr': 'chi_sim', 'timer': '定时器', 'alarm': '闹钟', 'pause': '暂停', 'stop': '停止',
                    'snooze': '贪睡'},
    'vi_VN.UTF-8': {'ocr': 'vie', 'timer': 'Hẹn giờ', 'alarm': 'Báo thức', 'pause': 'Tạm dừng', 'stop': 'Dừng',
                    'snooze': 'Ngủ thêm'},
}

# Every text under an actor, as laid out (Eval): each Clutter.Text shown (a label's, a button's: which of
# them St wraps a button's text in changed over the versions), its text, the width it was given and the
# width it asks for, whether Pango cut it ("…"), and its box on the screen.
CUT_SCRIPT = '''(() => {
    const Clutter = imports.gi.Clutter;
    const out = [];
    const walk = a => {
        if (a instanceof Clutter.Text && a.mapped && a.text) {
            const [x, y] = a.get_transformed_position();
            const [w, h] = a.get_transformed_size();
            out.push({text: a.text, given: a.allocation.get_width(), wants: a.get_preferred_width(-1)[1],
                      cut: a.get_layout().is_ellipsized(), box: [x, y, w, h].map(Math.round)});
        }
        a.get_children().forEach(walk);
    };
    walk(ROOT);
    return JSON.stringify(out);
})()'''
SETTINGS_PATH = '/org/gnome/shell/extensions/alarmd/'


# --- the checks ------------------------------------------------------------------------------
IND = (700, 0, 460, 32)       # the right of the top bar, left of the screen-sharing and system icons
MENU = (895, 32, 385, 560)   # where the indicator's menu opens (right of alarmd's own notifications)
ORANGE, RED = (0xff, 0x95, 0x00), (0xff, 0x3b, 0x30)
BLUE = (0x35, 0x84, 0xe4)     # the accent a switch that is on is drawn in (Adwaita's blue)
DETAIL = r'^(Get|Mon.{1,2}Fri)$'  # a word of the second line of the row of the alarm "Get up" (Mon–Fri · Get up)
LOCK = (240, 32, 800, 300)    # above the lock screen's clock: where the extension shows alarms while locked
LOCK_LIST = (400, 560, 480, 240)  # GNOME's own list of notifications at the bottom of the lock screen


class Checks(CheckRun):
    def __init__(self, s):
        super().__init__(s)
        regions = getattr(s, 'regions', {})
        self.IND, self.MENU = regions.get('IND', IND), regions.get('MENU', MENU)
        self.LOCK, self.LOCK_LIST = regions.get('LOCK', LOCK), regions.get('LOCK_LIST', LOCK_LIST)

    def tidy(self):
        # Whatever menu a check left open closes: the next starts clean. Not on the lock screen: there
        # a key press is the user asking to unlock, and raises the password prompt (unlockDialog.js).
        if not self.s.locked():
            self.s.send('key 0xff1b')

    # helpers
    def indicator(self, label, min_conf=0):
        png = self.s.screenshot(label)
        words = ocr_words(png, self.IND, min_conf=min_conf)
        if words:
            # The indicator's right edge stays put (the right box packs from the right): remember it to
            # click the indicator when it shows only its icon.
            self.ind_right = max(w[1] + w[3] for w in words)
        return png, words

    def countdown(self, words):
        w = find_word(words, COUNTDOWN)
        return w[0] if w else None

    def menu_words(self, label):
        png = self.s.screenshot(label)
        # No threshold here: the menu's grey texts (hints, section titles) would break up. Read at two
        # scales: a bold title over a progress bar may be misread at one (the third row's "Soup" at 3×).
        words = ocr_words(png, self.MENU, threshold=False)
        for w in ocr_words(png, self.MENU, threshold=False, scale=4):
            if not any(w[0] == v[0] and abs(w[1] - v[1]) < 8 and abs(w[2] - v[2]) < 6 for v in words):
                words.append(w)
        return png, words

    def click_word(self, w):
        self.s.send(f'click {w[1] + w[3] // 2} {w[2] + w[4] // 2}')

    def open_menu(self, label, expect):
        """Clicks the indicator (found by what it shows) and waits until the menu shows `expect`."""
        _, words = self.indicator(f'{label}-before-click')
        target = find_word(words, COUNTDOWN) or next((w for w in words if len(w[0]) > 2), None)
        if target is not None:
            self.click_word(target)
        elif getattr(self, 'ind_right', None):
            self.s.send(f'click {self.ind_right - 12} 15')
        else:
            raise Fail(f'no indicator text to click: {text_of(words)!r}')
        return wait_for(f'the menu showing {expect!r}', lambda: self._menu_has(label, expect), timeout=8, interval=0.3)

    def _menu_has(self, label, expect):
        png, words = self.menu_words(label)
        return (png, words) if re.search(expect, text_of(words)) else None

    def close_menu(self):
        self.s.send('key 0xff1b')

    def alarm_state(self, id):
        return self.s.alarm_prop(id, 'State')

    def get_alarms(self):
        """GetAlarms as the bus gives it, each alarm a dict of plain values (Schedule's too)."""
        def plain(v):
            if isinstance(v, dict) and set(v) == {'type', 'data'}:
                return plain(v['data'])
            if isinstance(v, dict):
                return {k: plain(x) for k, x in v.items()}
            return v
        r = self.s.busctl('--json=short', 'call', *MGR, 'GetAlarms')
        return [plain(d) for d in json.loads(r.stdout)['data'][0]]

    # 1
    def unit(self):
        r = self.s.unit()
        print('    ' + (r.stdout + r.stderr).strip().replace('\n', '\n    '))
        if r.returncode != 0:
            raise Fail('the model\'s unit checks failed')

    def pot_current(self):
        def msgids(path):
            with open(path, encoding='utf-8') as f:
                return set(re.findall(r'^msgid "(.+)"$', f.read(), re.M))
        # The template made afresh by the one rule that makes it (make gnome-pot), elsewhere.
        pot = os.path.join(ROOT, 'applets', 'gnome-shell', 'po', f'{DOMAIN}.pot')
        tmp = os.path.join(tempfile.mkdtemp(prefix='alarmd-pot-'), f'{DOMAIN}.pot')
        subprocess.run(['make', '-s', '-C', ROOT, 'gnome-pot', f'GNOME_POT={tmp}'], check=True, capture_output=True)
        want, have = msgids(tmp), msgids(pot)
        shutil.rmtree(os.path.dirname(tmp))
        if want != have:
            raise Fail(f'po/{DOMAIN}.pot is stale (make gnome-pot): missing {sorted(want - have)}, '
                       f'extra {sorted(have - want)}')
        print(f'    {len(want)} strings')

    def schema_current(self):
        src = os.path.join(EXT_SRC, 'schemas')
        tmp = tempfile.mkdtemp(prefix='alarmd-schemas-')
        shutil.copy(os.path.join(src, 'org.gnome.shell.extensions.alarmd.gschema.xml'), tmp)
        subprocess.run(['glib-compile-schemas', '--strict', tmp], check=True, capture_output=True)
        with open(os.path.join(tmp, 'gschemas.compiled'), 'rb') as a, open(os.path.join(src, 'gschemas.compiled'), 'rb') as b:
            same = a.read() == b.read()
        shutil.rmtree(tmp)
        if not same:
            raise Fail('schemas/gschemas.compiled is stale: glib-compile-schemas --strict schemas/')

    # 2
    def subscribed(self):
        rules = wait_for('the extension\'s match rules on the shell\'s connection',
                         lambda: [r for r in self.s.match_rules(self.s.shell_unique) if 'org.alarmd' in r], timeout=15)
        for r in rules:
            print(f'    {r}')
        need = ['InterfacesAdded', 'InterfacesRemoved', 'PropertiesChanged', 'AlarmRemoved', 'NameOwnerChanged']
        missing = [n for n in need if not any(n in r for r in rules)]
        if missing:
            raise Fail(f'no match rule for {missing}')

    # 3
    def close_overview(self):
        png = self.s.screenshot('overview')
        before = pixels(png, (300, 2, 200, 4))
        # The panel is transparent over the overview's grey, and black over the desktop.
        if count_near(before, (0, 0, 0), 8) > len(before) // 2:
            if self.s.version >= 45:
                # GNOME Shell 45+ headless starts on the desktop here: nothing to close.
                print('    the desktop shows at start (a black top bar): no overview to close')
                return
            raise Fail('the panel is already black: is the overview really open at start?')
        self.s.send('key 0xff1b')
        wait_for('the overview to close (a black top bar)',
                 lambda: count_near(pixels(self.s.screenshot('desktop'), (300, 2, 200, 4)), (0, 0, 0), 8)
                 > len(before) * 0.9, timeout=8, interval=0.3)

    def idle_then_scheduled(self):
        png, words = self.indicator('idle')
        if words:
            raise Fail(f'text in the panel while nothing is pending: {text_of(words)!r}')
        at = int(time.time()) + 3 * 3600 + 120
        lt, now = time.localtime(at), time.localtime()
        want = time.strftime('%H:%M' if lt.tm_yday == now.tm_yday else '%a %H:%M', lt)
        alarm = self.s.schedule('title', 's', 'Dentist', 'fixed_date', 'x', str(at))

        def shown():
            png, words = self.indicator('scheduled', min_conf=-1)
            if want in text_of(words):
                return png, words
            # At 3x tesseract reads "Mon 00:51" as "Monoo:51" (a weekday shows from 21:00 on): 4x reads it.
            more = ocr_words(png, IND, min_conf=-1, scale=4)
            return (png, more) if want in text_of(more) else None
        png, words = wait_for(f'the next alarm\'s time {want} in the panel', shown, timeout=5, interval=0.3)
        print(f'    idle: no text; scheduled: {text_of(words)!r}')
        self.s.call('Cancel', alarm)
        wait_for('the panel quiet again', lambda: not self.indicator('idle-again')[1], timeout=5, interval=0.3)

    # 4
    def panel_countdown(self):
        self.tea = self.s.schedule('title', 's', 'Tea', 'duration', 's', '25m')
        first = wait_for('a countdown 24:5x or 25:00 in the panel',
                         lambda: self.countdown(self.indicator('tea')[1]), timeout=8, interval=0.3)
        if not re.match(r'^(25:00|24:[0-5]\d)$', first):
            raise Fail(f'the panel shows {first}, expected about 25:00')
        second = wait_for('the countdown to change',
                          lambda: (lambda c: c if c and c != first else None)(self.countdown(self.indicator('tea')[1])),
                          timeout=5, interval=0.3)
        print(f'    read {first}, then {second}')

    # 5
    def warning_colour(self):
        self.eggs = self.s.schedule('title', 's', 'Eggs', 'duration', 'u', '20', 'warning_threshold', 'u', '12',
                                    'compact_label', 's', 'EGG')
        png, words = wait_for('EGG and its countdown in the panel', lambda: (lambda r: r if find_word(r[1], 'EGG')
                              and self.countdown(r[1]) else None)(self.indicator('eggs-normal')), timeout=6, interval=0.3)
        if self.s.alarm_prop(self.eggs, 'Phase') != 'normal':
            raise Fail('Eggs left the normal phase too early for the control')
        box = self._label_box(words)
        normal = count_near(pixels(png, box), ORANGE)
        if normal != 0:
            raise Fail(f'{normal} orange pixels in the label before the warning phase')
        wait_for('Phase warning (busctl)', lambda: self.s.alarm_prop(self.eggs, 'Phase') == 'warning', timeout=12)
        # The shell repaints after alarmd said so, later on a busy machine: wait for the orange, while the
        # phase lasts (orange after it would prove nothing).
        def orange():
            png, words = self.indicator('eggs-warning')
            if not find_word(words, 'EGG'):
                return None
            n = count_near(pixels(png, self._label_box(words)), ORANGE)
            if n >= 30:
                return png, n
            return (None, n) if self.s.alarm_prop(self.eggs, 'Phase') != 'warning' else None
        png, warning = wait_for('EGG in the panel in orange (warning)', orange, timeout=10, interval=0.3)
        if png is None:
            raise Fail(f'the warning phase ended with {warning} orange pixels in the label')
        print(f'    orange pixels in the label: normal phase {normal}, warning phase {warning}')

    def _label_box(self, words):
        label = find_word(words, 'EGG')
        time_ = find_word(words, COUNTDOWN) or label
        x0 = min(label[1], time_[1]) - 2
        x1 = max(label[1] + label[3], time_[1] + time_[3]) + 2
        return (x0, 4, x1 - x0, 24)

    # 6
    def ringing(self):
        wait_for('Eggs alerting (busctl)', lambda: self.alarm_state(self.eggs) == 'alerting', timeout=20, interval=0.2)
        png, words = wait_for('Eggs titled in the panel', lambda: (lambda r: r if find_word(r[1], '^Eggs')
                              else None)(self.indicator('eggs-ringing')), timeout=8, interval=0.3)
        w = find_word(words, '^Eggs')
        red = count_near(pixels(png, (w[1] - 30, 2, w[3] + 50, 28)), RED, 30)
        print(f'    {text_of(words)!r}; red pixels around the title: {red}')
        if red < 200:
            raise Fail('the ringing alarm is not highlighted in red')
        self.s.call('Stop', self.eggs)
        wait_for('the panel back on the Tea countdown', lambda: (lambda ws: re.match(r'^2[45]:\d\d$', self.countdown(ws) or '')
                 and not find_word(ws, 'Eggs|EGG'))(self.indicator('after-stop')[1]), timeout=8, interval=0.3)

    # 7
    def menu_snooze(self):
        self.pasta = self.s.schedule('title', 's', 'Pasta', 'duration', 'u', '2')
        wait_for('Pasta alerting', lambda: self.alarm_state(self.pasta) == 'alerting', timeout=10, interval=0.2)
        png, words = self.open_menu('menu-ringing', r'Snooze')
        text = text_of(words)
        print(f'    menu: {text!r}')
        for want in ('Pasta', 'Tea', 'Ringing', 'Stop', 'Pause', 'Cancel', r'25\s*min'):
            if not re.search(want, text):
                raise Fail(f'the menu does not show {want!r}')
        self.click_word(find_word(words, '^Snooze'))
        wait_for('Pasta in countdown after Snooze (busctl)', lambda: self.alarm_state(self.pasta) == 'countdown',
                 timeout=5)
        self.close_menu()

    # 8
    def menu_stop(self):
        self.rice = self.s.schedule('title', 's', 'Rice', 'duration', 'u', '2')
        wait_for('Rice alerting', lambda: self.alarm_state(self.rice) == 'alerting', timeout=10, interval=0.2)
        png, words = self.open_menu('menu-rice', r'Rice.*Stop')
        self.click_word(find_word(words, '^Stop'))
        wait_for('Rice gone after Stop (busctl GetAlarms)',
                 lambda: self.rice not in [a['Id'] for a in self.s.alarms()], timeout=5)
        self.close_menu()

    def _row_button(self, words, title, button):
        """The button `button` in the menu row of the alarm titled `title` (buttons sit below titles)."""
        t = find_word(words, f'^{title}$')
        if not t:
            return None
        return next((w for w in words if w[0] == button and t[2] < w[2] < t[2] + 60), None)

    def menu_pause_resume_cancel(self):
        soup = self.s.schedule('title', 's', 'Soup', 'duration', 's', '10m')
        png, words = self.open_menu('menu-soup', r'Soup')
        pause = self._row_button(words, 'Soup', 'Pause')
        if not pause:
            raise Fail(f'no Pause in the row of Soup: {text_of(words)!r}')
        self.click_word(pause)
        wait_for('Soup paused after Pause (busctl)', lambda: self.alarm_state(soup) == 'paused', timeout=5)
        png, words = wait_for('Resume in the row of Soup', lambda: (lambda r: r if self._row_button(r[1], 'Soup', 'Resume')
                              else None)(self.menu_words('menu-soup-paused')), timeout=5, interval=0.3)
        if 'Paused' not in text_of(words):
            raise Fail(f'the paused row does not say so: {text_of(words)!r}')
        # The README's picture (docs/screenshots/gnome-shell.png is a copy): the menu open, countdowns running.
        docs = os.path.join(self.s.art, 'gnome-shell-menu.png')
        subprocess.run(['convert', png, '-crop', '720x530+560+0', '+repage', '-strip', '+dither', '-colors', '128', docs], check=True)
        print(f'    for the README: {os.path.relpath(docs, ROOT)}')
        self.click_word(self._row_button(words, 'Soup', 'Resume'))
        wait_for('Soup counting down after Resume (busctl)', lambda: self.alarm_state(soup) == 'countdown', timeout=5)
        png, words = wait_for('Pause back in the row of Soup', lambda: (lambda r: r if self._row_button(r[1], 'Soup', 'Pause')
                              else None)(self.menu_words('menu-soup-resumed')), timeout=5, interval=0.3)
        self.click_word(self._row_button(words, 'Soup', 'Cancel'))
        wait_for('Soup gone after Cancel (busctl GetAlarms)',
                 lambda: soup not in [a['Id'] for a in self.s.alarms()], timeout=5)
        wait_for('Soup gone from the menu (Tea still listed)', lambda: (lambda t: 'Soup' not in t and 'Tea' in t)(
                 text_of(self.menu_words('menu-soup-cancelled')[1])), timeout=5, interval=0.3)

    # 9
    def quick_timer(self):
        before = [a['Id'] for a in self.s.alarms()]
        png, words = self.open_menu('menu-quick', r'25\s*min')
        one = next((w for i, w in enumerate(words) if w[0] == '1' and i + 1 < len(words)
                    and words[i + 1][0].startswith('min')), None)
        if one is None:
            raise Fail(f'no "1 min" button in {text_of(words)!r}')
        self.click_word(one)
        new = wait_for('a new timer (busctl GetAlarms)',
                       lambda: [a for a in self.s.alarms() if a['Id'] not in before], timeout=5)
        print(f'    new: {new}')
        if not (len(new) == 1 and new[0]['Kind'] == 'timer' and new[0]['total'] == 60 and new[0]['title'] == 'Timer'):
            raise Fail(f'expected one 60-second "Timer", got {new}')
        self.quick = new[0]['Id']
        # Done with it: left running it would end first and take the panel from later checks' timers
        # (KET after the restart) and ring in the middle of them.
        self.s.call('Cancel', self.quick)

    # 10
    def timer_entry(self):
        png, words = self.open_menu('menu-entry', r'Timer')
        # The entry's hint "Timer… (e.g. …)" is the last "Timer" in the menu (titles come first).
        entry = [w for w in words if w[0].startswith('Timer')][-1]
        self.click_word(entry)
        self.s.send('type 5x')
        self.s.send('key 0xff0d')
        png, words = wait_for('an error line for "5x"', lambda: self._menu_has('entry-error', r'\bduration\b'),
                              timeout=5, interval=0.3)
        # The whole line, read alone: in the menu's sparse reading tesseract can lose its lone "a" (it
        # does in GNOME Shell 46's font).
        line = line_text(png, find_word(words, r'^duration$'), self.MENU)
        if not re.search(r'5x.{0,2} is not a duration', line):
            raise Fail(f'the error line reads {line!r}, not “5x” is not a duration')
        before = [a['Id'] for a in self.s.alarms()]
        self.s.send('key 0xff08')
        self.s.send('key 0xff08')
        self.s.send('type 1h30m')
        self.s.send('key 0xff0d')
        new = wait_for('a 1h30m timer (busctl GetAlarms)',
                       lambda: [a for a in self.s.alarms() if a['Id'] not in before], timeout=5)
        if not (len(new) == 1 and new[0]['total'] == 5400):
            raise Fail(f'expected one 5400-second timer, got {new}')
        print(f'    "5x" refused with the line {line!r}; "1h30m" scheduled {new[0]["Id"]}')

    # 10b — wake-up alarms: set, changed, switched off and on, deleted through the menu's form
    def _icon_pixels(self, label):
        """How far left of the Tea countdown's right edge the indicator's bright content reaches, in
        pixels: one icon (the quiet one) and the digits without an alarm on, two icons (the alarm clock
        too) with one, about 20 pixels further. Measured from the right edge: tesseract's box for the
        digits sometimes takes in the icon beside them and sometimes not (it changes with the digits
        shown), so its left edge cannot anchor a count. The menu stays closed (an open one lights the
        indicator's background)."""
        png, words = wait_for('the Tea countdown in the panel', lambda: (lambda r: r if self.countdown(r[1]) else None)(
            self.indicator(label)), timeout=8, interval=0.3)
        w = find_word(words, COUNTDOWN)
        right, width = w[1] + w[3], 150
        pix = pixels(png, (right - width, 6, width, 20))
        columns = [i % width for i, p in enumerate(pix) if min(p) > 170]
        return width - min(columns) if columns else 0

    def _session_now(self):
        import datetime
        z = self.s.run(['date', '+%z']).stdout.strip()
        offset = datetime.timedelta(hours=int(z[1:3]), minutes=int(z[3:5])) * (-1 if z[0] == '-' else 1)
        return datetime.datetime.now(datetime.timezone(offset))

    def _next_at(self, hour, minute, days):
        """The next occurrence of hour:minute on one of `days` (0 = Monday) in the session's zone."""
        import datetime
        now = self._session_now()
        for i in range(8):
            t = (now + datetime.timedelta(days=i)).replace(hour=hour, minute=minute, second=0, microsecond=0)
            if t > now and t.weekday() in days:
                return t

    def _wake_alarms(self):
        return [a for a in self.get_alarms() if a['Kind'] == 'alarm']

    def _form(self, label, expect=r'Weekdays'):
        return wait_for(f'the alarm form ({expect!r})', lambda: self._menu_has(label, expect), timeout=5, interval=0.3)

    def _open_new_form(self, label):
        png, words = self.open_menu(f'{label}-menu', r'New alarm')
        new = next((w for i, w in enumerate(words) if w[0] == 'New' and i + 1 < len(words)
                    and words[i + 1][0].startswith('alarm')), None)
        if new is None:
            raise Fail(f'no "New alarm…" in the menu: {text_of(words)!r}')
        self.click_word(new)
        return self._form(f'{label}-form')

    def _days_chosen(self, label, count):
        """Whether at least `count` day buttons of the open form show the accent (chosen): the row above
        "Weekdays", each chosen day a button of some 1,000 accent pixels."""
        got = self._menu_has(label, r'Weekdays')
        w = got and find_word(got[1], '^Weekdays$')
        if not w:
            return False
        x0, y0, width, h = self.MENU[0], w[2] - 50, self.MENU[2], 34
        pix = pixels(got[0], (x0, y0, width, h))
        return sum(1 for p in pix if all(abs(a - b) <= 40 for a, b in zip(p, BLUE))) >= count * 600

    def _time_fields(self, words):
        """Where the hour and the minute fields are: the row above the days, from the form's left edge (the
        stylesheet's sizes), found from "Weekdays" two rows below. OCR does not read digits in framed
        fields reliably: what they hold is checked on the bus."""
        w = find_word(words, '^Weekdays$')
        if not w:
            raise Fail(f'no "Weekdays" in the form: {text_of(words)!r}')
        return (w[1] + 26, w[2] - 77), (w[1] + 113, w[2] - 77)

    def _type_time(self, label, hour, minute, clear=0):
        """Clicks the hour field and types the hour, then the minute field and the minute (after `clear`
        backspaces at the end of each, to replace what a filled-in form holds)."""
        png, words = self._form(f'{label}-time')
        for (x, y), text in zip(self._time_fields(words), (hour, minute)):
            self.s.send(f'click {x} {y}')
            self.s.send('key 0xff57')  # End
            for _ in range(clear):
                self.s.send('key 0xff08')
            self.s.send(f'type {text}')

    def _switch(self, png, word):
        """Where the switch of the row whose second line holds `word` is, when it is on (the accent's
        blue), else None."""
        x0, y0, w, h = self.MENU[0], word[2] - 34, self.MENU[2], word[4] + 38
        pix = pixels(png, (x0, y0, w, h))
        blue = [(x0 + i % w, y0 + i // w) for i, p in enumerate(pix) if all(abs(a - b) <= 40 for a, b in zip(p, BLUE))]
        if len(blue) < 30:
            return None
        return (sum(p[0] for p in blue) // len(blue), sum(p[1] for p in blue) // len(blue))

    def _row_words(self, words, heading_y=None):
        return [w for w in words if heading_y is None or abs(w[2] - heading_y) > 10]

    def alarm_setup(self):
        # Leftovers of the checks before (Pasta snoozed, the typed 1h30m timer) would ring or crowd the
        # menu in the middle of these; Tea keeps counting down for the panel's icon count.
        for a in self.s.alarms():
            if a['Id'] != self.tea:
                self.s.call('Cancel', a['Id'])
        wait_for('only Tea left', lambda: [a['Id'] for a in self.s.alarms()] == [self.tea], timeout=5)
        self.s.gsettings('set', 'org.gnome.desktop.interface', 'clock-format', '24h')
        self.icons_off = self._icon_pixels('alarm-icon-none')
        print(f'    the indicator reaches {self.icons_off} px left of the countdown end with no alarm on')

    def alarm_new(self):
        self._open_new_form('alarm-new')
        self._type_time('alarm-new', '6', '45')
        png, words = self._form('alarm-new-days')
        self.click_word(find_word(words, '^Weekdays$'))
        # The click's effect before the next click: on Shell 46 a second click a few milliseconds after
        # the first (no person clicks that fast) can land before the first was taken.
        wait_for('Monday to Friday chosen in the form', lambda: self._days_chosen('alarm-new-days-chosen', 5),
                 timeout=5, interval=0.3)
        self.click_word(find_word(words, '^Title'))
        self.s.send('type Get up')
        # (An entry with the focus's frame is not read: the title is read back from the bus and the row.)
        png, words = self._form('alarm-new-filled', r'Save')
        docs = os.path.join(self.s.art, 'gnome-shell-alarm-form.png')
        subprocess.run(['convert', png, '-crop', '720x640+560+0', '+repage', '-strip', '+dither', '-colors', '128', docs],
                       check=True)
        print(f'    for the README: {os.path.relpath(docs, ROOT)}')
        self.click_word(find_word(words, '^Save$'))
        alarms = wait_for('an alarm titled Get up (GetAlarms)', lambda: (lambda a: a if a and a[0]['Presentation'].get(
            'title') == 'Get up' else None)(self._wake_alarms()), timeout=5)
        a = alarms[0]
        got = (len(alarms), a['Schedule'].get('hour'), a['Schedule'].get('minute'), a['Schedule'].get('weekdays'),
               a['PostAlert'], a['AppId'])
        print(f'    GetAlarms: {got}')
        if got != (1, 6, 45, WORKDAYS, 300, ''):
            raise Fail(f'expected one alarm at 6:45 Monday to Friday, snooze 300 s, the user\'s own: {got}')
        self.wake = a['Id']

    def alarm_shown(self, time_='06:45', hour=6, minute=45, label='alarm-shown'):
        on = wait_for('the alarm clock beside the countdown', lambda: (lambda n: n if n >= self.icons_off + 14
                      else None)(self._icon_pixels(f'{label}-icon')), timeout=5, interval=0.3)
        day = self._next_at(hour, minute, range(5)).strftime('%a')
        png, words = self.open_menu(label, r'Next alarm')
        heading = line_text(png, find_word(words, '^Next$'), self.MENU)
        rows = text_of(self._row_words(words, find_word(words, '^Next$')[2]))
        print(f'    panel: the indicator reaches {on} px left of the countdown end (none on: {self.icons_off}); heading {heading!r}; '
              f'rows {rows!r}')
        if not re.search(fr'Next alarm: {day} {time_}\b', heading):
            raise Fail(f'the heading reads {heading!r}, not "Next alarm: {day} {time_}"')
        for want in (fr'\b{time_}\b', r'Mon.{1,2}Fri', r'Get up'):
            if not re.search(want, rows):
                raise Fail(f'the alarm\'s row does not show {want!r}: {rows!r}')

    def alarm_change(self):
        png, words = self._menu_has('alarm-change-menu', r'Next alarm') or self.open_menu('alarm-change-menu', r'Next alarm')
        next_y = find_word(words, '^Next$')[2]
        row_time = next(w for w in self._row_words(words, next_y) if w[0] == '06:45')
        self.click_word(row_time)
        png, words = self._form('alarm-change-form', r'Delete')
        print(f'    the form to change it: {text_of(words)!r}')
        self._type_time('alarm-change', '7', '00', clear=2)
        # Days, title and snooze are kept as the form was filled in: the bus shows them unchanged.
        self.click_word(find_word(words, '^Save$'))
        a = wait_for('the alarm at 7:00 (GetAlarms)', lambda: (lambda a: a if a and a[0]['Schedule'].get('hour') == 7
                     else None)(self._wake_alarms()), timeout=5)[0]
        got = (a['Id'], a['Schedule'].get('minute'), a['Schedule'].get('weekdays'), a['Presentation'].get('title'),
               a['PostAlert'])
        if got != (self.wake, 0, WORKDAYS, 'Get up', 300):
            raise Fail(f'expected the same alarm at 7:00 Monday to Friday, Get up, snooze 300 s: {got}')
        self.close_menu()
        self.alarm_shown('07:00', 7, 0, 'alarm-changed')

    def alarm_switch(self):
        png, words = self._menu_has('alarm-switch-menu', r'Next alarm') or self.open_menu('alarm-switch-menu', r'Next alarm')
        get = find_word(words, DETAIL)
        at = self._switch(png, get)
        if not at:
            raise Fail('no switch that is on in the row of Get up')
        self.s.send(f'click {at[0]} {at[1]}')
        wait_for('Enabled false (busctl)', lambda: self.s.alarm_prop(self.wake, 'Enabled') == 'false', timeout=5)
        png, words = wait_for('the heading gone, the row still there', lambda: (lambda r: r if 'Next' not in text_of(r[1])
                              and find_word(r[1], DETAIL) else None)(self.menu_words('alarm-off-menu')), timeout=5,
                              interval=0.3)
        get = find_word(words, DETAIL)
        if self._switch(png, get):
            raise Fail('the switch still shows on')
        fire, state = self.s.alarm_prop(self.wake, 'FireTimeUSec'), self.alarm_state(self.wake)
        self.close_menu()
        off = wait_for('the alarm clock gone from the panel', lambda: (lambda n: n if n <= self.icons_off + 7
                       else None)(self._icon_pixels('alarm-off-icon')), timeout=5, interval=0.3)
        print(f'    off: Enabled false, State {state}, FireTimeUSec {fire}; the indicator reaches {off} px; no heading')
        if (fire, state) != ('0', 'scheduled'):
            raise Fail(f'an alarm switched off should be scheduled with no fire time: {state}, {fire}')
        png, words = self.open_menu('alarm-on-menu', r'Get|Mon.{1,2}Fri')
        get = find_word(words, DETAIL)
        self.s.send(f'click {at[0]} {get[2] - 34 + (get[4] + 38) // 2}')
        wait_for('Enabled true (busctl)', lambda: self.s.alarm_prop(self.wake, 'Enabled') == 'true', timeout=5)
        self.close_menu()
        self.alarm_shown('07:00', 7, 0, 'alarm-on-again')

    def alarm_delete(self):
        png, words = self._menu_has('alarm-delete-menu', r'Next alarm') or self.open_menu('alarm-delete-menu', r'Next alarm')
        next_y = find_word(words, '^Next$')[2]
        self.click_word(next(w for w in self._row_words(words, next_y) if w[0] == '07:00'))
        png, words = self._form('alarm-delete-form', r'Delete')
        self.click_word(find_word(words, '^Delete$'))
        wait_for('no alarm left (GetAlarms)', lambda: not self._wake_alarms(), timeout=5)
        png, words = self.open_menu('alarm-deleted', r'New alarm')
        if re.search(r'Next alarm|Get up', text_of(words)):
            raise Fail(f'the deleted alarm is still in the menu: {text_of(words)!r}')

    def alarm_12h(self):
        self.s.gsettings('set', 'org.gnome.desktop.interface', 'clock-format', '12h')
        try:
            before = [a['Id'] for a in self._wake_alarms()]
            self._open_new_form('alarm-12h')
            self._type_time('alarm-12h', '6', '45')
            # The title field takes the focus (and its frame, which OCR misreads, off the time's fields).
            png, words = self._form('alarm-12h-time')
            self.click_word(find_word(words, '^Title'))
            png, words = self._form('alarm-12h-time', r'\bAM\b')
            self.click_word(find_word(words, '^Save$'))
            a = wait_for('a new alarm (GetAlarms)', lambda: [a for a in self._wake_alarms() if a['Id'] not in before],
                         timeout=5)[0]
            got = (a['Schedule'].get('hour'), a['Schedule'].get('minute'), a['Schedule'].get('weekdays', []),
                   a['Presentation'].get('title'))
            if got != (6, 45, [], 'Alarm'):
                raise Fail(f'expected a one-shot at 6:45 titled Alarm: {got}')
            png, words = self.open_menu('alarm-12h-menu', r'Next alarm')
            heading = line_text(png, find_word(words, '^Next$'), self.MENU)
            rows = text_of(self._row_words(words, find_word(words, '^Next$')[2]))
            print(f'    12h: heading {heading!r}; rows {rows!r}')
            if not (re.search(r'Next alarm: \w+ 6:45 AM\b', heading) and re.search(r'\b6:45 AM\b', rows)):
                raise Fail(f'"6:45 AM" not shown: heading {heading!r}, rows {rows!r}')
            self.s.call('Cancel', a['Id'])
        finally:
            self.s.gsettings('set', 'org.gnome.desktop.interface', 'clock-format', '24h')

    def alarm_off_silent(self):
        # Two alarms at one time a few minutes ahead, Sleep in switched off by its switch; then alarmd's
        # test clock (--test-clock) is stepped to that time rather than waited for: Wake rings, Sleep in
        # does not, in the one step. The clock goes back after, for the checks that follow (a timer's
        # countdown keeps its time left across both steps).
        import datetime
        at = (self._session_now() + datetime.timedelta(minutes=3)).replace(second=0, microsecond=0)
        when = ('hour', 'u', str(at.hour), 'minute', 'u', str(at.minute))
        sleep = self.s.schedule(*when, 'title', 's', 'Sleep in')
        wake = self.s.schedule(*when, 'title', 's', 'Wake')
        try:
            png, words = self.open_menu('alarm-two', r'Sleep in')
            where = self._switch(png, find_word(words, '^Sleep$'))
            if not where:
                raise Fail(f'no switch that is on in the row of Sleep in: {text_of(words)!r}')
            self.s.send(f'click {where[0]} {where[1]}')
            wait_for('Sleep in switched off (busctl)', lambda: self.s.alarm_prop(sleep, 'Enabled') == 'false', timeout=5)
            self.close_menu()
            fire = int(self.s.alarm_prop(wake, 'FireTimeUSec'))
            self._set_alarmd_time(fire + 1_000_000)
            rang = []

            def wake_rings():
                if self.alarm_state(sleep) == 'alerting':
                    rang.append(sleep)
                return self.alarm_state(wake) == 'alerting'
            wait_for(f'Wake ringing at {at:%H:%M} (alarmd\'s clock stepped there)', wake_rings, timeout=5, interval=0.2)
            state, enabled = self.alarm_state(sleep), self.s.alarm_prop(sleep, 'Enabled')
            print(f'    at {at:%H:%M}: Wake alerting; Sleep in {state}, Enabled {enabled}')
            if rang or state != 'scheduled':
                raise Fail(f'Sleep in, switched off, rang with Wake ({state})')
        finally:
            for id in (wake, sleep):
                self.s.call('Cancel', id)
            self._set_alarmd_time(int(time.time() * 1_000_000))

    def _set_alarmd_time(self, usec):
        self.s.busctl('call', BUS, '/org/alarmd/TestClock1', 'org.alarmd.TestClock1', 'SetTime', 't', str(usec))

    def wake_alarms(self):
        # The form's row of days makes the menu wider than the timers' (to the left: its right edge stays):
        # read a wider and taller area while it may be open.
        narrow = self.MENU
        self.MENU = (narrow[0] - 200, narrow[1], narrow[2] + 200, narrow[3] + 160)
        try:
            self._wake_alarms_checks()
        finally:
            self.MENU = narrow

    def _wake_alarms_checks(self):
        for name, fn in (
                ('setup (Tea alone; a 24-hour clock)', self.alarm_setup),
                ('new alarm 06:45 Monday to Friday "Get up", typed and clicked in the form', self.alarm_new),
                ('the panel\'s alarm clock, "Next alarm" and the row', self.alarm_shown),
                ('changed to 07:00 in the form', self.alarm_change),
                ('switched off (no icon, no heading, Enabled false) and on again', self.alarm_switch),
                ('deleted in the form', self.alarm_delete),
                ('a 12-hour clock shows and sets 6:45 AM', self.alarm_12h),
                ('one switched off stays silent while one switched on rings', self.alarm_off_silent)):
            self.check(f'alarms: {name}', fn)

    # 11
    def not_running(self):
        old = self.s.name_owner(BUS)
        old_pid = self.s.pid_of(old)
        self.s.stop_alarmd()
        wait_for('alarmd off the bus', lambda: not self.s.name_owner(BUS), timeout=5)
        png, words = self.open_menu('menu-not-running', r'not running')
        start = find_word(words, '^Start')
        if not start:
            raise Fail(f'no "Start alarmd" item: {text_of(words)!r}')
        self.click_word(start)
        new = wait_for('alarmd back through activation', lambda: self.s.name_owner(BUS), timeout=10)
        pid = self.s.pid_of(new)
        cmd = self.s.cmdline(pid)
        print(f'    alarmd {old_pid} killed; activated {pid}: {cmd}')
        if pid == old_pid or '--bus-address' in cmd:
            raise Fail('the alarmd now on the bus is not the activated one')
        wait_for('the Tea countdown back in the panel', lambda: re.match(r'^\d{1,2}:\d\d$',
                 self.countdown(self.indicator('restarted')[1]) or ''), timeout=8, interval=0.3)
        # Signals from the new alarmd reach the extension too (InterfacesAdded after the restart).
        kettle = self.s.schedule('title', 's', 'Kettle', 'duration', 'u', '40', 'compact_label', 's', 'KET')
        wait_for('the new alarmd\'s timer KET in the panel', lambda: find_word(self.indicator('after-restart-new')[1],
                 '^KET$'), timeout=8, interval=0.3)
        self.s.call('Cancel', kettle)

    # 12
    def disable(self):
        rules = lambda: [r for r in self.s.match_rules(self.s.shell_unique) if 'org.alarmd' in r]
        before = rules()
        if not before:
            raise Fail('positive control: no alarmd match rules while the extension is enabled')
        # Read until one frame shows it, as the checks before do: the digits change every second.
        try:
            wait_for('a countdown in the panel', lambda: self.countdown(self.indicator('before-disable')[1]), timeout=4,
                     interval=0.3)
        except Fail:
            raise Fail('positive control: no countdown in the panel while enabled')
        settings = lambda: [r for r in self.s.match_rules(self.s.shell_unique) if SETTINGS_PATH in r]
        watched = settings()
        self.s.set_extension(False)
        wait_for('no alarmd match rule left on the shell\'s connection', lambda: not rules(), timeout=10)
        if hasattr(self.s, 'gc'):
            # The extension's Gio.Settings: dconf watches its path with a match rule of the shell's connection
            # for as long as the object lives. After disable() and a garbage collection it must be gone.
            if not watched:
                raise Fail('positive control: no dconf watch of the extension\'s settings while enabled')
            self.s.gc()
            wait_for('the dconf watch of the extension\'s settings gone (after a garbage collection)',
                     lambda: self.s.gc() or not settings(), timeout=10, interval=0.5)
            print(f'    settings watch: {watched[0]} → gone after disable()')
        others = self.s.match_rules(self.s.shell_unique)
        if not others:
            raise Fail('the shell connection has no match rules at all: did it go away?')
        png, words = self.indicator('disabled')
        if self.countdown(words):
            raise Fail(f'a countdown is still in the panel: {text_of(words)!r}')
        print(f'    alarmd rules: {len(before)} enabled → 0 disabled (the connection keeps {len(others)} others)')
        self.s.set_extension(True)
        wait_for('the rules back after enable', lambda: len(rules()) == len(before), timeout=10)
        wait_for('the countdown back after enable',
                 lambda: self.countdown(self.indicator('re-enabled')[1]), timeout=8, interval=0.3)

    # GNOME Shell 45 and later: what changed since 43 and could break the extension unseen.
    def _shell_errors(self):
        """The log's error lines that name the extension, and those whose JS stack (the frame lines under
        them) runs through its files: gjs logs an uncaught exception as "JS ERROR: TypeError: …" and
        names the extension in the frames only."""
        with open(self.s.shell_log, errors='replace') as f:
            text = f.read()
        errors, head = [], None
        for line in text.splitlines():
            if re.match(r'^[^\s@]*@(file|resource):///', line):
                if head and EXT_UUID in line and head not in errors:
                    errors.append(head)
                continue
            head = line if re.search(r'error|exception|critical', line, re.I) else None
            if 'alarmd' in line.lower() and re.search(r'error|exception|warning|critical|out of date', line, re.I):
                errors.append(line)
        return errors

    def loads(self):
        info = wait_for('the extension\'s info from the shell', lambda: (lambda i: i if i.get('state') else None)(
            self.s.extension_info()), timeout=10)
        # ExtensionState (misc/extensionUtils.js): ACTIVE 1, INACTIVE 2, ERROR 3, OUT_OF_DATE 4.
        state, error = int(info.get('state', 0)), info.get('error', '')
        print(f'    state {state}, error {error!r}, shell-version {info.get("shell-version")}, '
              f'session-modes {info.get("session-modes")}')
        if state != 1 or error:
            raise Fail(f'the extension is not active: state {state} ({"OUT OF DATE" if state == 4 else ""}), '
                       f'error {error!r}')
        errors = self._shell_errors()
        if errors:
            raise Fail(f'the shell logged for the extension: {errors[:3]}')
        if not self.s.extension_info('alarmd-test@alarmd.org').get('state') == 1:
            raise Fail('positive control: the test helper extension is not active')

    def log_clean(self):
        errors = self._shell_errors()
        if errors:
            raise Fail(f'the shell logged for the extension: {errors[:5]}')

    def lock_unlock_rules(self):
        rules = lambda: [r for r in self.s.match_rules(self.s.shell_unique) if 'org.alarmd' in r or SETTINGS_PATH in r]
        self.s.gc()
        before = sorted(rules())
        disables = int(self.s.eval('global.alarmdTestDisables ?? 0'))
        for round_ in (1, 2):
            self.s.screensaver('Lock')
            wait_for('the session locked', self.s.locked, timeout=10, interval=0.2)
            # The shell disabled the helper, and with it this extension, then enabled this one again.
            wait_for('the helper disabled at lock (and so this extension disabled and enabled again)',
                     lambda: int(self.s.eval('global.alarmdTestDisables ?? 0')) >= disables + round_, timeout=10)
            wait_for('the extension\'s match rules back while locked', lambda: len(rules()) >= len(before), timeout=10)
            self.s.screensaver('SetActive', 'b', 'false')
            wait_for('the session unlocked', lambda: not self.s.locked(), timeout=10, interval=0.2)
            wait_for('the countdown back in the top bar', lambda: self.countdown(self.indicator(f'unlock-{round_}')[1]),
                     timeout=8, interval=0.3)
        self.s.gc()
        after = wait_for('as many match rules as before', lambda: (lambda r: r if len(r) == len(before) else None)(
            sorted(rules())), timeout=10, interval=0.5)
        print(f'    {len(before)} rules before, {len(after)} after two locks '
              f'(the helper disabled {int(self.s.eval("global.alarmdTestDisables ?? 0")) - disables} times)')
        if after != before:
            raise Fail(f'the match rules differ: before {before}, after {after}')

    # 13 — the lock screen (session locked for real: GDM stand-in, org.gnome.ScreenSaver.Lock)
    def _lock_until_black(self, label):
        if not self.s.locked():
            self.s.screensaver('Lock')
        wait_for('the session locked (org.gnome.ScreenSaver.GetActive)', self.s.locked, timeout=10, interval=0.2)
        png = wait_for('the shield faded to black', lambda: (lambda p: p if brightness(p) < 0.01 else None)(
            self._lock_shot(f'{label}-black')), timeout=10, interval=0.3)
        return png

    def _lock_shot(self, label):
        """A screenshot, also kept as test-artifacts/gnome-shell/lock-LABEL.png (the last of that label)."""
        png = self.s.screenshot(f'lock-{label}')
        shutil.copyfile(png, os.path.join(self.s.art, f'lock-{label}.png'))
        return png

    def _lock_read(self, label, crop=None):
        crop = crop or self.LOCK
        png = self._lock_shot(label)
        return png, ocr_words(png, crop)

    def _lock_shows(self, label, *patterns, crop=None):
        def attempt():
            png, words = self._lock_read(label, crop)
            text = text_of(words)
            return (png, words) if all(re.search(p, text) for p in patterns) else None
        return wait_for(f'the lock screen showing {patterns}', attempt, timeout=10, interval=0.4)

    def _ring_soon(self, title, seconds=4):
        at = int(time.time()) + seconds
        return self.s.schedule('title', 's', title, 'fixed_date', 'x', str(at), 'secondary_button', 's', 'Snooze')

    def lock_setup(self):
        for a in self.s.alarms():
            self.s.call('Cancel', a['Id'])
        wait_for('no alarms left', lambda: not self.s.alarms(), timeout=5)
        if self.s.locked():
            raise Fail('the session is locked before the test locked it')

    def lock_ring_lights(self):
        self._lock_until_black('ring')
        self.breakfast = self._ring_soon('Breakfast')
        dark = self._lock_shot('ring-scheduled')
        state = self.alarm_state(self.breakfast)
        if state != 'scheduled' or brightness(dark) >= 0.01:
            raise Fail(f'positive control: expected a black screen while Breakfast is {state}, '
                       f'brightness {brightness(dark):.3f}')
        wait_for('Breakfast alerting (busctl)', lambda: self.alarm_state(self.breakfast) == 'alerting', timeout=10,
                 interval=0.2)
        png, words = self._lock_shows('ringing', r'Breakfast', r'\bStop\b', r'\bSnooze\b')
        print(f'    black ({brightness(dark):.3f}) while scheduled; ringing: brightness {brightness(png):.3f}, '
              f'{text_of(words)!r}')
        if brightness(png) < 0.05:
            raise Fail('the screen is still dark')
        # alarmd's alert is system-scoped (x-gnome-privacy-scope): GNOME's own list names it too.
        _, listed = wait_for('GNOME\'s lock-screen list naming Breakfast', lambda: (lambda r: r if find_word(r[1],
                             'Breakfast') else None)(self._lock_read('ringing-list', self.LOCK_LIST)), timeout=5, interval=0.4)
        print(f'    GNOME\'s list: {text_of(listed)!r}')
        docs = os.path.join(self.s.art, 'gnome-lock-screen.png')
        subprocess.run(['convert', png, '-strip', '+dither', '-colors', '128', docs], check=True)
        print(f'    for docs/user-guide.md: {os.path.relpath(docs, ROOT)}')
        if not self.s.locked():
            raise Fail('the session is no longer locked')

    def lock_stop(self):
        png, words = self._lock_shows('stop-before', r'Breakfast', r'\bStop\b')
        self.click_word(find_word(words, r'^Stop$'))
        wait_for('Breakfast gone after Stop (busctl GetAlarms)',
                 lambda: self.breakfast not in [a['Id'] for a in self.s.alarms()], timeout=5)
        if not self.s.locked():
            raise Fail('Stop unlocked the session')
        wait_for('Breakfast gone from the lock screen', lambda: 'Breakfast' not in text_of(self._lock_read('stopped')[1]),
                 timeout=5, interval=0.4)
        print('    stopped through alarmd; org.gnome.ScreenSaver.GetActive still true')

    def lock_countdown(self):
        self.lock_tea = self.s.schedule('title', 's', 'Tea', 'duration', 's', '25m')
        png, words = self._lock_shows('countdown', r'\bTea\b', r'\b(25:00|24:[0-5]\d)\b')
        first = self.countdown(words)
        png, words = wait_for('the countdown to change on the lock screen', lambda: (lambda r: r if self.countdown(r[1])
                              not in (None, first) else None)(self._lock_read('countdown-later')), timeout=5, interval=0.4)
        if find_word(words, r'^Stop$'):
            raise Fail('a Stop button while nothing rings')
        print(f'    {text_of(words)!r} (read {first}, then {self.countdown(words)})')

    def lock_dnd(self):
        self.s.screensaver('SetActive', 'b', 'false')
        wait_for('the session unlocked', lambda: not self.s.locked(), timeout=10, interval=0.2)
        wait_for('the indicator back in the top bar after unlocking (Tea counting down)',
                 lambda: self.countdown(self.indicator('unlocked')[1]), timeout=8, interval=0.3)
        self.s.gsettings('set', 'org.gnome.desktop.notifications', 'show-banners', 'false')
        try:
            self._lock_until_black('dnd')
            self.omelette = self._ring_soon('Omelette')
            dark = self._lock_shot('dnd-scheduled')
            if self.alarm_state(self.omelette) != 'scheduled' or brightness(dark) >= 0.01:
                raise Fail('positive control: expected a black screen before Omelette rings')
            wait_for('Omelette alerting (busctl)', lambda: self.alarm_state(self.omelette) == 'alerting', timeout=10,
                     interval=0.2)
            png, words = self._lock_shows('dnd-ringing', r'Omelette', r'\bStop\b', r'\bSnooze\b')
            print(f'    Do Not Disturb: black ({brightness(dark):.3f}), then {brightness(png):.3f} '
                  f'with {text_of(words)!r}')
            self.click_word(find_word(words, r'^Snooze$'))
            wait_for('Omelette snoozed (busctl: countdown)', lambda: self.alarm_state(self.omelette) == 'countdown',
                     timeout=5)
            if not self.s.locked():
                raise Fail('Snooze unlocked the session')
        finally:
            self.s.gsettings('reset', 'org.gnome.desktop.notifications', 'show-banners')

    def lock_titles_hidden(self):
        self.s.gsettings('set', 'org.gnome.shell.extensions.alarmd', 'show-titles-when-locked', 'false', extension=True)
        try:
            wait_for('the lock screen without the title Tea', lambda: (lambda t: 'Tea' not in t and self.countdown(
                     self._lock_read('titles-off-countdown')[1]))(text_of(self._lock_read('titles-off-countdown')[1])),
                     timeout=5, interval=0.4)
            porridge = self._ring_soon('Porridge', 2)
            wait_for('Porridge alerting (busctl)', lambda: self.alarm_state(porridge) == 'alerting', timeout=10,
                     interval=0.2)
            png, words = self._lock_shows('titles-off', r'\bStop\b', r'\bSnooze\b', r'\bAlarm\b')
            listed = ocr_words(png, self.LOCK_LIST)
            if find_word(words, 'Porridge|Tea|Omelette') or find_word(listed, 'Porridge|Tea|Omelette'):
                raise Fail(f'a title on the lock screen with show-titles-when-locked off: {text_of(words)!r}, '
                           f'GNOME\'s list: {text_of(listed)!r}')
            if not find_word(listed, 'alarmd'):
                raise Fail(f'positive control: GNOME\'s list does not show alarmd\'s row: {text_of(listed)!r}')
            print(f'    titles off: {text_of(words)!r}; GNOME\'s list: {text_of(listed)!r}')
            self.click_word(find_word(words, r'^Stop$'))
            wait_for('Porridge gone after Stop', lambda: porridge not in [a['Id'] for a in self.s.alarms()], timeout=5)
        finally:
            self.s.gsettings('reset', 'org.gnome.shell.extensions.alarmd', 'show-titles-when-locked', extension=True)

    def lock_screen(self):
        self.check('lock screen: setup (no alarms, unlocked)', self.lock_setup)
        self.check('lock screen: black shield lights for a ringing alarm (title, Stop, Snooze)', self.lock_ring_lights)
        self.check('lock screen: Stop acts and the session stays locked', self.lock_stop)
        self.check('lock screen: a countdown shows its title and time left', self.lock_countdown)
        self.check('lock screen: Do Not Disturb: lights anyway; Snooze acts', self.lock_dnd)
        self.check('lock screen: titles hidden by the setting; Stop, Snooze still there', self.lock_titles_hidden)

    # In another language: a short pass in a session started with LANG set to it (run-root's relaunch):
    # the menu, alarmd's notification and the lock screen, read in that language, nothing cut off.
    def _texts(self, root):
        """The texts under `root` (a JS expression) as laid out: CUT_SCRIPT's items."""
        # Eval answers with the JSON of the script's value, which is JSON text itself.
        return json.loads(json.loads(self.s.eval(CUT_SCRIPT.replace('ROOT', root))))

    def _read_box(self, png, box, lang):
        """What tesseract reads in one text's box, as one line (--psm 7), grey, at 3× and 4×: a short
        Chinese button is misread in a whole area's sparse reading, not alone."""
        x, y, w, h = box
        reads = []
        for scale in (3, 4):
            tmp = png[:-4] + f'-box-{x}-{y}-{scale}.png'
            subprocess.run(['convert', png, '-crop', f'{w + 8}x{h + 8}+{max(0, x - 4)}+{max(0, y - 4)}', '+repage',
                            '-resize', f'{scale * 100}%', '-colorspace', 'Gray', '-negate', tmp], check=True)
            try:
                reads.append(''.join(tesseract([tmp, '-', '--psm', '7', '-l', LANGUAGES[lang]['ocr']]).split()))
            finally:
                os.unlink(tmp)
        return reads

    def _reads_in(self, label, root, what, lang, buttons=(), within=(), timeout=10):
        """The texts under `root` show, in the language, each of `buttons` as a whole text and each of
        `within` inside one, read back by OCR from the screen as they are (each box alone), and none of
        the texts there is cut off: given at least the width it asks for, not ellipsized. Returns the
        screenshot."""
        L = LANGUAGES[lang]
        wants = [(L[k], True) for k in buttons] + [(L[k], False) for k in within]

        def attempt():
            items = self._texts(root)
            found = {}
            for want, whole in wants:
                hit = next((i for i in items if (i['text'] == want if whole else want in i['text'])), None)
                if hit is None:
                    return None
                found[want] = hit
            return items, found
        try:
            items, found = wait_for(f'{[w for w, _ in wants]} in {what}', attempt, timeout=timeout, interval=0.3)
        except Exception:
            raise Fail(f'{what} does not show {[w for w, _ in wants]}: {[i["text"] for i in self._texts(root)]}')
        png = self.s.screenshot(label)
        misread = {}
        for want, hit in found.items():
            plain = ''.join(want.split())
            reads = self._read_box(png, hit['box'], lang)
            if not any(plain in r for r in reads):
                misread[want] = reads
        print(f'    {what}: ' + ', '.join(f'{w!r} at {h["box"]}' for w, h in found.items()) + f'; {len(items)} texts')
        if misread:
            raise Fail(f'{what}: OCR does not read {misread} (screenshot {os.path.basename(png)})')
        cut = [i for i in items if i['cut'] or i['given'] + 0.5 < i['wants']]
        if cut:
            raise Fail(f'text cut off in {what}: {[(i["text"], round(i["given"]), round(i["wants"])) for i in cut]}')
        return png

    def _keep(self, png, name):
        dest = os.path.join(self.s.art, name)
        shutil.copyfile(png, dest)
        print(f'    kept: {os.path.relpath(dest, ROOT)}')

    def language_setup(self, lang):
        for a in self.s.alarms():
            self.s.call('Cancel', a['Id'])
        wait_for('no alarms left', lambda: not self.s.alarms(), timeout=5)
        self.lang_tea = self.s.schedule('title', 's', 'Tea', 'duration', 's', '25m')
        wait_for('the Tea countdown in the panel', lambda: self.countdown(self.indicator(f'{lang}-tea')[1]),
                 timeout=8, interval=0.3)

    def language_notification(self, lang):
        tag = f'{self.s.version}-{lang.split(".")[0]}'
        self.lang_pasta = self.s.schedule('title', 's', 'Pasta', 'duration', 'u', '2')
        wait_for('Pasta alerting (busctl)', lambda: self.alarm_state(self.lang_pasta) == 'alerting', timeout=10,
                 interval=0.2)
        # alarmd's own notification, in its own domain: the daemon's words, not the extension's.
        png = self._reads_in(f'{lang}-notification', 'Main.messageTray', 'the banner', lang, buttons=('stop', 'snooze'))
        self._keep(png, f'gnome-{tag}-notification.png')

    def language_menu(self, lang):
        tag = f'{self.s.version}-{lang.split(".")[0]}'
        if self.alarm_state(self.lang_pasta) != 'alerting':
            raise Fail('positive control: Pasta no longer rings')
        self.open_menu(f'{lang}-menu-open', r'.')
        png = self._reads_in(f'{lang}-menu', 'Main.panel.statusArea.alarmd.menu.box', 'the menu', lang,
                             buttons=('pause', 'stop', 'snooze'), within=('timer', 'alarm'))
        self._keep(png, f'gnome-{tag}-menu.png')
        docs = os.path.join(self.s.art, f'gnome-shell-{tag}.png')
        subprocess.run(['convert', png, '-crop', '720x530+560+0', '+repage', '-strip', '+dither', '-colors', '64', docs],
                       check=True)
        print(f'    for docs/screenshots: {os.path.relpath(docs, ROOT)}')
        self.close_menu()
        self.s.call('Stop', self.lang_pasta)

    def language_lock(self, lang):
        tag = f'{self.s.version}-{lang.split(".")[0]}'
        self._lock_until_black(f'{lang}-lock')
        breakfast = self._ring_soon('Breakfast')
        wait_for('Breakfast alerting (busctl)', lambda: self.alarm_state(breakfast) == 'alerting', timeout=10,
                 interval=0.2)
        wait_for('the lock screen lit', lambda: brightness(self._lock_shot(f'{lang}-lit')) > 0.05, timeout=10,
                 interval=0.3)
        card = ('Main.layoutManager.screenShieldGroup.get_children().map(v => v.get_first_child())'
                '.find(c => c?.has_style_class_name?.("alarmd-lock"))')
        png = self._reads_in(f'{lang}-lock-ringing', card, 'the lock screen\'s card', lang, buttons=('stop', 'snooze'))
        self._keep(png, f'gnome-{tag}-lockscreen.png')
        if not self.s.locked():
            raise Fail('the session is no longer locked')
        self.s.call('Stop', breakfast)
        self.s.screensaver('SetActive', 'b', 'false')
        wait_for('the session unlocked', lambda: not self.s.locked(), timeout=10, interval=0.2)

    def language(self, lang):
        """The pass in `lang`, in a session the suite started in it (LANG)."""
        self.check(f'{lang}: setup (a countdown in the panel)', lambda: self.language_setup(lang))
        self.check(f'{lang}: alarmd\'s notification of a ringing alarm reads Stop and Snooze in it',
                   lambda: self.language_notification(lang))
        self.check(f'{lang}: the menu reads Timer, Alarm, Pause, Stop, Snooze in it; nothing cut off',
                   lambda: self.language_menu(lang))
        self.check(f'{lang}: the lock screen reads Stop and Snooze in it; nothing cut off',
                   lambda: self.language_lock(lang))
        # The session's own log: a translation the shell's String.format cannot fill would throw there.
        self.check(f'{lang}: no error from the extension in the shell\'s log', self.log_clean)

    def all(self):
        if os.environ.get('GNOME_TEST_ONLY') == 'languages':
            self.check('the desktop at start (else: the overview closes with Escape)', self.close_overview)
            return self.results
        if os.environ.get('GNOME_TEST_ONLY') == 'alarms':
            self.check('the desktop at start (else: the overview closes with Escape)', self.close_overview)
            self.tea = self.s.schedule('title', 's', 'Tea', 'duration', 's', '25m')
            self.wake_alarms()
            return self.results
        if os.environ.get('GNOME_TEST_ONLY') == 'lock':
            self.check('overview closes with Escape', self.close_overview)
            self.lock_screen()
            return self.results
        if self.s.version >= 45:
            self.check('extension loads: ACTIVE, not OUT OF DATE, no error in the shell\'s log', self.loads)
        self.check('overview closes with Escape' if self.s.version < 45 else
                   'the desktop at start (else: the overview closes with Escape)', self.close_overview)
        self.check('model unit checks (gjs)', self.unit)
        self.check('translation template is current', self.pot_current)
        self.check('settings schema is compiled and current', self.schema_current)
        self.check('extension subscribes to alarmd signals', self.subscribed)
        self.check('panel: quiet icon, then the next alarm\'s time', self.idle_then_scheduled)
        self.check('panel: countdown of a busctl timer, ticking', self.panel_countdown)
        self.check('panel: warning phase in the accent colour', self.warning_colour)
        self.check('panel: ringing title highlighted; back after Stop', self.ringing)
        self.check('menu: lists alarms; Snooze acts', self.menu_snooze)
        self.check('menu: Stop acts', self.menu_stop)
        self.check('menu: quick timer', self.quick_timer)
        self.check('menu: Pause, Resume, Cancel act', self.menu_pause_resume_cancel)
        self.check('menu: typed duration (error line, then a timer)', self.timer_entry)
        self.wake_alarms()
        self.check('not running line; Start alarmd activates it', self.not_running)
        self.check('disable leaves no alarmd match rule; enable restores', self.disable)
        if self.s.version >= 45:
            self.check('lock and unlock twice (the shell disables and re-enables it): no extra match rules',
                       self.lock_unlock_rules)
        self.lock_screen()
        if self.s.version >= 45:
            self.check('no error from the extension in the shell\'s log after all checks', self.log_clean)
        return self.results
