# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

# fish completion for alarmctl (alarmd's command-line client).
# Installed as share/fish/vendor_completions.d/alarmctl.fish. Alarm ids and app ids come from the
# running daemon, through alarmctl's hidden __complete command.

set -l commands list alarm timer update pause resume stop snooze cancel on off watch monitor panel auth status help

# --address from the command line, so that ids come from the daemon the command talks to.
function __alarmctl_query
    # Without alarmctl on PATH, fish would print its own "Unknown command" over the command line.
    command -q alarmctl; or return
    set -l tokens (commandline -opc)
    set -l args
    for i in (seq (count $tokens))
        switch $tokens[$i]
            case --address
                set args --address $tokens[(math $i + 1)]
            case '--address=*'
                set args $tokens[$i]
        end
    end
    command alarmctl $args __complete $argv 2>/dev/null
end

# Lines are "ID<TAB>TITLE": fish shows the title as the description. Ids already given are left out.
function __alarmctl_ids
    set -l given (commandline -opc)
    for line in (__alarmctl_query ids)
        set -l id (string split -m 1 \t -- $line)[1]
        contains -- $id $given; or printf '%s\n' $line
    end
end

function __alarmctl_apps
    __alarmctl_query apps
end

# True when the command line has a command and nothing after it but options (and their values).
function __alarmctl_first_argument
    set -l tokens (commandline -opc)
    set -l valued --address --days --title --sound --sound-file --snooze --pre-alert --id --warn --message --time --duration --format
    set -l seen 0
    set -l skip 0
    for t in $tokens[2..-1]
        if test $skip = 1
            set skip 0
        else if contains -- $t $valued
            set skip 1
        else if not string match -q -- '-*' $t
            set seen (math $seen + 1)
        end
    end
    test $seen = 1
end

# True when the token being completed is --json= and the command, if any, prints JSON.
function __alarmctl_json_mode
    string match -q -- '--json=*' (commandline -ct); or return
    __fish_seen_subcommand_from list status auth monitor; or not __fish_seen_subcommand_from $argv
end

complete -c alarmctl -f

# Before the command.
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -l address -x -d 'Connect to this D-Bus address'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -l no-color -d 'Never colour the output'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -l json -d 'Print JSON instead of text'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the version'
complete -c alarmctl -l help -d 'Print the usage'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a list -d 'List the alarms'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a alarm -d 'Set an alarm'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a timer -d 'Start a timer'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a update -d 'Change an alarm or timer'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a pause -d 'Pause countdowns'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a resume -d 'Resume paused countdowns'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a stop -d 'Stop ringing alarms'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a snooze -d 'Snooze ringing alarms'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a cancel -d 'Remove alarms'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a off -d 'Switch alarms off'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a on -d 'Switch alarms on'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a watch -d 'Live full-screen view'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a monitor -d 'Print one line per event'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a panel -d 'Print lines for a status bar'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a auth -d 'Manage which apps may schedule'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a status -d 'Show the state of alarmd'
complete -c alarmctl -n "not __fish_seen_subcommand_from $commands" -a help -d 'Show usage'

# Options of each command.
complete -c alarmctl -n "__fish_seen_subcommand_from list status auth monitor" -l json -d 'Print JSON instead of text'
# --json's mode goes in the same word (--json=pretty), as in systemctl; --json alone is short. Given
# as an option with values, fish would also offer a bare "--json=" and values after a space.
complete -c alarmctl -n "__alarmctl_json_mode $commands" -a '--json=pretty --json=short --json=off'
complete -c alarmctl -n "__fish_seen_subcommand_from list" -l all -d 'Full ids and more columns'
complete -c alarmctl -n "__fish_seen_subcommand_from alarm update" -l days -x -a 'mon-fri weekdays weekends daily never mon tue wed thu fri sat sun' -d 'Repeat on these weekdays'
complete -c alarmctl -n "__fish_seen_subcommand_from alarm timer update" -l title -x -d 'Title'
complete -c alarmctl -n "__fish_seen_subcommand_from alarm update" -l sound -r -a 'default beacon chime' -d 'Sound'
complete -c alarmctl -n "__fish_seen_subcommand_from alarm update" -l sound-file -r -F -d 'Ring with this WAV or Ogg Vorbis file'
complete -c alarmctl -n "__fish_seen_subcommand_from alarm update" -l snooze -x -d 'Snooze duration'
complete -c alarmctl -n "__fish_seen_subcommand_from alarm update" -l pre-alert -x -d 'Count down this long before ringing'
complete -c alarmctl -n "__fish_seen_subcommand_from alarm timer" -l id -x -d 'Use this id'
complete -c alarmctl -n "__fish_seen_subcommand_from timer update" -l warn -x -d 'Warn when this much time remains'
complete -c alarmctl -n "__fish_seen_subcommand_from timer update" -l message -x -d 'Message shown at the end'
complete -c alarmctl -n "__fish_seen_subcommand_from timer" -l silent -d 'End without ringing'
complete -c alarmctl -n "__fish_seen_subcommand_from update" -l time -x -d 'New time'
complete -c alarmctl -n "__fish_seen_subcommand_from update" -l duration -x -d 'Restart the countdown with this length'
complete -c alarmctl -n "__fish_seen_subcommand_from panel" -l format -x -a 'waybar i3bar polybar plain' -d 'Output format'

# Arguments.
complete -c alarmctl -n "__fish_seen_subcommand_from pause resume stop snooze cancel on off" -a '(__alarmctl_ids)'
complete -c alarmctl -n "__fish_seen_subcommand_from update; and __alarmctl_first_argument" -a '(__alarmctl_ids)'
complete -c alarmctl -n "__fish_seen_subcommand_from auth; and __alarmctl_first_argument" -a list -d 'List the apps and their consent'
complete -c alarmctl -n "__fish_seen_subcommand_from auth; and __alarmctl_first_argument" -a allow -d 'Let an app schedule'
complete -c alarmctl -n "__fish_seen_subcommand_from auth; and __alarmctl_first_argument" -a deny -d 'Refuse an app'
complete -c alarmctl -n "__fish_seen_subcommand_from auth; and __alarmctl_first_argument" -a reset -d 'Ask an app again'
complete -c alarmctl -n "__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from allow deny reset; and not __alarmctl_first_argument" -a '(__alarmctl_apps)'
complete -c alarmctl -n "__fish_seen_subcommand_from help; and __alarmctl_first_argument" -a "$commands"
