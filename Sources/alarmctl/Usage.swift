// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// `--help` for alarmctl and each of its commands.
enum Usage {
    static let main = """
        usage: alarmctl [OPTIONS…] COMMAND [ARGS…] [OPTIONS…]

        Set, watch, snooze and stop alarms and timers kept by alarmd.

        Commands:
          list [--json] [--all]        alarms and timers (the default command)
          alarm TIME [options]         an alarm at HH:MM (repeating with --days) or at "YYYY-MM-DD HH:MM"
          timer DURATION [options]     a timer: 90, 30s, 25m, 1h30m, 1d12h
          update ID [options]          change an alarm or timer
          pause ID…  resume ID…        pause or resume countdowns
          stop [ID…]  snooze [ID…]     stop or snooze ringing alarms (all that ring, without ids)
          cancel ID…                   remove alarms and timers
          off ID…  on ID…              switch alarms off (kept, never ring) and on again
          watch                        a live full-screen view (q quits)
          monitor [--json]             one line per event as it happens
          panel [--format FORMAT]      a line per change for waybar, i3bar, polybar or plain text
          auth list|allow|deny|reset   which apps may set alarms (auth list takes --json)
          status [--json]              alarmd's version, next alarm, wake support and store
          help [COMMAND]               this text, or a command's

        IDs may be shortened to any unique prefix, as git takes commit ids.
        Options:
          --address ADDRESS   use the bus at ADDRESS instead of the session bus
          --no-color          no colour (also when NO_COLOR is set or output is not a terminal)
          --json[=MODE]       JSON instead of text, for list, status, auth list and monitor: MODE short
                              (one line; what --json alone means), pretty (indented) or off
          --version           print alarmctl's version
          -h, --help          this text; after a command, that command's
        These options go anywhere on the line, before or after the command and its arguments, as
        with systemctl: 'alarmctl list --no-color' is 'alarmctl --no-color list'. A command's own
        options go after the command. '--' ends the options: what follows is an argument even when
        it starts with '-'.

        Exit status: 0 done, 1 alarmd refused, 2 usage error, 3 alarmd not running, 4 not authorized,
        5 no such alarm, 6 ambiguous id prefix.
        """

    static let commands: [String: String] = [
        "list": """
            usage: alarmctl list [--json[=pretty|short]] [--all]

            Lists your alarms and timers: ringing first, then by when they fire.
              --json[=MODE]   the alarms as a JSON array, with every property alarmd reports (as
                              GetAlarms does); short: one line (--json alone), pretty: indented
              --all           full ids and more columns (sound, snooze, pre-alert)
            """,
        "alarm": """
            usage: alarmctl alarm TIME [--days DAYS] [--title TEXT] [--sound SOUND] [--snooze DURATION]
                                       [--pre-alert DURATION] [--id UUID]

            Sets an alarm. TIME is HH:MM in local time (the next one, or every DAYS), or a fixed date
            "YYYY-MM-DD HH:MM" in local time.
              --days DAYS          mon-fri, weekends, daily, mon,wed,fri, fri-mon, never
              --title TEXT         what the alert says (default "Alarm")
              --sound SOUND        default, a sound-theme event id, one of alarmd's sounds, or a file
              --snooze DURATION    how long Snooze waits (default 5m)
              --pre-alert DURATION show a countdown this long before it rings
              --id UUID            your own id instead of a new one
            """,
        "timer": """
            usage: alarmctl timer DURATION [--title TEXT] [--warn DURATION] [--message TEXT] [--silent] [--id UUID]

            Starts a timer. DURATION: 90 (seconds), 30s, 25m, 1h30m, 1d12h.
              --title TEXT        what it is for (default "Timer")
              --warn DURATION     turn to the warning phase when this much is left
              --message TEXT      what to say when it ends (default "Completed")
              --silent            end with a notification instead of ringing
              --id UUID           your own id instead of a new one
            """,
        "update": """
            usage: alarmctl update ID [--title TEXT] [--sound SOUND] [--snooze DURATION] [--pre-alert DURATION]
                                      [--days DAYS] [--time TIME] [--duration DURATION] [--warn DURATION]
                                      [--message TEXT]

            Changes an alarm or timer; what is not named stays. Then prints it as it is now.
              --title TEXT          what the alert says: --title "Pizza (large)"
              --sound SOUND         default, beacon, chime, a sound-theme event or a file: --sound chime
              --snooze DURATION     how long snooze waits, 1s to 1d: --snooze 10m
              --pre-alert DURATION  an alarm counts down this long before it rings, 0 for none: --pre-alert 15m
              --days DAYS           an alarm's repeat days, never for none: --days mon-fri
              --time TIME           an alarm's new time, HH:MM or "YYYY-MM-DD HH:MM": --time 06:30
              --duration DURATION   a timer's new length; it starts counting again: --duration 30m
              --warn DURATION       a timer's warning this long before its end, 0 for none: --warn 2m
              --message TEXT        what a timer says when it ends: --message "Take it out"

            Examples:
              alarmctl update 3f8f --title "Pizza (large)" --duration 30m
              alarmctl update 0b6c --time 06:30 --days weekdays
            """,
        "pause": "usage: alarmctl pause ID…\n\nPauses counting-down timers (and pre-alert countdowns).",
        "resume": "usage: alarmctl resume ID…\n\nResumes paused countdowns.",
        "stop": "usage: alarmctl stop [ID…]\n\nStops ringing alarms: a one-shot goes away, a repeating one waits for its next day.\nWithout ids, every alarm that rings now (for a panel's click).",
        "snooze": "usage: alarmctl snooze [ID…]\n\nSnoozes ringing alarms for their snooze time.\nWithout ids, every alarm that rings now (for a panel's click).",
        "cancel": "usage: alarmctl cancel ID…\n\nRemoves alarms and timers, repeating ones too.",
        "off": "usage: alarmctl off ID…\n\nSwitches alarms off: each keeps its time, days and title and is listed as off, but never\nrings (and never wakes the machine) until switched on. Timers are paused instead.",
        "on": "usage: alarmctl on ID…\n\nSwitches alarms on again: each rings at its next occurrence from now, never a missed one.",
        "watch": """
            usage: alarmctl watch

            A live view of every alarm and timer, redrawn as alarmd announces changes and once a second
            while something counts down. q quits. When output is not a terminal, it prints plain lines
            at each change instead.
            """,
        "monitor": """
            usage: alarmctl monitor [--json[=pretty|short]]

            Prints one line per event as alarmd announces it (added, changed, removed, authorization,
            alarmd started or stopped).
              --json[=MODE]   one JSON object per event: short puts each on one line (--json alone),
                              pretty indents each over several lines
            """,
        "panel": """
            usage: alarmctl panel [--format waybar|i3bar|polybar|plain]

            Prints one line per change for a panel module, and once a second while a countdown shows;
            nothing while idle. waybar: JSON with text, tooltip, class and percentage. i3bar: the
            i3bar protocol; left click stops a ringing alarm (or pauses/resumes a countdown), right
            click snoozes it. polybar: text with colour and click actions. Exits when its output closes.
            """,
        "auth": """
            usage: alarmctl auth list [--json[=pretty|short]]
                   alarmctl auth allow APP | deny APP | reset APP

            Shows or decides which apps may set alarms. reset makes alarmd ask the user again.
              --json[=MODE]   auth list as one JSON object, app id → authorized, denied or
                              notDetermined; short: one line (--json alone), pretty: indented
            """,
        "status": """
            usage: alarmctl status [--json[=pretty|short]]

            Shows whether alarmd is running, its version, the next alarm, whether alarms can wake the
            machine, where the alarms are stored and how many there are, and, when alarmd had to set a
            damaged store aside, why, where it is kept and how to get its alarms back. Exits 3 when
            alarmd is not running.
              --json[=MODE]   the same as one JSON object (keys in alarmctl(1)): running, version,
                              next_fire_usec, next_alarm, wake_supported, store_path, alarms,
                              counting_down, ringing, store_recovery; short: one line, pretty: indented
            """,
        "help": "usage: alarmctl help [COMMAND]",
    ]
}
