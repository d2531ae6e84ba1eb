// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later

// What the alarmd indicator shows, computed from alarmd's properties and the clock alone.
// Pure functions (GLib only): both extensions (gnome43/, gnome45/) draw them, Tests/desktop/gnome-shell/
// unit.js checks them with plain gjs. Written against docs/API.md's applet rule and the panel rule of docs/user-guide.md.
// An ES module, as GNOME Shell 45 and later load extensions; `make` derives GNOME Shell 43's legacy
// form from it (applets/gnome-shell/assemble): so only the forms of import and export that
// assemble knows are written here (`import X from 'gi://X';`, `export function|const|class`).

import GLib from 'gi://GLib';

const USEC = 1000000;

/**
 * gettext's three functions as ui.js passes them in, bound to the extension's domain (shell.js); these
 * leave every text as written, in English, as the shared cases (Tests/cases/client-rules.json) are.
 */
export const UNTRANSLATED = {
    _: s => s,
    C_: (context, s) => s,
    ngettext: (one, many, n) => n === 1 ? one : many,
};

/**
 * A translated text's placeholders filled in: `%s` and `%d` in order, or `%1$s`, `%2$s` by position,
 * which a translator may reorder (as GJS's String.prototype.format does, which the shell has and plain
 * gjs, running the model's checks, has not).
 *
 * @param {string} template - the text, translated
 * @param {...*} args - the values, in the order of the English text
 * @returns {string}
 */
export function fill(template, ...args) {
    let next = 0;
    return template.replace(/%(?:([1-9])\$)?([sd%])/g, (all, position, kind) => {
        if (kind === '%')
            return '%';
        const v = args[position ? Number(position) - 1 : next++];
        return kind === 'd' ? String(Math.trunc(Number(v))) : String(v);
    });
}

/** The longest timer alarmd accepts: five years of 365.25 days, in seconds. */
export const DURATION_MAX = 157788000;

function isDigits(s) {
    return /^[0-9]+$/.test(s);
}

function bounded(digits, unit, allowZero) {
    // More than 12 digits is beyond five years in any unit: refuse before any rounding.
    if (digits.length > 12)
        return {error: 'tooLong'};
    const seconds = Number(digits) * unit;
    if (seconds > DURATION_MAX)
        return {error: 'tooLong'};
    if (seconds === 0 && !allowZero)
        return {error: 'zero'};
    return {seconds};
}

/**
 * alarmctl's duration grammar: plain seconds ("1500") or unit groups d, h, m, s in descending
 * order, each at most once ("30s", "5m", "1h30m", "1d12h"); never zero, at most DURATION_MAX.
 * Surrounding spaces and tabs are ignored.
 *
 * @param {string} text - what the user typed
 * @returns {{seconds: number}|{error: string}} error is one of empty, malformed, zero, tooLong
 */
export function parseDuration(text) {
    const s = String(text).replace(/^[\t\p{Zs}]+|[\t\p{Zs}]+$/gu, '');
    if (s === '')
        return {error: 'empty'};
    if (isDigits(s))
        return bounded(s, 1, false);
    const units = [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]];
    let total = 0;
    let nextUnit = 0;
    let digits = '';
    for (const c of s) {
        if (c >= '0' && c <= '9') {
            digits += c;
            continue;
        }
        let index = -1;
        for (let i = nextUnit; i < units.length; i++) {
            if (units[i][0] === c) {
                index = i;
                break;
            }
        }
        if (digits === '' || index < 0)
            return {error: 'malformed'};
        const part = bounded(digits, units[index][1], true);
        if (part.error)
            return part;
        total += part.seconds;
        nextUnit = index + 1;
        digits = '';
    }
    if (digits !== '')
        return {error: 'malformed'};
    if (total === 0)
        return {error: 'zero'};
    if (total > DURATION_MAX)
        return {error: 'tooLong'};
    return {seconds: total};
}

const PALETTE = {
    red: '#ff3b30', orange: '#ff9500', yellow: '#ffcc00', green: '#34c759', mint: '#00c7be',
    teal: '#30b0c7', cyan: '#32ade6', blue: '#007aff', indigo: '#5856d6', purple: '#af52de',
    pink: '#ff2d55', brown: '#a2845e', white: '#ffffff', gray: '#8e8e93', grey: '#8e8e93',
    black: '#000000', silver: '#c0c0c0', maroon: '#800000', olive: '#808000', lime: '#00ff00',
    aqua: '#00ffff', navy: '#000080', fuchsia: '#ff00ff', magenta: '#ff00ff',
};

/**
 * `#rrggbb` for a colour the panel can draw: named colours as Apple's system palette and CSS give
 * them, hex as given (alpha dropped); null for the theme's ("", clear, primary, secondary, accent).
 *
 * @param {string} name - an accent_color as alarmd reports it
 * @returns {string|null}
 */
export function colorHex(name) {
    const lower = String(name ?? '').toLowerCase();
    if (Object.prototype.hasOwnProperty.call(PALETTE, lower))
        return PALETTE[lower];
    if (/^#([0-9a-f]{6}|[0-9a-f]{8})$/.test(lower))
        return lower.slice(0, 7);
    return null;
}

function two(v) {
    return v < 10 ? `0${v}` : `${v}`;
}

/**
 * A countdown's remaining time, rounded up (25:00 at the start, 0:01 in the last second):
 * `24:59`, `1:02:03`, `2d 03:04:05`.
 *
 * @param {number} remainingUSec - microseconds
 * @returns {string}
 */
export function clock(remainingUSec) {
    const total = Math.ceil(Math.max(0, remainingUSec) / USEC);
    const d = Math.floor(total / 86400), h = Math.floor(total / 3600) % 24;
    const m = Math.floor(total / 60) % 60, s = total % 60;
    if (d > 0)
        return `${d}d ${two(h)}:${two(m)}:${two(s)}`;
    if (h > 0)
        return `${h}:${two(m)}:${two(s)}`;
    return `${m}:${two(s)}`;
}

/**
 * A wall-clock instant in local time, its time as alarmTime() writes it (GNOME's 12/24-hour setting):
 * "07:30" today, "Tue 07:30" within the coming week, else "2026-12-24 18:00"; the weekday is the
 * locale's, and where it stands beside the time the translation says.
 *
 * @param {number} usec - realtime microseconds
 * @param {number} nowUSec - realtime microseconds
 * @param {boolean} hour12 - a 12-hour clock
 * @param {object} tr - gettext's functions (UNTRANSLATED: English)
 * @returns {string}
 */
export function localTime(usec, nowUSec, hour12 = false, tr = UNTRANSLATED) {
    const t = GLib.DateTime.new_from_unix_local(Math.floor(usec / USEC));
    const now = GLib.DateTime.new_from_unix_local(Math.floor(nowUSec / USEC));
    if (!t || !now)
        return '';
    const time = alarmTime(t.get_hour(), t.get_minute(), hour12, tr);
    if (t.get_year() === now.get_year() && t.get_day_of_year() === now.get_day_of_year())
        return time;
    if (usec > nowUSec && usec - nowUSec < 6.5 * 86400 * USEC)
        return weekdayTime(t, time, tr);
    // Translators: a date and time beyond the coming week, "2026-12-24 18:00": %1$s is the date
    // (year-month-day, in digits), %2$s the time.
    return fill(tr.C_('date and time', '%1$s %2$s'), t.format('%Y-%m-%d'), time);
}

function weekdayTime(t, time, tr) {
    // Translators: when an alarm rings within the coming week, "Tue 07:30": %1$s is the weekday,
    // abbreviated (the locale's), %2$s the time.
    return fill(tr.C_('weekday and time', '%1$s %2$s'), weekday(t, tr), time);
}

/** The object path of an alarm id (docs/API.md: dashes become underscores). */
export function alarmPath(id) {
    return `/org/alarmd/AlarmManager1/alarm/${String(id).toLowerCase().replace(/-/g, '_')}`;
}

/** One org.alarmd.Alarm1 object as the applet sees it: its properties, unpacked. */
export class Alarm {
    constructor(path, props) {
        this.path = path;
        this.props = Object.assign({}, props);
    }

    apply(changed, invalidated = []) {
        Object.assign(this.props, changed);
        for (const name of invalidated)
            delete this.props[name];
    }

    _n(key) {
        const v = this.props[key];
        return typeof v === 'number' ? v : Number(v ?? 0);
    }

    get id() {
        return String(this.props.Id ?? '');
    }

    get state() {
        return String(this.props.State ?? '');
    }

    get kind() {
        return String(this.props.Kind ?? '');
    }

    /** The app that set the alarm ('' for the user's own tools). */
    get appId() {
        return String(this.props.AppId ?? '');
    }

    get isWarning() {
        return this.props.Phase === 'warning';
    }

    get fireTime() {
        return this._n('FireTimeUSec');
    }

    get total() {
        return this._n('CountdownTotalUSec');
    }

    get elapsed() {
        return this._n('ElapsedUSec');
    }

    /** The snooze length, seconds. */
    get postAlert() {
        return this._n('PostAlert');
    }

    text(key) {
        const p = this.props.Presentation ?? {};
        const v = p[key];
        return typeof v === 'string' ? v : '';
    }

    /** "Timer" or "Alarm" (`tr` translates): what the lock screen says when titles are hidden. */
    kindName(tr = UNTRANSLATED) {
        // Translators: the nouns, a countdown and an alarm at a time of day (what GNOME Clocks calls them).
        return this.kind === 'timer' ? tr._('Timer') : tr._('Alarm');
    }

    /** The title, or "Timer"/"Alarm" when it has none (`tr` translates). */
    title(tr = UNTRANSLATED) {
        const t = this.text('title');
        return t !== '' ? t : this.kindName(tr);
    }

    /**
     * The text of a ringing alarm's button `key` (stop_button, secondary_button). The user's own alarms
     * (no app id: the panel, alarmctl, busctl) carry the contract's English words, "Stop" by default and
     * the "Snooze" alarmd gives them (docs/API.md): those are shown in the user's language; an app's
     * texts are its own, shown as it sent them.
     *
     * @param {string} key - stop_button or secondary_button
     * @param {object} tr - gettext's functions
     * @returns {string} '' for a secondary button the alarm has not
     */
    buttonText(key, tr = UNTRANSLATED) {
        const t = this.text(key);
        if (key === 'stop_button' && (t === '' || (t === 'Stop' && this.appId === '')))
            return tr.C_('button', 'Stop');
        if (key === 'secondary_button' && t === 'Snooze' && this.appId === '')
            return tr.C_('button', 'Snooze');
        return t;
    }

    get compactLabel() {
        return this.text('compact_label');
    }

    get accentColor() {
        return this.text('accent_color');
    }

    get icon() {
        return this.text('icon');
    }

    /** An alarm switched off keeps its schedule and never rings; absent (an older alarmd) is on. */
    get enabled() {
        return this.props.Enabled !== false;
    }

    /** The schedule keys as alarmd accepted them (hour, minute, weekdays; fixed_date; duration). */
    get schedule() {
        return this.props.Schedule ?? {};
    }

    /** docs/API.md's applet rule: countdown and scheduled run until FireTimeUSec; paused is frozen. */
    remaining(now) {
        switch (this.state) {
        case 'countdown':
        case 'scheduled':
            return Math.max(0, this.fireTime - now);
        case 'paused':
            return Math.max(0, this.total - this.elapsed);
        default:
            return 0;
        }
    }

    /** 0…1: (total − remaining) / total while counting down or paused; 1 alerting; 0 scheduled. */
    progress(now) {
        switch (this.state) {
        case 'alerting':
            return 1;
        case 'countdown':
        case 'paused': {
            const total = this.total;
            if (total <= 0)
                return 0;
            const r = Math.min(this.remaining(now), total);
            return (total - r) / total;
        }
        default:
            return 0;
        }
    }
}

function byId(a, b) {
    if (a.id === b.id)
        return 0;
    return a.id < b.id ? -1 : 1;
}

function byFire(a, b) {
    if (a.fireTime !== b.fireTime)
        return a.fireTime - b.fireTime;
    return byId(a, b);
}

/** The order a person reads alarms in: ringing first, then by when they fire, paused last. */
export function readingOrder(alarms) {
    // Paused countdowns and alarms switched off have no fire time (0): they come last, not first.
    const key = a => a.state === 'paused' || !a.enabled ? Infinity : a.fireTime;
    return [...alarms].sort((a, b) => {
        if ((a.state === 'alerting') !== (b.state === 'alerting'))
            return a.state === 'alerting' ? -1 : 1;
        const fa = key(a), fb = key(b);
        if (fa !== fb)
            return fa < fb ? -1 : 1;
        return byId(a, b);
    });
}

/**
 * `s` if it has at most `n` code points, else its first `n - 1` and "…", the cut moved back to before
 * a combining mark or zero width joiner it would part from its neighbour: as alarmctl panel and the
 * Plasma applet cut (Tests/cases/client-rules.json).
 *
 * @param {string} s - a title
 * @param {number} n - the most code points shown
 * @returns {string}
 */
function truncate(s, n) {
    const chars = [...s];
    if (chars.length <= n)
        return s;
    const joins = c => /^[\p{M}\u200d]$/u.test(c);
    let end = n - 1;
    while (end > 0 && (joins(chars[end]) || chars[end - 1] === '\u200d'))
        end--;
    return `${chars.slice(0, end).join('')}…`;
}

/**
 * What the panel shows (alarmctl panel's rules): a ringing alarm first, else the countdown ending
 * first (paused ones after running ones), else the next alarm's local time; idle otherwise.
 *
 * @param {Alarm[]} alarms - the mirror
 * @param {boolean} running - whether alarmd owns its name
 * @param {number} now - realtime microseconds
 * @param {object} tr - gettext's functions (UNTRANSLATED: English)
 * @param {boolean} hour12 - a 12-hour clock (GNOME's clock-format)
 * @returns {object} mode (off idle scheduled countdown paused warning alerting), label, time,
 *   color (#rrggbb or null), ticking, alarm
 */
export function panelView(alarms, running, now, tr = UNTRANSLATED, hour12 = false) {
    const v = {mode: running ? 'idle' : 'off', label: '', time: '', color: null, ticking: false, alarm: null};
    if (!running)
        return v;
    const byTime = [...alarms].sort(byFire);
    const ringing = byTime.filter(a => a.state === 'alerting');
    const counting = byTime.filter(a => a.state === 'countdown')
        .sort((a, b) => a.remaining(now) - b.remaining(now) || (a.id < b.id ? -1 : 1));
    const paused = byTime.filter(a => a.state === 'paused');
    if (ringing.length > 0) {
        const a = ringing[0];
        v.mode = 'alerting';
        v.label = truncate(a.title(tr), 24) + (ringing.length > 1 ? ` +${ringing.length - 1}` : '');
        v.color = colorHex(a.accentColor) ?? colorHex('red');
        v.alarm = a;
    } else if (counting.length > 0 || paused.length > 0) {
        const a = counting[0] ?? paused[0];
        if (a.state === 'paused')
            v.mode = 'paused';
        else
            v.mode = a.isWarning ? 'warning' : 'countdown';
        v.label = a.compactLabel;
        v.time = clock(a.remaining(now));
        v.color = colorHex(a.accentColor);
        v.ticking = a.state === 'countdown';
        v.alarm = a;
    } else if (byTime.some(a => a.enabled)) {
        const a = byTime.find(b => b.enabled);
        v.mode = 'scheduled';
        v.time = localTime(a.fireTime, now, hour12, tr);
        v.color = colorHex(a.accentColor);
        v.alarm = a;
    }
    return v;
}

/**
 * Milliseconds until the shown countdown's text changes (remaining crosses a whole second), or -1
 * when nothing counts down (then no timer may run).
 *
 * @param {Alarm[]} alarms - the mirror
 * @param {number} now - realtime microseconds
 * @returns {number}
 */
export function nextChangeMs(alarms, now) {
    const counting = alarms.filter(a => a.state === 'countdown' && a.fireTime > now);
    if (counting.length === 0)
        return -1;
    const r = Math.min(...counting.map(a => a.remaining(now)));
    const toBoundary = r % USEC === 0 ? USEC : r % USEC;
    // A millisecond past the boundary, so the redraw reads the new second.
    return Math.max(1, Math.ceil(toBoundary / 1000) + 1);
}

/**
 * Whether a notification source of the shell is one that alarmd's own notifications go to, told by
 * the identity alarmd sends them under (Sources/AlarmDaemon/Desktop/Alerts.swift): an alarm's
 * notification comes as the app that set it, under the app's desktop entry (the `desktop-entry` hint,
 * where the shell files it under that app) when the app has one, else with the app id as its name;
 * and as "alarmd" for the user's own alarms. Never decided by a notification's title.
 *
 * @param {string|null} desktopId - the source's app (`org.example.App.desktop`), null for none
 * @param {string} name - the source's name (the notifications' app name when it has no app)
 * @param {Alarm[]} alarms - the mirror: the apps whose alarms alarmd has
 * @returns {boolean}
 */
export function isAlarmdSource(desktopId, name, alarms) {
    const apps = new Set(alarms.map(a => a.appId).filter(id => id !== ''));
    if (desktopId) {
        const entry = String(desktopId).replace(/\.desktop$/, '');
        // snapd exports an app's entry as <snap>_<snap>.desktop (AppDirectory.swift).
        return [...apps].some(app => app === entry || (app.startsWith('snap.') && entry === `${app.slice(5)}_${app.slice(5)}`));
    }
    return name === 'alarmd' || apps.has(String(name));
}

/** The days of the week as alarmd names them, indexed as Shell.util_get_week_start() counts (0 = Sunday). */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** The days "Weekdays" selects. */
export const WORKDAYS = WEEKDAYS.slice(1, 6);

/** The snooze lengths the alarm form offers, in minutes; the first is alarmd's default (post_alert 300). */
export const SNOOZE_MINUTES = [5, 10, 15, 20];

// A day of a known week (Sunday 7 January 2024, UTC) formatted by GLib: the locale's own names and
// AM/PM words, where a table of English ones would need a translation of its own.
function sample(day, hour = 0, minute = 0) {
    return GLib.DateTime.new_utc(2024, 1, 7 + day, hour, minute, 0);
}

/**
 * The locale's abbreviated name of a day ("Mon" in English), GLib's `%a` in the form the translation
 * gives: a bare "一" is Monday in zh_CN's locale, which Chinese writes "周一".
 *
 * @param {string} day - monday … sunday
 * @param {object} tr - gettext's functions (UNTRANSLATED: English)
 * @returns {string}
 */
export function dayName(day, tr = UNTRANSLATED) {
    return weekday(sample(Math.max(0, WEEKDAYS.indexOf(day))), tr);
}

function weekday(t, tr) {
    // Translators: how a weekday is written short, as a GLib.DateTime format: %a is the locale's
    // abbreviated weekday ("Mon"; "一" in zh_CN, hence "周%a"), %A its full name. Nothing else.
    // xgettext: no-javascript-format
    return t.format(tr.C_('abbreviated weekday', '%a'));
}

/**
 * The locale's word for the morning or the afternoon ("AM", "PM" in English; English where the
 * locale has none, as 12-hour clocks need one).
 *
 * @param {boolean} pm - afternoon
 * @returns {string}
 */
export function meridiem(pm) {
    const word = sample(0, pm ? 12 : 0).format('%p');
    return word || (pm ? 'PM' : 'AM');
}

/**
 * An alarm's wall-clock time as the desktop shows times: "06:45", or with a 12-hour clock "6:45 AM"
 * (noon 12:00 PM, midnight 12:00 AM), the locale's AM/PM words where the translation puts them
 * ("上午6:45").
 *
 * @param {number} hour - 0…23
 * @param {number} minute - 0…59
 * @param {boolean} hour12 - GNOME's clock-format is 12h
 * @param {object} tr - gettext's functions (UNTRANSLATED: English)
 * @returns {string}
 */
export function alarmTime(hour, minute, hour12, tr = UNTRANSLATED) {
    if (!hour12)
        return `${two(hour)}:${two(minute)}`;
    // Translators: a time on a 12-hour clock, "6:45 AM": %1$s is the hour and minute, %2$s the
    // locale's word for before or after noon. Reorder them as your language writes a time.
    return fill(tr.C_('12-hour time', '%1$s %2$s'), `${hour % 12 === 0 ? 12 : hour % 12}:${two(minute)}`,
        meridiem(hour >= 12));
}

/**
 * The time typed into the alarm form: an hour and a minute as text, the hour of a 12-hour clock
 * (1…12, with `pm` saying which half of the day) or of a 24-hour one (0…23).
 *
 * @param {string} hourText - what the user typed as the hour
 * @param {string} minuteText - what the user typed as the minute ("" reads as 0)
 * @param {boolean} hour12 - a 12-hour clock
 * @param {boolean} pm - the afternoon (12-hour clock only)
 * @returns {{hour: number, minute: number}|{error: string}} error: hour or minute
 */
export function parseAlarmTime(hourText, minuteText, hour12, pm) {
    const h = String(hourText).trim(), m = String(minuteText).trim();
    if (!/^[0-9]{1,2}$/.test(h) || (hour12 ? Number(h) < 1 || Number(h) > 12 : Number(h) > 23))
        return {error: 'hour'};
    if (!/^[0-9]{0,2}$/.test(m) || Number(m) > 59)
        return {error: 'minute'};
    let hour = Number(h);
    if (hour12)
        hour = hour % 12 + (pm ? 12 : 0);
    return {hour, minute: Number(m)};
}

/**
 * The week in the locale's order, starting at its first day.
 *
 * @param {string} firstDay - monday … sunday
 * @returns {string[]}
 */
export function weekFrom(firstDay) {
    const start = Math.max(0, WEEKDAYS.indexOf(firstDay));
    return WEEKDAYS.map((d, i) => WEEKDAYS[(start + i) % 7]);
}

function sameDay(a, b) {
    return a.get_year() === b.get_year() && a.get_day_of_year() === b.get_day_of_year();
}

/**
 * When an alarm rings, in short: "Every day", "Mon–Fri", "Mon, Wed, Fri" (the week from its locale's
 * first day, three or more days in a row as one range); for a one-shot "Today", "Tomorrow", its date,
 * or "Once" while switched off (no fire time). Tests/cases/client-rules.json, alarm_days.
 *
 * @param {string[]} weekdays - the Schedule's weekdays
 * @param {string} firstDay - the locale's first day of the week (monday … sunday)
 * @param {number} fireUSec - FireTimeUSec
 * @param {number} nowUSec - realtime microseconds
 * @param {object} tr - gettext's functions (UNTRANSLATED: English)
 * @returns {string}
 */
export function alarmDays(weekdays, firstDay, fireUSec, nowUSec, tr = UNTRANSLATED) {
    const {_, C_} = tr;
    const days = new Set(weekdays ?? []);
    if (days.size === 7)
        return _('Every day');
    if (days.size === 0) {
        if (!(fireUSec > 0)) {
            // Translators: a one-time alarm that is switched off (it rings once, when switched on).
            return C_('alarm repeats', 'Once');
        }
        const t = GLib.DateTime.new_from_unix_local(Math.floor(fireUSec / USEC));
        const now = GLib.DateTime.new_from_unix_local(Math.floor(nowUSec / USEC));
        if (sameDay(t, now))
            return _('Today');
        if (sameDay(t, now.add_days(1)))
            return _('Tomorrow');
        return t.format('%x');
    }
    const week = weekFrom(firstDay);
    const parts = [];
    for (let i = 0; i < 7; i++) {
        if (!days.has(week[i]))
            continue;
        let j = i;
        while (j + 1 < 7 && days.has(week[j + 1]))
            j++;
        if (j - i >= 2) {
            // Translators: three or more days in a row, "Mon–Fri": %1$s is the first (abbreviated
            // weekday), %2$s the last.
            parts.push(fill(C_('range of weekdays', '%1$s–%2$s'), dayName(week[i], tr), dayName(week[j], tr)));
        } else {
            for (let k = i; k <= j; k++)
                parts.push(dayName(week[k], tr));
        }
        i = j;
    }
    // Translators: what separates the days in a list of days ("Mon, Wed, Fri"); "、" in Chinese.
    return parts.join(C_('list of weekdays', ', '));
}

/**
 * The next alarm, which the menu heads with and the panel's alarm-clock icon stands for: of the
 * alarms (not timers) switched on and waiting (scheduled, or snoozed and counting down), the one that
 * fires first (ties: the lowest Id); text its weekday and time ("Mon 06:45"). Ringing ones are not
 * next. Tests/cases/client-rules.json, next_alarm.
 *
 * @param {Alarm[]} alarms - the mirror
 * @param {number} nowUSec - realtime microseconds
 * @param {boolean} hour12 - a 12-hour clock
 * @param {object} tr - gettext's functions (UNTRANSLATED: English)
 * @returns {{alarm: Alarm|null, text: string}}
 */
export function nextAlarm(alarms, nowUSec, hour12, tr = UNTRANSLATED) {
    const waiting = alarms.filter(a => a.kind === 'alarm' && a.enabled && a.fireTime > 0 &&
        (a.state === 'scheduled' || a.state === 'countdown')).sort(byFire);
    if (waiting.length === 0)
        return {alarm: null, text: ''};
    const a = waiting[0];
    const t = GLib.DateTime.new_from_unix_local(Math.floor(a.fireTime / USEC));
    return {alarm: a, text: weekdayTime(t, alarmTime(t.get_hour(), t.get_minute(), hour12, tr), tr)};
}
