// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: GPL-2.0-or-later
//
// The alarmd indicator, written once for every GNOME Shell the extension runs on (43 to 51): shows what
// alarmd (org.alarmd.AlarmManager1 on the session bus) is counting down or ringing, and acts on it.
// Written against docs/API.md alone, with the one model (model.js). An ES module: applets/gnome-shell/
// assemble emits it as it is for 45 and later and in its legacy form for 43, so only the import and
// export forms assemble knows are written here. What truly differs between the Shells is elsewhere, in
// each variant's small files (gnome43/, gnome45/): how the shell's own modules are imported (shell.js)
// and how the extension is declared (extension.js). Where the Shells' APIs differ within the code here,
// it tests for the feature, never the version number (vertical(), the pointer's backend, how a
// notification's privacy scope changes).
// Everything is created in AlarmdClient's constructor and released in its destroy(); at import time only
// Gio's D-Bus call is promisified, as gnome-shell itself does.
// It also runs while the session is locked (session mode unlock-dialog): then the top-bar indicator is
// gone and the lock screen shows what rings (Stop and the secondary button act without unlocking) and
// what counts down, nothing else. It touches the shell through its public API only: the panel, the
// layout manager's screen-shield group, the message tray's sources and notifications, the session mode,
// and a virtual pointer (Clutter) to light a dark lock screen as a user's touch would.

import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Shell from 'gi://Shell';
import St from 'gi://St';

import {_, C_, FdoNotificationDaemonSource, Main, MessageTray, PanelMenu, PopupMenu, ngettext} from './shell.js';
import * as Model from './model.js';

Gio._promisify(Gio.DBusConnection.prototype, 'call', 'call_finish');

const BUS_NAME = 'org.alarmd.AlarmManager1';
const MANAGER_PATH = '/org/alarmd/AlarmManager1';
const MANAGER_IFACE = 'org.alarmd.AlarmManager1';
const ALARM_IFACE = 'org.alarmd.Alarm1';
const QUICK_MINUTES = [1, 5, 10, 25];
const TITLES_KEY = 'show-titles-when-locked';
// alarmd ships this icon (data/icons); GNOME's own alarm clock stands in where only the extension is installed.
const ALARM_ICON = ['alarmd-alarm-symbolic', 'alarm-symbolic'];
// gettext bound to the extension's domain (gnome-shell-extension-alarmd), for the model's texts: the
// model is pure and takes them as an argument.
const TR = {_, C_, ngettext};

/** "5 min": the quick timers' and the snooze lengths' buttons. */
function minutesText(n) {
    // Translators: a length of time on a small button (the quick timers, the snooze length): "5 min".
    return ngettext('%d min', '%d min', n).format(n);
}

/** A vertical box on every Shell: St.BoxLayout's own `orientation` arrived in 48, and its `vertical`,
 *  deprecated since, is gone in 51; its box layout manager's orientation is there in all of them. */
function vertical(box) {
    box.layout_manager.orientation = Clutter.Orientation.VERTICAL;
    return box;
}

/** An alarm's first line, in the menu and on the lock screen: its title, taking the width, and a value
 *  (state, time) at the end; styled PREFIX-top, PREFIX-title and PREFIX-value. */
function titleRow(prefix) {
    const row = new St.BoxLayout({x_expand: true, style_class: `${prefix}-top`});
    const title = new St.Label({style_class: `${prefix}-title`, x_expand: true, y_align: Clutter.ActorAlign.CENTER});
    const value = new St.Label({style_class: `${prefix}-value`, y_align: Clutter.ActorAlign.CENTER});
    row.add_child(title);
    row.add_child(value);
    return [row, title, value];
}

function isCancelled(error) {
    return error instanceof GLib.Error && error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED);
}

// The GType names (Gjs_AlarmdAlarmItem…) come from the class names: the Alarmd prefix keeps them from
// clashing with another extension's classes in the one shell process.

/** A row of the menu for one alarm: title, state line, progress bar, the actions its state allows. */
class AlarmdAlarmItem extends PopupMenu.PopupBaseMenuItem {
    static {
        GObject.registerClass(this);
    }

    constructor(client) {
        super({reactive: false, can_focus: false, style_class: 'alarmd-item'});
        this._client = client;
        this._state = null;
        const box = vertical(new St.BoxLayout({x_expand: true, style_class: 'alarmd-item-box'}));
        let top;
        [top, this._title, this._status] = titleRow('alarmd-item');
        box.add_child(top);
        this._trough = new St.BoxLayout({style_class: 'alarmd-progress-trough', x_expand: true});
        // The bar fills the trough and is scaled to the progress: a width set when the trough's changes
        // would ask for a layout in the middle of the one that changed it (the menu widens as the alarm
        // form opens), which Clutter warns about.
        this._bar = new St.Widget({style_class: 'alarmd-progress-bar', x_expand: true, y_expand: true});
        this._bar.set_pivot_point(0, 0.5);
        this._trough.add_child(this._bar);
        box.add_child(this._trough);
        this._buttons = new St.BoxLayout({
            style_class: 'alarmd-item-buttons',
            x_align: Clutter.ActorAlign.END,
            x_expand: true,
        });
        box.add_child(this._buttons);
        this.add_child(box);
    }

    _button(label, method, id) {
        const b = new St.Button({label, style_class: 'button alarmd-button', can_focus: true});
        b.connect('clicked', () => this._client.callAlarm(method, id));
        this._buttons.add_child(b);
    }

    update(alarm, now) {
        this._title.text = alarm.title(TR);
        const r = Model.clock(alarm.remaining(now));
        let status;
        switch (alarm.state) {
        case 'alerting':
            status = _('Ringing');
            break;
        case 'countdown':
            // Translators: %s is the time a countdown has left, "24:59" (minutes:seconds) or "1:02:03";
            // the warning is the last stretch of a timer, which the app that set it asked to be marked.
            status = alarm.isWarning ? _('%s left (warning)').format(r) : _('%s left').format(r);
            break;
        case 'paused':
            // Translators: %s is the time a paused countdown has left, "24:59".
            status = _('Paused, %s left').format(r);
            break;
        default:
            status = Model.localTime(alarm.fireTime, now, this._client.hour12, TR);
        }
        this._status.text = status;
        const hex = Model.colorHex(alarm.accentColor);
        this._status.style = alarm.isWarning && hex ? `color: ${hex};` : null;
        const counts = alarm.state === 'countdown' || alarm.state === 'paused';
        this._trough.visible = counts;
        this._bar.scale_x = Math.max(0, Math.min(1, alarm.progress(now)));
        this._bar.style = hex ? `background-color: ${hex};` : null;
        if (this._state !== alarm.state) {
            this._state = alarm.state;
            this._buttons.destroy_all_children();
            const id = alarm.id;
            switch (alarm.state) {
            // Buttons, imperatives: pause the countdown, cancel it, resume it, stop the ringing alarm, snooze it.
            case 'countdown':
                this._button(C_('button', 'Pause'), 'Pause', id);
                this._button(C_('button', 'Cancel'), 'Cancel', id);
                break;
            case 'paused':
                this._button(C_('button', 'Resume'), 'Resume', id);
                this._button(C_('button', 'Cancel'), 'Cancel', id);
                break;
            case 'alerting':
                this._button(C_('button', 'Stop'), 'Stop', id);
                this._button(C_('button', 'Snooze'), 'Countdown', id);
                break;
            default:
                this._button(C_('button', 'Cancel'), 'Cancel', id);
            }
        }
    }
}

/** Whether an alarm is a wake-up alarm the form sets (a time of day, maybe repeating) waiting to ring:
 *  listed with its days and a switch. Ringing and snoozed ones keep the rows with Stop and Snooze. */
function isWakeAlarm(alarm) {
    return alarm.kind === 'alarm' && alarm.state === 'scheduled' && 'hour' in alarm.schedule;
}

/** A row of the menu for one wake-up alarm: its time, days and title, a button that opens the form to
 *  change it, and a switch that turns it off and on. */
class AlarmdWakeItem extends PopupMenu.PopupBaseMenuItem {
    static {
        GObject.registerClass(this);
    }

    constructor(client, indicator) {
        super({reactive: false, can_focus: false, style_class: 'alarmd-item alarmd-wake'});
        this._client = client;
        this._alarm = null;
        const box = vertical(new St.BoxLayout({x_expand: true}));
        this._time = new St.Label({style_class: 'alarmd-wake-time'});
        this._detail = new St.Label({style_class: 'alarmd-wake-detail'});
        box.add_child(this._time);
        box.add_child(this._detail);
        const open = new St.Button({style_class: 'alarmd-wake-open', x_expand: true, can_focus: true, child: box});
        open.connect('clicked', () => indicator.openForm(this._alarm));
        // The switch shows alarmd's Enabled, never a state of its own: a click asks alarmd, and the
        // PropertiesChanged that follows moves it. The button takes the click (the switch takes none:
        // 51's would start a drag of its own).
        this._switch = new PopupMenu.Switch(false);
        this._switch.reactive = false;
        const toggle = new St.Button({
            style_class: 'alarmd-wake-switch', can_focus: true, child: this._switch,
            y_align: Clutter.ActorAlign.CENTER,
        });
        toggle.connect('clicked', () => this._client.setEnabled(this._alarm.id, !this._alarm.enabled));
        this.add_child(open);
        this.add_child(toggle);
    }

    update(alarm, now) {
        this._alarm = alarm;
        const s = alarm.schedule;
        this._time.text = Model.alarmTime(s.hour, s.minute ?? 0, this._client.hour12, TR);
        const days = Model.alarmDays(s.weekdays, this._client.firstDay, alarm.fireTime, now, TR);
        // Translators: the second line of a wake-up alarm's row, "Mon–Fri · Get up": %1$s is when it
        // repeats, %2$s its title.
        this._detail.text = C_('alarm row', '%1$s · %2$s').format(days, alarm.title(TR));
        this._switch.state = alarm.enabled;
        if (alarm.enabled)
            this.remove_style_class_name('alarmd-wake-off');
        else
            this.add_style_class_name('alarmd-wake-off');
    }
}

/** A menu item that acts without closing the menu (it opens or closes the alarm form in it). */
class AlarmdFormToggle extends PopupMenu.PopupMenuItem {
    static {
        GObject.registerClass(this);
    }

    constructor(text, onActivate) {
        super(text);
        this._onActivate = onActivate;
    }

    activate() {
        this._onActivate();
    }
}

function formButton(label, onClick, extra = '') {
    const b = new St.Button({label, style_class: `button alarmd-button ${extra}`, can_focus: true});
    b.connect('clicked', onClick);
    return b;
}

/** The form that sets a new wake-up alarm or changes one: its time (in GNOME's 12/24-hour setting), the
 *  days it repeats (in the locale's week), its title and its snooze length. */
class AlarmdAlarmForm extends PopupMenu.PopupMenuSection {
    constructor(client, onDone) {
        super();
        this._client = client;
        this._onDone = onDone;
        this._alarm = null;
        this._pm = false;
        this._days = new Set();
        this._snooze = Model.SNOOZE_MINUTES[0];
        // The section shows itself whenever it has a visible item (PopupMenuBase): hidden is its item hidden.
        const item = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
        item.visible = false;
        this._item = item;
        const box = vertical(new St.BoxLayout({x_expand: true, style_class: 'alarmd-form'}));

        const timeRow = new St.BoxLayout({style_class: 'alarmd-form-row'});
        this._hour = new St.Entry({style_class: 'alarmd-time-entry', can_focus: true, hint_text: '7'});
        this._minute = new St.Entry({style_class: 'alarmd-time-entry', can_focus: true, hint_text: '00'});
        this._meridiem = formButton('', () => {
            this._pm = !this._pm;
            this._sync();
        });
        timeRow.add_child(this._hour);
        timeRow.add_child(new St.Label({text: ':', y_align: Clutter.ActorAlign.CENTER}));
        timeRow.add_child(this._minute);
        timeRow.add_child(this._meridiem);
        box.add_child(timeRow);
        for (const entry of [this._hour, this._minute]) {
            entry.clutter_text.connect('activate', () => this._save());
            entry.clutter_text.connect('text-changed', () => this._setError(''));
        }

        this._dayRow = new St.BoxLayout({style_class: 'alarmd-form-row alarmd-days'});
        this._dayButtons = new Map();
        box.add_child(this._dayRow);
        const quick = new St.BoxLayout({style_class: 'alarmd-form-row'});
        // Translators: a button that selects Monday to Friday (the working days) as the days an alarm repeats.
        quick.add_child(formButton(_('Weekdays'), () => this._setDays(Model.WORKDAYS)));
        // Translators: a button that selects all seven days; also how an alarm that rings daily is listed.
        quick.add_child(formButton(_('Every day'), () => this._setDays(Model.WEEKDAYS)));
        box.add_child(quick);

        this._title = new St.Entry({
            style_class: 'alarmd-entry', can_focus: true, x_expand: true,
            // Translators: the hint in the alarm form's field for the alarm's name.
            hint_text: _('Title (optional)'),
        });
        this._title.clutter_text.connect('activate', () => this._save());
        box.add_child(this._title);

        const snoozeRow = new St.BoxLayout({style_class: 'alarmd-form-row'});
        snoozeRow.add_child(new St.Label({
            // Translators: the label before the snooze lengths (5 min, 10 min, …) in the alarm form: how
            // long Snooze waits, a noun; the button that snoozes is another text.
            text: C_('snooze length', 'Snooze'), y_align: Clutter.ActorAlign.CENTER,
            style_class: 'alarmd-form-label',
        }));
        this._snoozeButtons = Model.SNOOZE_MINUTES.map(minutes => {
            const b = formButton(minutesText(minutes), () => {
                this._snooze = minutes;
                this._sync();
            }, 'alarmd-choice');
            snoozeRow.add_child(b);
            return [minutes, b];
        });
        box.add_child(snoozeRow);

        this._error = new St.Label({text: '', style_class: 'alarmd-error', visible: false});
        box.add_child(this._error);
        const actions = new St.BoxLayout({
            style_class: 'alarmd-form-row', x_align: Clutter.ActorAlign.END,
            x_expand: true,
        });
        this._delete = formButton(C_('button', 'Delete'), () => this._remove());
        actions.add_child(this._delete);
        actions.add_child(formButton(C_('button', 'Save'), () => this._save()));
        box.add_child(actions);
        item.add_child(box);
        this.addMenuItem(item);
    }

    get shown() {
        return this._item.visible;
    }

    // edit() and dismiss(), not open() and close(): a section's parent menu calls those as it opens and
    // closes.
    /** Shows the form: empty for a new alarm, or filled in from `alarm` to change it. */
    edit(alarm) {
        this._alarm = alarm;
        const s = alarm?.schedule ?? {};
        const hour12 = this._client.hour12;
        if (alarm) {
            const h = s.hour ?? 0;
            this._hour.text = String(hour12 ? h % 12 || 12 : h).padStart(hour12 ? 1 : 2, '0');
            this._minute.text = String(s.minute ?? 0).padStart(2, '0');
            this._pm = h >= 12;
            this._title.text = alarm.text('title');
            this._snooze = Math.round(alarm.postAlert / 60) || Model.SNOOZE_MINUTES[0];
        } else {
            this._hour.text = this._minute.text = this._title.text = '';
            this._pm = false;
            this._snooze = Model.SNOOZE_MINUTES[0];
        }
        this._days = new Set(s.weekdays ?? []);
        this._setError('');
        this._delete.visible = alarm !== null;
        // The week in the locale's order (Shell's first day of the week: 0 is Sunday).
        this._dayRow.destroy_all_children();
        this._dayButtons.clear();
        for (const day of Model.weekFrom(this._client.firstDay)) {
            const b = formButton(Model.dayName(day, TR), () => {
                if (!this._days.delete(day))
                    this._days.add(day);
                this._sync();
            }, 'alarmd-choice alarmd-day');
            this._dayRow.add_child(b);
            this._dayButtons.set(day, b);
        }
        this._sync();
        this._item.visible = true;
    }

    dismiss() {
        this._item.visible = false;
        this._alarm = null;
    }

    _setDays(days) {
        this._days = new Set(days);
        this._sync();
    }

    _sync() {
        this._meridiem.visible = this._client.hour12;
        this._meridiem.label = Model.meridiem(this._pm);
        for (const [day, b] of this._dayButtons)
            b.checked = this._days.has(day);
        for (const [minutes, b] of this._snoozeButtons)
            b.checked = minutes === this._snooze;
    }

    _setError(text) {
        this._error.text = text;
        this._error.visible = text !== '';
    }

    async _save() {
        const hour12 = this._client.hour12;
        const t = Model.parseAlarmTime(this._hour.text, this._minute.text, hour12, this._pm);
        if (t.error) {
            this._setError({
                hour: hour12 ? _('Type an hour from 1 to 12') : _('Type an hour from 0 to 23'),
                minute: _('Type a minute from 0 to 59'),
            }[t.error]);
            return;
        }
        const title = this._title.text.trim();
        const config = {
            hour: new GLib.Variant('u', t.hour),
            minute: new GLib.Variant('u', t.minute),
            // The title alarmd keeps and its notification shows: in the user's language.
            title: new GLib.Variant('s', title !== '' ? title : _('Alarm')),
            post_alert: new GLib.Variant('u', this._snooze * 60),
        };
        // alarmd keeps weekdays in the week's order from Monday; an empty list clears a change's days.
        const days = Model.weekFrom('monday').filter(d => this._days.has(d));
        if (days.length > 0 || this._alarm)
            config.weekdays = new GLib.Variant('as', days);
        const error = this._alarm
            ? await this._client.updateAlarm(this._alarm.id, config)
            : await this._client.scheduleAlarm(config);
        if (error)
            this._setError(error);
        else
            this._onDone();
    }

    async _remove() {
        const error = await this._client.cancelAlarm(this._alarm.id);
        if (error)
            this._setError(error);
        else
            this._onDone();
    }
}

/** One alarm on the lock screen: title (or its kind when titles are hidden) and time; when ringing, Stop
 *  and the secondary button. Countdowns are shown, never edited, here. */
class AlarmdLockRow extends St.BoxLayout {
    static {
        GObject.registerClass(this);
    }

    constructor(client) {
        super({style_class: 'alarmd-lock-row', x_expand: true});
        vertical(this);
        this._client = client;
        this._buttonsKey = null;
        let top;
        [top, this._title, this._time] = titleRow('alarmd-lock');
        this.add_child(top);
        this._buttons = new St.BoxLayout({
            style_class: 'alarmd-lock-buttons',
            x_align: Clutter.ActorAlign.CENTER,
            x_expand: true,
        });
        this.add_child(this._buttons);
    }

    _button(label, onClick) {
        const b = new St.Button({label, style_class: 'button alarmd-lock-button', can_focus: true, reactive: true});
        b.connect('clicked', onClick);
        this._buttons.add_child(b);
    }

    update(alarm, now, showTitles) {
        this._title.text = showTitles ? alarm.title(TR) : alarm.kindName(TR);
        const r = Model.clock(alarm.remaining(now));
        switch (alarm.state) {
        case 'alerting':
            this._time.text = alarm.fireTime > 0 ? Model.localTime(alarm.fireTime, now, this._client.hour12, TR) : '';
            break;
        case 'paused':
            this._time.text = _('Paused, %s left').format(r);
            break;
        default:
            this._time.text = r;
        }
        const hex = Model.colorHex(alarm.accentColor);
        this._time.style = alarm.isWarning && hex ? `color: ${hex};` : null;
        this.style_class = alarm.state === 'alerting' ? 'alarmd-lock-row alarmd-lock-ringing' : 'alarmd-lock-row';
        // Buttons only while ringing: Stop and the secondary button (Snooze, or the app's own action).
        const stop = alarm.buttonText('stop_button', TR);
        const secondary = alarm.buttonText('secondary_button', TR);
        const key = alarm.state === 'alerting' ? `${alarm.id}\n${stop}\n${secondary}` : '';
        if (key === this._buttonsKey)
            return;
        this._buttonsKey = key;
        this._buttons.destroy_all_children();
        this._buttons.visible = key !== '';
        if (key === '')
            return;
        const id = alarm.id, app = alarm.appId;
        this._button(stop, () => {
            this._client.callAlarm('Stop', id);
            this._client.activateAppAction(app, alarm.text('stop_action'));
        });
        if (secondary !== '') {
            this._button(secondary, () => {
                if (alarm.text('secondary_button_behavior') !== 'custom')
                    this._client.callAlarm('Countdown', id);
                this._client.activateAppAction(app, alarm.text('secondary_action'));
            });
        }
    }
}

/** The lock screen's part (AlarmKit's Lock Screen alert and Live Activity): above GNOME's clock, what
 *  rings and what counts down. It lives in the layout manager's screen-shield group, above the lock
 *  screen, so it shows while the shield is up and stays under the shield's black until woken. */
class AlarmdLockView extends St.Widget {
    static {
        GObject.registerClass(this);
    }

    // The screen-shield group lays its children out as it likes (stretched, centred): the view fills it
    // and lays nothing out (no layout manager: its card keeps its own size at 0, 0), and moves its card
    // to its place (_place). It takes no input itself; the card's buttons do.
    constructor(client) {
        super({x_expand: true, y_expand: true, reactive: false});
        this._client = client;
        this._rows = new Map();
        this._card = vertical(new St.BoxLayout({style_class: 'alarmd-lock', visible: false}));
        this.add_child(this._card);
        this._group = Main.layoutManager.screenShieldGroup;
        this._group.add_child(this);
        this._card.connect('notify::width', () => this._place());
        this._card.connect('notify::height', () => this._place());
        Main.layoutManager.connectObject('monitors-changed', () => this._place(), this);
    }

    // Placed when its size is known (notify::width, notify::height), by translation: moving it there
    // would ask for a new layout in the middle of the one that sized it (Clutter warns then).
    _place() {
        const m = Main.layoutManager.primaryMonitor;
        if (!m)
            return;
        const card = this._card;
        // GNOME's clock starts a third of the way down (unlockDialog.js): stay above it, below the bar.
        const y = Math.max(Main.panel.height + 12, Math.floor(m.height / 3) - card.height - 12);
        card.translation_x = m.x + Math.floor((m.width - card.width) / 2);
        card.translation_y = m.y + y;
    }

    draw(alarms, now, showTitles) {
        const shown = Model.readingOrder(alarms).filter(a => ['alerting', 'countdown', 'paused'].includes(a.state));
        const seen = new Set();
        shown.forEach((a, index) => {
            seen.add(a.path);
            let row = this._rows.get(a.path);
            if (!row) {
                row = new AlarmdLockRow(this._client);
                this._rows.set(a.path, row);
                this._card.insert_child_at_index(row, index);
            } else {
                this._card.set_child_at_index(row, index);
            }
            row.update(a, now, showTitles);
        });
        for (const [path, row] of this._rows) {
            if (!seen.has(path)) {
                row.destroy();
                this._rows.delete(path);
            }
        }
        this._card.visible = shown.length > 0;
        this._group.set_child_above_sibling(this, null);
    }
}

class AlarmdIndicator extends PanelMenu.Button {
    static {
        GObject.registerClass(this);
    }

    constructor(client) {
        super(0.5, _('Alarms and timers'), false);
        this._client = client;
        const box = new St.BoxLayout({style_class: 'panel-status-menu-box alarmd-panel'});
        // An alarm clock while a wake-up alarm is on, as GNOME's own clock shows one for Clocks' alarms.
        this._alarmIcon = new St.Icon({
            gicon: new Gio.ThemedIcon({names: ALARM_ICON}), style_class: 'system-status-icon',
            visible: false,
        });
        box.add_child(this._alarmIcon);
        this._icon = new St.Icon({icon_name: 'alarm-symbolic', style_class: 'system-status-icon'});
        this._label = new St.Label({text: '', y_align: Clutter.ActorAlign.CENTER, style_class: 'alarmd-label'});
        box.add_child(this._icon);
        box.add_child(this._label);
        this.add_child(box);
        this._box = box;
        this._items = new Map();

        this._next = new PopupMenu.PopupMenuItem('', {reactive: false, style_class: 'alarmd-next'});
        this.menu.addMenuItem(this._next);
        this._alarmsSection = new PopupMenu.PopupMenuSection();
        this.menu.addMenuItem(this._alarmsSection);
        this._empty = new PopupMenu.PopupMenuItem(_('No alarms or timers'), {reactive: false});
        this._alarmsSection.addMenuItem(this._empty);

        this._offLine = new PopupMenu.PopupMenuItem(_('alarmd is not running'), {reactive: false});
        this.menu.addMenuItem(this._offLine);
        this._startItem = new PopupMenu.PopupMenuItem(_('Start alarmd'));
        this._startItem.connect('activate', () => this._client.startService());
        this.menu.addMenuItem(this._startItem);

        this._formToggle = new AlarmdFormToggle(_('New alarm…'), () => {
            if (this._form.shown)
                this._form.dismiss();
            else
                this.openForm(null);
        });
        this.menu.addMenuItem(this._formToggle);
        this._form = new AlarmdAlarmForm(this._client, () => this.menu.close());
        this.menu.addMenuItem(this._form);

        this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem(_('New timer')));
        const quick = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
        const quickBox = new St.BoxLayout({style_class: 'alarmd-quick', x_expand: true});
        for (const minutes of QUICK_MINUTES) {
            const b = new St.Button({
                label: minutesText(minutes),
                style_class: 'button alarmd-button',
                can_focus: true,
                x_expand: true,
            });
            b.connect('clicked', () => {
                this._client.scheduleTimer(minutes * 60);
                this.menu.close();
            });
            quickBox.add_child(b);
        }
        quick.add_child(quickBox);
        this.menu.addMenuItem(quick);

        const entryItem = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
        const entryBox = vertical(new St.BoxLayout({x_expand: true}));
        this._entry = new St.Entry({
            // Translators: the hint in the field that starts a timer of the length typed. Keep the examples
            // as they are: the field reads seconds, or d, h, m and s groups, in any language.
            hint_text: _('Timer… (e.g. 90, 30s, 5m, 1h30m)'),
            can_focus: true,
            x_expand: true,
            style_class: 'alarmd-entry',
        });
        this._entry.clutter_text.connect('activate', () => this._onEntry());
        this._entry.clutter_text.connect('text-changed', () => this._setError(''));
        this._error = new St.Label({text: '', style_class: 'alarmd-error', visible: false});
        this._error.clutter_text.line_wrap = true;
        entryBox.add_child(this._entry);
        entryBox.add_child(this._error);
        entryItem.add_child(entryBox);
        this.menu.addMenuItem(entryItem);

        this.menu.connect('open-state-changed', (menu, open) => {
            if (open) {
                this._setError('');
                this._client.redraw();
            } else {
                this._form.dismiss();
            }
        });
    }

    _setError(text) {
        this._error.text = text;
        this._error.visible = text !== '';
    }

    _onEntry() {
        const parsed = Model.parseDuration(this._entry.text);
        if (parsed.error) {
            const why = {
                // Translators: keep the examples 90, 5m and 1h30m as they are (what the field reads).
                empty: _('Type a duration such as 90, 5m or 1h30m'),
                // Translators: %s is what the user typed into the timer field.
                malformed: _('“%s” is not a duration').format(this._entry.text.trim()),
                zero: _('A timer must be longer than zero'),
                tooLong: _('A timer can be at most five years'),
            }[parsed.error];
            this._setError(why);
            return;
        }
        this._client.scheduleTimer(parsed.seconds);
        this._entry.text = '';
        this._setError('');
        this.menu.close();
    }

    showError(text) {
        this._setError(text);
    }

    /** The alarm form, for a new alarm (null) or to change `alarm`. */
    openForm(alarm) {
        this._form.edit(alarm);
    }

    draw(alarms, running, now) {
        const v = Model.panelView(alarms, running, now, TR, this._client.hour12);
        const next = Model.nextAlarm(running ? alarms : [], now, this._client.hour12, TR);
        this._alarmIcon.visible = next.alarm !== null;
        this._next.visible = next.alarm !== null;
        // Translators: the menu's heading; %s is the next alarm's weekday and time, "Mon 06:45".
        this._next.label.text = _('Next alarm: %s').format(next.text);
        const label = this._label;
        this._box.remove_style_class_name('alarmd-alerting');
        this._box.remove_style_class_name('alarmd-off');
        this._icon.visible = true;
        this._icon.icon_name = 'alarm-symbolic';
        label.style = null;
        switch (v.mode) {
        case 'alerting':
            label.text = v.label;
            this._box.add_style_class_name('alarmd-alerting');
            break;
        case 'countdown':
        case 'warning':
        case 'paused':
            if (v.mode === 'paused')
                this._icon.icon_name = 'media-playback-pause-symbolic';
            else
                this._icon.visible = v.label === '';
            label.text = v.label === '' ? v.time : `${v.label} ${v.time}`;
            if (v.color)
                label.style = `color: ${v.color};`;
            break;
        case 'scheduled':
            label.text = v.time;
            // The alarm clock says it already.
            this._icon.visible = !next.alarm;
            break;
        case 'off':
            label.text = '';
            this._box.add_style_class_name('alarmd-off');
            break;
        default:
            label.text = '';
        }
        label.visible = label.text !== '';

        // The menu: one item per alarm, in reading order, updated in place.
        const seen = new Set();
        const ordered = Model.readingOrder(alarms);
        ordered.forEach((a, index) => {
            seen.add(a.path);
            let item = this._items.get(a.path);
            const Item = isWakeAlarm(a) ? AlarmdWakeItem : AlarmdAlarmItem;
            if (item && !(item instanceof Item)) {
                item.destroy();
                item = null;
            }
            if (!item) {
                item = new Item(this._client, this);
                this._items.set(a.path, item);
                this._alarmsSection.addMenuItem(item, index);
            } else {
                this._alarmsSection.moveMenuItem(item, index);
            }
            item.update(a, now);
        });
        for (const [path, item] of this._items) {
            if (!seen.has(path)) {
                item.destroy();
                this._items.delete(path);
            }
        }
        this._empty.visible = running && ordered.length === 0;
        this._offLine.visible = !running;
        this._startItem.visible = !running;
        return v;
    }
}

/**
 * What GNOME's own lock-screen list may say about alarmd's notifications. alarmd marks its alerts
 * `x-gnome-privacy-scope: system`, so that list names the alarm; with titles hidden while locked they
 * are scoped back to the user, so it says only who sent them and how many. Only notifications of
 * alarmd's own sources are touched (Model.isAlarmdSource: the identity alarmd sends them under), and
 * only those alarmd marked system; each is put back when titles show again and in disable().
 */
class AlarmdLockPrivacy {
    constructor(client, settings) {
        this._client = client;
        this._settings = settings;
        this._sources = new Set();
        this._scoped = new Set();
        this._idles = new Set();
        Main.messageTray.connectObject('source-added', (tray, source) => this._watchSource(source), this);
        for (const source of Main.messageTray.getSources())
            this._watchSource(source);
        this._settings.connectObject(`changed::${TITLES_KEY}`, () => this.sync(), this);
        this.sync();
    }

    destroy() {
        Main.messageTray.disconnectObject(this);
        this._settings.disconnectObject(this);
        for (const source of this._sources)
            source.disconnectObject(this);
        this._sources.clear();
        for (const id of this._idles)
            GLib.source_remove(id);
        this._idles.clear();
        this._restore();
    }

    _watchSource(source) {
        if (this._sources.has(source) || !(source instanceof FdoNotificationDaemonSource))
            return;
        this._sources.add(source);
        source.connectObject(
            'notification-added', (s, n) => this._scope(s, n),
            'destroy', () => this._sources.delete(source),
            this);
    }

    _ownSource(source) {
        return Model.isAlarmdSource(source.app?.get_id() ?? null, source.title ?? '', this._client.alarms);
    }

    _scope(source, n) {
        if (this._settings.get_boolean(TITLES_KEY) || n.privacyScope !== MessageTray.PrivacyScope.SYSTEM ||
            !this._ownSource(source))
            return;
        n.privacyScope = MessageTray.PrivacyScope.USER;
        if (!this._scoped.has(n)) {
            this._scoped.add(n);
            // alarmd's update of an alert ("Snoozed until…", a replaced notification) marks it system
            // again: scope it back. Where the scope is a property, its notification says so, and it is
            // scoped back at once; where it is not (before 46: a setPrivacyScope() method), the update is
            // announced by 'updated' and the scope set after it, so it is scoped back once that is done.
            const again = typeof n.setPrivacyScope === 'function'
                ? ['updated', () => this._later(() => this._scope(source, n))]
                : ['notify::privacy-scope', () => this._scope(source, n)];
            n.connectObject(...again, 'destroy', () => this._scoped.delete(n), this);
        }
        // The lock screen reads the scope when a source's count changes (unlockDialog.js).
        source.countUpdated();
    }

    _later(fn) {
        const id = GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
            this._idles.delete(id);
            fn();
            return GLib.SOURCE_REMOVE;
        });
        this._idles.add(id);
    }

    /** Follows the setting and the mirror (a new alarm's app makes its source alarmd's). */
    sync() {
        if (this._settings.get_boolean(TITLES_KEY)) {
            this._restore();
            return;
        }
        for (const source of this._sources)
            source.notifications.forEach(n => this._scope(source, n));
    }

    _restore() {
        for (const n of this._scoped) {
            n.disconnectObject(this);
            n.privacyScope = MessageTray.PrivacyScope.SYSTEM;
            n.source?.countUpdated();
        }
        this._scoped.clear();
    }
}

/** Mirrors alarmd through signals (ObjectManager, PropertiesChanged, AlarmRemoved, name owner). */
export class AlarmdClient {
    constructor(settings) {
        this._settings = settings;
        this._conn = Gio.DBus.session;
        this._alarms = new Map();
        this._running = false;
        this._subscriptions = [];
        this._tickId = 0;
        // Calls that act (Stop, Schedule, …) live until disable(); the mirror's reads (GetManagedObjects,
        // GetAll) only until the next refresh or alarmd's exit, whose answers would otherwise land on a
        // mirror they no longer describe.
        this._cancellable = new Gio.Cancellable();
        this._mirrorCancellable = new Gio.Cancellable();
        this._indicator = null;
        this._lockView = null;
        this._pointer = null;
        this._ringing = new Set();
        this._apps = '';
        // GNOME's own 12/24-hour setting, which the alarms' times follow.
        this._interface = new Gio.Settings({schema_id: 'org.gnome.desktop.interface'});
        this._interface.connectObject('changed::clock-format', () => this.redraw(), this);
        Main.sessionMode.connectObject('updated', () => this._syncMode(), this);
        this._settings.connectObject(`changed::${TITLES_KEY}`, () => this.redraw(), this);
        this._privacy = new AlarmdLockPrivacy(this, this._settings);
        this._syncMode();

        const sub = (iface, member, path, arg0, handler) => {
            this._subscriptions.push(this._conn.signal_subscribe(BUS_NAME, iface, member, path, arg0,
                Gio.DBusSignalFlags.NONE, (c, sender, objPath, i, m, params) => handler(objPath, params)));
        };
        sub('org.freedesktop.DBus.ObjectManager', 'InterfacesAdded', MANAGER_PATH, null,
            (p, params) => this._onAdded(params));
        sub('org.freedesktop.DBus.ObjectManager', 'InterfacesRemoved', MANAGER_PATH, null,
            (p, params) => this._onRemoved(params));
        sub('org.freedesktop.DBus.Properties', 'PropertiesChanged', null, ALARM_IFACE,
            (p, params) => this._onChanged(p, params));
        sub(MANAGER_IFACE, 'AlarmRemoved', MANAGER_PATH, null,
            (p, params) => this._onAlarmRemoved(params));
        this._watchId = Gio.bus_watch_name_on_connection(this._conn, BUS_NAME, Gio.BusNameWatcherFlags.NONE,
            () => this._onAppeared(), () => this._onVanished());
        this.redraw();
    }

    destroy() {
        // The shell's connection outlives the extension: alarmd would go on addressing it signals.
        if (this._running) {
            this._conn.call(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, 'Unwatch', null, null,
                Gio.DBusCallFlags.NO_AUTO_START, -1, null, null);
        }
        this._cancellable.cancel();
        this._mirrorCancellable.cancel();
        if (this._watchId) {
            Gio.bus_unwatch_name(this._watchId);
            this._watchId = 0;
        }
        for (const id of this._subscriptions)
            this._conn.signal_unsubscribe(id);
        this._subscriptions = [];
        this._stopTick();
        Main.sessionMode.disconnectObject(this);
        this._settings.disconnectObject(this);
        this._interface.disconnectObject(this);
        this._interface = null;
        this._privacy.destroy();
        this._privacy = null;
        this._indicator?.destroy();
        this._indicator = null;
        this._lockView?.destroy();
        this._lockView = null;
        this._pointer?.run_dispose();
        this._pointer = null;
        this._alarms.clear();
        this._settings = null;
    }

    get alarms() {
        return [...this._alarms.values()];
    }

    get hour12() {
        return this._interface.get_string('clock-format') === '12h';
    }

    /** The locale's first day of the week (monday … sunday). */
    get firstDay() {
        return Model.WEEKDAYS[Shell.util_get_week_start()] ?? 'monday';
    }

    /** The top-bar indicator in the user session; the lock-screen view, and nothing else, while locked. */
    _syncMode() {
        const locked = Main.sessionMode.isLocked;
        if (locked && this._indicator) {
            this._indicator.destroy();
            this._indicator = null;
        } else if (!locked && !this._indicator) {
            this._indicator = new AlarmdIndicator(this);
            Main.panel.addToStatusArea('alarmd', this._indicator);
        }
        if (!locked && this._lockView) {
            this._lockView.destroy();
            this._lockView = null;
        } else if (locked && !this._lockView) {
            this._lockView = new AlarmdLockView(this);
        }
        this.redraw();
    }

    /** A dark lock screen lights up when an alarm starts ringing, with or without Do Not Disturb (GNOME's
     *  own lock screen lights for a notification only when banners show). As a user's touch does: a
     *  pointer event from a virtual device of the seat (it does not move the pointer) is user activity,
     *  which lifts the shield's black and has gnome-settings-daemon turn the monitor back on. */
    _wakeScreen() {
        if (!Main.sessionMode.isLocked)
            return;
        if (!this._pointer) {
            // The stage's context gives the backend where the stage has one (48 has, 46 has not);
            // else Clutter's default backend does.
            const backend = global.stage.context?.get_backend() ?? Clutter.get_default_backend();
            const seat = backend.get_default_seat();
            this._pointer = seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
        }
        this._pointer.notify_relative_motion(GLib.get_monotonic_time(), 0, 0);
    }

    /** Drops the mirror's outstanding reads; the next ones start with the returned cancellable. */
    _renewMirror() {
        this._mirrorCancellable.cancel();
        this._mirrorCancellable = new Gio.Cancellable();
        return this._mirrorCancellable;
    }

    _onAppeared() {
        this._running = true;
        this._refresh();
        this.redraw();
    }

    async _refresh() {
        const cancellable = this._renewMirror();
        try {
            // alarmd broadcasts nothing: it addresses its signals to the connections that watch.
            // Watch, then read: a change in between arrives as a signal after the reply.
            await this._conn.call(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, 'Watch', null, null,
                Gio.DBusCallFlags.NO_AUTO_START, -1, cancellable);
            const reply = await this._conn.call(BUS_NAME, MANAGER_PATH, 'org.freedesktop.DBus.ObjectManager',
                'GetManagedObjects', null, new GLib.VariantType('(a{oa{sa{sv}}})'),
                Gio.DBusCallFlags.NO_AUTO_START, -1, cancellable);
            // A newer refresh or alarmd's exit can cancel this one after its reply came and before
            // this continuation runs: then the reply no longer describes alarmd.
            if (cancellable.is_cancelled())
                return;
            const [objects] = reply.recursiveUnpack();
            this._alarms.clear();
            for (const [path, ifaces] of Object.entries(objects)) {
                if (ifaces[ALARM_IFACE])
                    this._alarms.set(path, new Model.Alarm(path, ifaces[ALARM_IFACE]));
            }
            this.redraw();
        } catch (e) {
            if (!isCancelled(e) && !cancellable.is_cancelled())
                this._indicator?.showError(e.message);
        }
    }

    _onVanished() {
        this._running = false;
        this._renewMirror();
        this._alarms.clear();
        this.redraw();
    }

    _onAdded(params) {
        const [path, ifaces] = params.recursiveUnpack();
        if (!ifaces[ALARM_IFACE])
            return;
        this._alarms.set(path, new Model.Alarm(path, ifaces[ALARM_IFACE]));
        this.redraw();
    }

    _onRemoved(params) {
        const [path, ifaces] = params.recursiveUnpack();
        if (ifaces.includes(ALARM_IFACE) && this._alarms.delete(path))
            this.redraw();
    }

    _onAlarmRemoved(params) {
        const [id] = params.recursiveUnpack();
        if (this._alarms.delete(Model.alarmPath(id)))
            this.redraw();
    }

    _onChanged(path, params) {
        const [iface, changed, invalidated] = params.deepUnpack();
        if (iface !== ALARM_IFACE)
            return;
        const alarm = this._alarms.get(path);
        if (!alarm)
            return;
        const values = {};
        for (const [k, v] of Object.entries(changed))
            values[k] = v.recursiveUnpack();
        alarm.apply(values, invalidated);
        this.redraw();
        if (invalidated.length > 0)
            this._refetch(path);
    }

    async _refetch(path) {
        const cancellable = this._mirrorCancellable;
        try {
            const reply = await this._conn.call(BUS_NAME, path, 'org.freedesktop.DBus.Properties', 'GetAll',
                new GLib.Variant('(s)', [ALARM_IFACE]), new GLib.VariantType('(a{sv})'),
                Gio.DBusCallFlags.NO_AUTO_START, -1, cancellable);
            const [props] = reply.recursiveUnpack();
            const alarm = this._alarms.get(path);
            if (alarm && !cancellable.is_cancelled()) {
                alarm.apply(props);
                this.redraw();
            }
        } catch (e) {
            // Gone meanwhile (InterfacesRemoved follows), or cancelled by a refresh, alarmd's exit or
            // disable().
        }
    }

    redraw() {
        const now = GLib.get_real_time();
        const alarms = this.alarms;
        this._indicator?.draw(alarms, this._running, now);
        this._lockView?.draw(alarms, now, this._settings.get_boolean(TITLES_KEY));
        // A new app among the alarms can make another source alarmd's.
        const apps = [...new Set(alarms.map(a => a.appId))].sort().join('\n');
        if (apps !== this._apps) {
            this._apps = apps;
            this._privacy?.sync();
        }
        const ringing = new Set(alarms.filter(a => a.state === 'alerting').map(a => a.path));
        const started = [...ringing].some(p => !this._ringing.has(p));
        this._ringing = ringing;
        if (started)
            this._wakeScreen();
        this._stopTick();
        const delay = this._running ? Model.nextChangeMs(alarms, now) : -1;
        if (delay >= 0) {
            this._tickId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, delay, () => {
                this._tickId = 0;
                this.redraw();
                return GLib.SOURCE_REMOVE;
            });
        }
    }

    _stopTick() {
        if (this._tickId) {
            GLib.source_remove(this._tickId);
            this._tickId = 0;
        }
    }

    /** Calls alarmd's manager; the error's text (null on success) goes to `show`, the menu's line unless
     *  the caller shows it where it was asked (the alarm form). `failed` is the whole sentence that says
     *  what did not happen, translated, with %s for alarmd's reason. */
    async _call(method, params, failed, show = text => this._indicator?.showError(text)) {
        try {
            await this._conn.call(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, method, params, null,
                Gio.DBusCallFlags.NONE, -1, this._cancellable);
            return null;
        } catch (e) {
            const text = isCancelled(e) ? e.message : failed.format(e.message);
            if (!isCancelled(e))
                show(text);
            return text;
        }
    }

    // Translators (the "Could not …" messages): %s is alarmd's reason, as it gave it.

    /** A new wake-up alarm of the user's own (no app id): Schedule('', {hour, minute, weekdays, …}). */
    scheduleAlarm(config) {
        return this._call('Schedule', new GLib.Variant('(sa{sv})', ['', config]), _('Could not set the alarm: %s'),
            () => {});
    }

    updateAlarm(id, config) {
        return this._call('Update', new GLib.Variant('(sa{sv}as)', [id, config, []]),
            _('Could not change the alarm: %s'), () => {});
    }

    cancelAlarm(id) {
        return this._call('Cancel', new GLib.Variant('(s)', [id]), _('Could not delete the alarm: %s'), () => {});
    }

    /** Switches an alarm off (it keeps its schedule and never rings) or on (it rings at its next time). */
    setEnabled(id, enabled) {
        this._call('Update', new GLib.Variant('(sa{sv}as)', [id, {enabled: new GLib.Variant('b', enabled)}, []]),
            enabled ? _('Could not switch the alarm on: %s') : _('Could not switch the alarm off: %s'));
    }

    /** The menu's and the lock screen's buttons: Stop, Countdown (Snooze), Pause, Resume, Cancel. */
    callAlarm(method, id) {
        const failed = {
            Stop: _('Could not stop the alarm: %s'),
            Countdown: _('Could not snooze the alarm: %s'),
            Pause: _('Could not pause the timer: %s'),
            Resume: _('Could not resume the timer: %s'),
            Cancel: _('Could not cancel: %s'),
        }[method];
        this._call(method, new GLib.Variant('(s)', [id]), failed);
    }

    /** An app's own action (docs/API.md: stop_action, secondary_action), as alarmd's notification does:
     *  org.freedesktop.Application.ActivateAction on the app that set the alarm. */
    async activateAppAction(app, action) {
        if (!app || !action)
            return;
        const path = `/${app.replace(/\./g, '/').replace(/-/g, '_')}`;
        try {
            await this._conn.call(app, path, 'org.freedesktop.Application', 'ActivateAction',
                new GLib.Variant('(sava{sv})', [action, [], {}]), null, Gio.DBusCallFlags.NONE, -1,
                this._cancellable);
        } catch (e) {
            if (!isCancelled(e))
                console.warn(`alarmd: ActivateAction('${action}') on ${app} failed: ${e.message}`);
        }
    }

    scheduleTimer(seconds) {
        const config = {
            title: new GLib.Variant('s', _('Timer')),
            duration: new GLib.Variant('u', seconds),
        };
        this._call('Schedule', new GLib.Variant('(sa{sv})', ['', config]), _('Could not start the timer: %s'));
    }

    async startService() {
        try {
            await this._conn.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                'StartServiceByName', new GLib.Variant('(su)', [BUS_NAME, 0]), null, Gio.DBusCallFlags.NONE,
                -1, this._cancellable);
        } catch (e) {
            if (!isCancelled(e))
                this._indicator?.showError(_('Could not start alarmd: %s').format(e.message));
        }
    }
}
