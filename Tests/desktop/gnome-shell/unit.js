// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// Checks the extensions' one pure model (duration grammar, colours, clock, remaining time and progress,
// panel view, an alarm's time and days, the next alarm) with plain gjs:
//   gjs -m Tests/desktop/gnome-shell/unit.js [MODEL.js] [LEGACY_DIR]
// MODEL.js: the ES module (default: applets/gnome-shell/alarmd@alarmd.org/model.js), as GNOME Shell 45+
// imports it; LEGACY_DIR: a directory holding its legacy form for GNOME Shell 43 (applets/gnome-shell/
// assemble 43 DIR), loaded through the legacy `imports`, checked the same way.
// The rules' cases are Tests/cases/client-rules.json, which alarmd's Swift tests and the Plasma applet's
// read too; $ALARMD_CLIENT_RULES names that file where it is elsewhere (in a test root).
// Prints one line per failure and "unit: N passed, M failed"; exits 1 on failure.
import GLib from 'gi://GLib';
import system from 'system';

const here = GLib.path_get_dirname(GLib.filename_from_uri(import.meta.url)[0]);
const [modelPath = GLib.build_filenamev([here, '..', '..', '..', 'applets', 'gnome-shell', 'alarmd@alarmd.org',
    'model.js']), legacyDir] = system.programArgs;
const forms = [['module', await import(GLib.filename_to_uri(GLib.canonicalize_filename(modelPath, null), null))]];
if (legacyDir) {
    imports.searchPath.unshift(legacyDir);
    forms.push(['legacy', imports.model]);
}

const rulesPath = GLib.getenv('ALARMD_CLIENT_RULES') ??
    GLib.build_filenamev([here, '..', '..', 'cases', 'client-rules.json']);
const rules = JSON.parse(new TextDecoder().decode(GLib.file_get_contents(rulesPath)[1]));
// The panel's local times are in the zone the cases name (GLib reads TZ anew when it changes).
GLib.setenv('TZ', rules.panel.zone, true);

let passed = 0, failed = 0;
function equal(what, got, want) {
    const g = JSON.stringify(got), w = JSON.stringify(want);
    if (g === w) {
        passed++;
    } else {
        failed++;
        print(`FAIL ${what}: got ${g}, want ${w}`);
    }
}

function check(form, Model) {
    const eq = (what, got, want) => equal(`${form}: ${what}`, got, want);
    // The shared cases (Tests/cases/client-rules.json, whose `about` fields say what each rule is).
    for (const section of ['duration', 'color', 'clock', 'remaining', 'panel', 'alarm_time', 'alarm_days', 'next_alarm'])
        eq(`${section} has cases`, rules[section].cases.length > 0, true);
    for (const c of rules.duration.cases) {
        eq(`parse ${JSON.stringify(c.input)}`, Model.parseDuration(c.input),
            'seconds' in c ? {seconds: c.seconds} : {error: c.error});
    }
    for (const c of rules.color.cases)
        eq(`colorHex ${JSON.stringify(c.input)}`, Model.colorHex(c.input), c.hex);
    for (const c of rules.clock.cases)
        eq(`clock ${c.usec}`, Model.clock(c.usec), c.text);
    for (const c of rules.remaining.cases) {
        const a = new Model.Alarm(Model.alarmPath('a'), c.alarm);
        eq(`remaining: ${c.name}`, [a.remaining(c.now), a.progress(c.now)], [c.remaining, c.progress]);
    }
    // The extension's label is the shared one, a ringing alarm's followed by " +N" for the others.
    for (const c of rules.panel.cases) {
        const v = Model.panelView(c.alarms.map(p => new Model.Alarm(Model.alarmPath(p.Id), p)), c.running, c.now);
        const e = c.expect;
        const label = e.mode === 'alerting' && e.more > 0 ? `${e.label} +${e.more}` : e.label;
        eq(`panel: ${c.name}`,
            {alarm: v.alarm ? v.alarm.id : null, mode: v.mode, label: v.label, time: v.time, color: v.color, ticking: v.ticking},
            {alarm: e.alarm, mode: e.mode, label, time: e.time, color: e.color, ticking: e.ticking});
    }
    for (const c of rules.alarm_time.cases)
        eq(`alarmTime ${c.hour}:${c.minute} ${c.hour12 ? '12h' : '24h'}`, Model.alarmTime(c.hour, c.minute, c.hour12), c.text);
    for (const c of rules.alarm_days.cases) {
        eq(`alarmDays ${JSON.stringify(c.weekdays)} from ${c.first_day ?? 'monday'} ${c.fire ?? ''}`,
            Model.alarmDays(c.weekdays, c.first_day ?? 'monday', c.fire ?? 0, c.now ?? 0), c.text);
    }
    for (const c of rules.next_alarm.cases) {
        const n = Model.nextAlarm(c.alarms.map(p => new Model.Alarm(Model.alarmPath(p.Id), p)), c.now, c.hour12);
        eq(`nextAlarm: ${c.name}`, {alarm: n.alarm ? n.alarm.id : null, text: n.text}, c.expect);
    }

    const now = 1800000000e6;
    const timer = (id, props) => new Model.Alarm(Model.alarmPath(id), Object.assign({Id: id, Kind: 'timer',
        State: 'countdown', Phase: 'normal', FireTimeUSec: now + 300e6, CountdownTotalUSec: 600e6,
        ElapsedUSec: 0, Presentation: {title: 'Tea', compact_label: '', accent_color: ''}}, props));
    eq('alarmPath', Model.alarmPath('3F8F-00'), '/org/alarmd/AlarmManager1/alarm/3f8f_00');

    const t = timer('a', {});
    const p = timer('b', {State: 'paused', FireTimeUSec: 0, ElapsedUSec: 450e6});
    const r = timer('d', {State: 'alerting', Presentation: {title: 'Wake up'}});
    const s = timer('e', {Kind: 'alarm', State: 'scheduled', FireTimeUSec: now + 3600e6});
    eq('reading order', Model.readingOrder([p, s, t, r]).map(a => a.id), ['d', 'a', 'e', 'b']);

    // alarmd's notification sources, by the identity alarmd sends them under, never by title.
    const cook = timer('g', {AppId: 'org.example.Cook', Presentation: {title: 'Breakfast'}});
    const snap = timer('h', {AppId: 'snap.cook'});
    eq('source: alarmd itself', Model.isAlarmdSource(null, 'alarmd', []), true);
    eq('source: another name', Model.isAlarmdSource(null, 'Calendar', [cook]), false);
    eq('source: not by title', Model.isAlarmdSource(null, 'Breakfast', [cook]), false);
    eq('source: app entry with an alarm', Model.isAlarmdSource('org.example.Cook.desktop', 'Cook', [cook]), true);
    eq('source: app entry without one', Model.isAlarmdSource('org.gnome.Calendar.desktop', 'Calendar', [cook]), false);
    eq('source: app without entry', Model.isAlarmdSource(null, 'org.example.Cook', [cook]), true);
    eq('source: snap entry', Model.isAlarmdSource('cook_cook.desktop', 'Cook', [snap]), true);
    eq('source: app gone', Model.isAlarmdSource('org.example.Cook.desktop', 'Cook', [t]), false);

    // The alarm form's typed time: a 12-hour clock's 12 AM is midnight, 12 PM noon.
    eq('typed 6 45', Model.parseAlarmTime('6', '45', false, false), {hour: 6, minute: 45});
    eq('typed 7 and no minute', Model.parseAlarmTime(' 07 ', '', false, false), {hour: 7, minute: 0});
    eq('typed 6 45 PM', Model.parseAlarmTime('6', '45', true, true), {hour: 18, minute: 45});
    eq('typed 12 05 AM', Model.parseAlarmTime('12', '05', true, false), {hour: 0, minute: 5});
    eq('typed 12 00 PM', Model.parseAlarmTime('12', '00', true, true), {hour: 12, minute: 0});
    eq('typed 13 on a 12-hour clock', Model.parseAlarmTime('13', '00', true, false), {error: 'hour'});
    eq('typed 24', Model.parseAlarmTime('24', '00', false, false), {error: 'hour'});
    eq('typed no hour', Model.parseAlarmTime('', '30', false, false), {error: 'hour'});
    eq('typed 60 minutes', Model.parseAlarmTime('6', '60', false, false), {error: 'minute'});
    eq('week from sunday', Model.weekFrom('sunday')[0], 'sunday');

    // Translations reorder and replace, never glue: a translator's own order of the placeholders and
    // words (a stand-in translation, as a zh_CN .po has them), in the texts the model builds.
    eq('fill in order', Model.fill('%s left, %d min', '4:59', 5.7), '4:59 left, 5 min');
    eq('fill by position', Model.fill('%2$s%1$s', '6:45', 'AM'), 'AM6:45');
    const zh = {
        '12-hour time': '%2$s%1$s', 'range of weekdays': '%1$s至%2$s', 'list of weekdays': '、',
        'abbreviated weekday': '周%a', 'weekday and time': '%1$s %2$s',
    };
    const tr = Object.assign({}, Model.UNTRANSLATED, {
        C_: (context, text) => context === 'button' ? `[${text}]` : zh[context] ?? text,
        _: text => ({'Every day': '每天'})[text] ?? text,
    });
    eq('12-hour time, translated order', Model.alarmTime(6, 45, true, tr), `${Model.meridiem(false)}6:45`);
    eq('24-hour time, untouched', Model.alarmTime(6, 45, false, tr), '06:45');
    eq('days, translated range', Model.alarmDays(rules.alarm_days.cases[0].weekdays, 'monday', 0, 0, tr),
        `周${Model.dayName('monday')}至周${Model.dayName('friday')}`);
    eq('days, translated list', Model.alarmDays(['monday', 'wednesday'], 'monday', 0, 0, tr),
        `周${Model.dayName('monday')}、周${Model.dayName('wednesday')}`);
    eq('days, every day', Model.alarmDays(Model.WEEKDAYS, 'monday', 0, 0, tr), '每天');
    // The user's own alarms carry the contract's English button words: shown translated; an app's as sent.
    const own = timer('i', {State: 'alerting', Presentation: {title: 'Tea', secondary_button: 'Snooze'}});
    const app = timer('j', {State: 'alerting', AppId: 'org.example.Cook',
        Presentation: {title: 'Tea', stop_button: 'Stop', secondary_button: 'Snooze'}});
    eq('own alarm: Stop, Snooze translated', [own.buttonText('stop_button', tr), own.buttonText('secondary_button', tr)],
        ['[Stop]', '[Snooze]']);
    eq('app alarm: its own texts', [app.buttonText('stop_button', tr), app.buttonText('secondary_button', tr)],
        ['Stop', 'Snooze']);
    eq('no secondary button', timer('k', {}).buttonText('secondary_button', tr), '');

    eq('no tick when idle', Model.nextChangeMs([s, p, r], now), -1);
    eq('tick at the next second', Model.nextChangeMs([timer('f', {FireTimeUSec: now + 2.25e6})], now), 251);
}

for (const [form, Model] of forms)
    check(form, Model);
print(`unit: ${passed} passed, ${failed} failed (${forms.map(f => f[0]).join(' and ')})`);
if (failed > 0)
    system.exit(1);
