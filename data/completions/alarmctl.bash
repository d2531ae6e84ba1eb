# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

# bash completion for alarmctl (alarmd's command-line client).
# Installed as share/bash-completion/completions/alarmctl; bash-completion loads it on first use.
# Alarm ids and app ids come from the running daemon, through alarmctl's hidden __complete command.

_alarmctl_commands="list alarm timer update pause resume stop snooze cancel on off watch monitor panel auth status help"

# Options that take a value, so that their value is not taken for a command or an argument.
_alarmctl_valued="--address --days --title --sound --sound-file --snooze --pre-alert --id --warn --message --time --duration --format"

_alarmctl_options() {
    case $1 in
        "") echo --address --no-color --json --version --help ;;
        list) echo --json --all --help ;;
        status | auth) echo --json --help ;;
        alarm) echo --days --title --sound --sound-file --snooze --pre-alert --id --help ;;
        timer) echo --title --warn --message --silent --id --help ;;
        update) echo --title --sound --sound-file --snooze --pre-alert --days --time --duration --warn --message --help ;;
        monitor) echo --json --help ;;
        panel) echo --format --help ;;
        *) echo --help ;;
    esac
}

_alarmctl() {
    local cur prev words cword
    # bash splits words at = and : (COMP_WORDBREAKS), which would cut a D-Bus address apart;
    # bash-completion, when loaded, joins them again.
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n =: cur prev words cword
    else
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
        cur=${words[cword]} prev=${words[cword - 1]}
    fi
    local -a global=() args=()
    local cmd="" word title i

    # The command, the arguments typed after it, and --address to pass on to alarmctl itself, so
    # that ids come from the daemon the command line talks to.
    for ((i = 1; i < cword; i++)); do
        word=${words[i]}
        case $word in
            --address) global=(--address "${words[i + 1]}") ;;
            --address=*) global=("$word") ;;
        esac
        if [[ " $_alarmctl_valued " == *" $word "* ]]; then
            ((i++))
        elif [[ $word == -* ]]; then
            :
        elif [[ -z $cmd ]]; then
            cmd=$word
        else
            args+=("$word")
        fi
    done

    if [[ " $_alarmctl_valued " == *" $prev "* ]]; then
        case $prev in
            --format) COMPREPLY=($(compgen -W "waybar i3bar polybar plain" -- "$cur")) ;;
            --days) COMPREPLY=($(compgen -W "mon-fri weekdays weekends daily never mon tue wed thu fri sat sun" -- "$cur")) ;;
            --sound)
                if [[ $cur == /* ]]; then
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=($(compgen -f -- "$cur"))
                else
                    COMPREPLY=($(compgen -W "default beacon chime" -- "$cur"))
                fi
                ;;
            --sound-file)
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
                ;;
            *) COMPREPLY=() ;;
        esac
        return 0
    fi

    # --json's mode goes in the same word (--json=pretty), as in systemctl: the option alone is short.
    if [[ $cur == --json=* ]]; then
        [[ " $(_alarmctl_options "$cmd") " == *" --json "* ]] && COMPREPLY=($(compgen -W "pretty short off" -- "${cur#--json=}"))
        return 0
    fi

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_alarmctl_options "$cmd")" -- "$cur"))
        return 0
    fi

    local line candidates=""
    case $cmd in
        "")
            COMPREPLY=($(compgen -W "$_alarmctl_commands" -- "$cur"))
            return 0
            ;;
        pause | resume | stop | snooze | cancel | on | off | update)
            if [[ $cmd != update || ${#args[@]} -eq 0 ]]; then
                while IFS=$'\t' read -r line title; do
                    # An id already on the line is not offered again.
                    [[ " ${args[*]} " == *" $line "* ]] || candidates+=" $line"
                done < <(command alarmctl "${global[@]}" __complete ids 2>/dev/null)
                COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
                return 0
            fi
            ;;
        auth)
            if [[ ${#args[@]} -eq 0 ]]; then
                COMPREPLY=($(compgen -W "list allow deny reset" -- "$cur"))
                return 0
            fi
            if [[ ${#args[@]} -eq 1 && " allow deny reset " == *" ${args[0]} "* ]]; then
                candidates=$(command alarmctl "${global[@]}" __complete apps 2>/dev/null)
                COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
            fi
            return 0
            ;;
        help)
            [[ ${#args[@]} -eq 0 ]] && COMPREPLY=($(compgen -W "$_alarmctl_commands" -- "$cur"))
            return 0
            ;;
        alarm | timer)
            # TIME or DURATION: nothing to offer until it is typed.
            [[ ${#args[@]} -eq 0 ]] && return 0
            ;;
    esac
    # Nothing positional left to fill: offer the command's options.
    COMPREPLY=($(compgen -W "$(_alarmctl_options "$cmd")" -- "$cur"))
    return 0
}

complete -F _alarmctl alarmctl
