# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The languages the Plasma suites run a pass in (issue #36): what the screen must say, read by tesseract
in that language.

The applet's own words come from its .po files (applets/plasma/po), so a translation that changes changes
what the checks look for. The buttons alarmd puts on a ringing alarm (its Presentation's stop_button and
secondary_button, which the popup, the notification and the lock-screen alert show) come from alarmd's
own domain, in the language alarmd runs in: its glossary is written here.

alarmd finds its catalogue through ALARMD_LOCALEDIR (LL/LC_MESSAGES/alarmd.mo): the suites compile the
checkout's po/LL.po into the root (install_alarmd_catalogue), or copy the environment's ALARMD_LOCALEDIR.
"""
import json
import os
import re
import shutil
import subprocess
import unicodedata

from screen import tesseract

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
PO = os.path.join(ROOT, 'applets', 'plasma', 'po')
# Where alarmd's catalogue is put in a root.
ROOT_LOCALEDIR = '/usr/local/share/alarmd-locale'

# locale → (its .po, tesseract's language, alarmd's Stop, alarmd's Snooze)
LANGUAGES = {
    'zh_CN.UTF-8': ('zh_CN', 'chi_sim', '停止', '贪睡'),
    'vi_VN.UTF-8': ('vi', 'vie', 'Dừng', 'Ngủ thêm'),
}


def msgstr(lang, msgid, ctxt=None):
    """The applet's translation of msgid (with its msgctxt) in po/LANG.po."""
    args = ['msggrep', '--no-wrap', '-K', '-e', f'^{re.escape(msgid)}$']
    if ctxt:
        args += ['-J', '-e', f'^{re.escape(ctxt)}$']
    out = subprocess.run(args + [os.path.join(PO, f'{lang}.po')], capture_output=True, text=True, check=True).stdout
    found = re.findall(r'^msgstr (".*")$', out, re.M)
    if not found:
        raise KeyError(f'{lang}.po has no {ctxt or ""}|{msgid}')
    return json.loads(found[-1])  # the .po's C string: its escapes are JSON's here


def squeeze(text):
    """Text as tesseract's words are compared: NFKC (a full-width colon is a colon), without spaces (it
    splits CJK into characters)."""
    return re.sub(r'\s+', '', unicodedata.normalize('NFKC', text))


def read_text(png, crop, tess, negate=False, scale=3, threshold=None):
    """The squeezed text of a region (x, y, w, h) read in tesseract's language `tess` (its models read
    the English titles the tests give the alarms too; adding eng makes chi_sim misread small glyphs)."""
    x0, y0, w, h = crop
    tmp = png[:-4] + f'-{tess}-{x0}-{y0}.png'
    args = ['convert', png, '-crop', f'{w}x{h}+{x0}+{y0}', '+repage', '-resize', f'{scale * 100}%', '-colorspace', 'Gray']
    if negate:
        args.append('-negate')
    if threshold:
        args += ['-threshold', f'{threshold}%']
    subprocess.run(args + [tmp], check=True)
    try:
        return squeeze(tesseract([tmp, '-', '-l', tess, '--psm', '11']))
    finally:
        os.unlink(tmp)


def tesseract_has(tess):
    r = subprocess.run(['tesseract', '--list-langs'], capture_output=True, text=True)
    return tess in r.stdout.split()


# The ways a region is read, (scale, threshold %): CJK glyphs are read right at about one size only
# (Plasma's 10 pt 贪睡 at 3×, in black and white; the alert's 34 px at 2×; a 13 px title bar at 1×), so a
# word counts when one reading has it whole.
WAYS = ((1, None), (2, None), (2, 50), (3, None), (3, 55), (4, 60))


def readings(png, crop, tess, negate=False):
    """read_text of the region in each of WAYS."""
    return [read_text(png, crop, tess, negate, scale, threshold) for scale, threshold in WAYS]


def found(word, texts):
    """word, squeezed, in one of the readings texts."""
    return any(squeeze(word) in t for t in texts)


def read_lines(png, crop, tess, scale=3, threshold=None):
    """The lines tesseract reads in a region, in language `tess`: [(squeezed text, y)], y in screen
    coordinates, top to bottom."""
    x0, y0, w, h = crop
    tmp = png[:-4] + f'-{tess}-lines-{x0}-{y0}.png'
    subprocess.run(['convert', png, '-crop', f'{w}x{h}+{x0}+{y0}', '+repage', '-resize', f'{scale * 100}%',
                    '-colorspace', 'Gray'] + (['-threshold', f'{threshold}%'] if threshold else []) + [tmp], check=True)
    try:
        tsv = tesseract([tmp, '-', '-l', tess, '--psm', '11', 'tsv'])
    finally:
        os.unlink(tmp)
    lines = {}
    for row in tsv.splitlines()[1:]:
        f = row.split('\t')
        if len(f) == 12 and f[11].strip() and float(f[10]) > 0:
            key = (int(f[2]), int(f[3]), int(f[4]))  # block, paragraph, line
            text, top = lines.get(key, ('', 10 ** 6))
            lines[key] = (text + f[11], min(top, y0 + int(f[7]) // scale))
    return sorted(((squeeze(t), y) for t, y in lines.values()), key=lambda l: l[1])


def install_alarmd_catalogue(dest):
    """alarmd's catalogue for the languages here into dest (a root's ROOT_LOCALEDIR, seen from the host):
    the environment's ALARMD_LOCALEDIR copied, else the checkout's po/LL.po compiled. Says what it did."""
    given = os.environ.get('ALARMD_LOCALEDIR')
    if given:
        shutil.copytree(given, dest)
        return f'alarmd\'s catalogue from ALARMD_LOCALEDIR={given}'
    done = []
    for lang, *_ in LANGUAGES.values():
        po = os.path.join(ROOT, 'po', f'{lang}.po')
        if os.path.exists(po):
            os.makedirs(os.path.join(dest, lang, 'LC_MESSAGES'), exist_ok=True)
            # Written by Python: msgfmt cannot open a path through the root's /proc/PID/root for writing.
            mo = subprocess.run(['msgfmt', '-o', '-', po], capture_output=True, check=True).stdout
            with open(os.path.join(dest, lang, 'LC_MESSAGES', 'alarmd.mo'), 'wb') as f:
                f.write(mo)
            done.append(lang)
    return f'alarmd\'s catalogue compiled from po/ for {done}' if done else 'no po/LL.po for alarmd: it speaks English'
