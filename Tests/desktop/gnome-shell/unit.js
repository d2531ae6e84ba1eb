// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// Checks the extensions' one pure model (duration grammar, colours, clock, panel view) with plain gjs:
//   gjs -m Tests/desktop/gnome-shell/unit.js [MODEL.js] [LEGACY_DIR]
// MODEL.js: the ES module (default: applets/gnome-shell/alarmd@alarmd.org/model.js), as GNOME Shell 45+
// imports it; LEGACY_DIR: a directory holding its legacy form for GNOME Shell 43 (applets/gnome-shell/
// assemble 43 DIR), loaded through the legacy `imports`, checked the same way.
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
    // alarmctl's grammar (AlarmCore DurationGrammar): seconds, or d h m s groups in descending order.
    const ok = {
        '1500': 1500, '90': 90, '30s': 30, '5m': 300, '1h30m': 5400, '1d12h': 129600, '2d': 172800,
        '1h0m': 3600, '0h5m': 300, ' 25m ': 1500, '1d2h3m4s': 93784, '157788000': 157788000,
        '1826d6h': 157788000, '007': 7,
    };
    for (const [text, seconds] of Object.entries(ok))
        eq(`parse ${JSON.stringify(text)}`, Model.parseDuration(text), {seconds});
    const bad = {
        '': 'empty', '   ': 'empty', '0': 'zero', '0s': 'zero', '0h0m': 'zero', '5x': 'malformed',
        '30m1h': 'malformed', '1h1h': 'malformed', 'h': 'malformed', '1h30': 'malformed', '1.5h': 'malformed',
        '-5m': 'malformed', '5M': 'malformed', '1 h': 'malformed', 'm5': 'malformed', '157788001': 'tooLong',
        '1826d6h1s': 'tooLong', '1827d': 'tooLong', '9999999999999': 'tooLong', '9999999999999s': 'tooLong',
        '5m\n': 'malformed',
    };
    for (const [text, error] of Object.entries(bad))
        eq(`parse ${JSON.stringify(text)}`, Model.parseDuration(text), {error});

    eq('orange', Model.colorHex('orange'), '#ff9500');
    eq('Red', Model.colorHex('Red'), '#ff3b30');
    eq('hex8', Model.colorHex('#AABBCCDD'), '#aabbcc');
    eq('theme', Model.colorHex(''), null);
    eq('primary', Model.colorHex('primary'), null);
    eq('bad hex', Model.colorHex('#abc'), null);

    eq('clock 25:00', Model.clock(1500e6), '25:00');
    eq('clock 24:59', Model.clock(1499e6), '24:59');
    eq('clock last second', Model.clock(1), '0:01');
    eq('clock h', Model.clock(3723e6), '1:02:03');
    eq('clock d', Model.clock((2 * 86400 + 3 * 3600 + 4 * 60 + 5) * 1e6), '2d 03:04:05');

    const now = 1800000000e6;
    const timer = (id, props) => new Model.Alarm(Model.alarmPath(id), Object.assign({Id: id, Kind: 'timer',
        State: 'countdown', Phase: 'normal', FireTimeUSec: now + 300e6, CountdownTotalUSec: 600e6,
        ElapsedUSec: 0, Presentation: {title: 'Tea', compact_label: '', accent_color: ''}}, props));
    const t = timer('a', {});
    eq('remaining', t.remaining(now), 300e6);
    eq('progress', t.progress(now), 0.5);
    const p = timer('b', {State: 'paused', FireTimeUSec: 0, ElapsedUSec: 450e6});
    eq('paused remaining', p.remaining(now), 150e6);
    eq('paused progress', p.progress(now), 0.75);
    eq('alarmPath', Model.alarmPath('3F8F-00'), '/org/alarmd/AlarmManager1/alarm/3f8f_00');

    let v = Model.panelView([t], true, now);
    eq('countdown view', [v.mode, v.label, v.time, v.ticking], ['countdown', '', '5:00', true]);
    const w = timer('c', {Phase: 'warning', FireTimeUSec: now + 30e6,
        Presentation: {title: 'Tea', compact_label: 'TEA', accent_color: 'orange'}});
    v = Model.panelView([t, w], true, now);
    eq('warning view', [v.mode, v.label, v.time, v.color], ['warning', 'TEA', '0:30', '#ff9500']);
    const r = timer('d', {State: 'alerting', Presentation: {title: 'Wake up'}});
    v = Model.panelView([t, w, r], true, now);
    eq('alerting view', [v.mode, v.label, v.color, v.ticking], ['alerting', 'Wake up', '#ff3b30', false]);
    v = Model.panelView([p], true, now);
    eq('paused view', [v.mode, v.time, v.ticking], ['paused', '2:30', false]);
    v = Model.panelView([], true, now);
    eq('idle view', v.mode, 'idle');
    v = Model.panelView([t], false, now);
    eq('off view', v.mode, 'off');
    const s = timer('e', {Kind: 'alarm', State: 'scheduled', FireTimeUSec: now + 3600e6});
    v = Model.panelView([s], true, now);
    eq('scheduled view', [v.mode, v.time, v.ticking],
        ['scheduled', GLib.DateTime.new_from_unix_local(now / 1e6 + 3600).format('%H:%M'), false]);
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

    eq('no tick when idle', Model.nextChangeMs([s, p, r], now), -1);
    eq('tick at the next second', Model.nextChangeMs([timer('f', {FireTimeUSec: now + 2.25e6})], now), 251);
}

for (const [form, Model] of forms)
    check(form, Model);
print(`unit: ${passed} passed, ${failed} failed (${forms.map(f => f[0]).join(' and ')})`);
if (failed > 0)
    system.exit(1);
