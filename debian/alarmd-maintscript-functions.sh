# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

# Shared by alarmd.postinst, .prerm and .postrm (debian/rules pastes it in at #ALARMD_FUNCTIONS#).
#
# debhelper compat 13 generates no start, restart or stop of user units (dh_installsystemduser does
# that from compat 14 on), and deb-systemd-invoke --user reaches user managers through
# `systemctl --machine UID@`, which needs systemd as PID 1. These functions find the running user
# managers by their sockets instead, and call systemctl --user as each manager's user.

# The runtime directories of the running systemd user managers.
user_managers() {
	command -v systemctl >/dev/null || return 0
	for dir in /run/user/*; do
		if [ -S "$dir/systemd/private" ]; then echo "$dir"; fi
	done
}

# user_systemctl DIR ARGS...: `systemctl --user ARGS` in the manager of DIR, as its user.
user_systemctl() {
	dir=$1
	shift
	uid=${dir##*/}
	gid=$(id -g "$uid" 2>/dev/null) || return 1
	timeout 60 setpriv --reuid="$uid" --regid="$gid" --init-groups \
		env -i XDG_RUNTIME_DIR="$dir" PATH=/usr/sbin:/usr/bin:/sbin:/bin systemctl --user "$@"
}

# The alarmd processes whose executable is one of the paths given (as /proc/PID/exe reads).
alarmd_pids() {
	for exe in /proc/[0-9]*/exe; do
		target=$(readlink "$exe" 2>/dev/null) || continue
		for want in "$@"; do
			if [ "$target" = "$want" ]; then
				pid=${exe#/proc/}
				echo "${pid%/exe}"
			fi
		done
	done
}

# Ends those processes, alarmd started by D-Bus activation without systemd among them: SIGTERM once
# each (alarmd then closes its store), SIGKILL to whatever still runs after 10 s (the store survives
# that as well: it is SQLite in WAL mode). The alarms stay in the user's store.
stop_alarmd() {
	sent=" "
	for _ in $(seq 100); do
		pids=$(alarmd_pids "$@")
		[ -n "$pids" ] || return 0
		for pid in $pids; do
			case "$sent" in
			*" $pid "*) ;;
			*) kill -TERM "$pid" 2>/dev/null || true; sent="$sent$pid " ;;
			esac
		done
		sleep 0.1
	done
	# shellcheck disable=SC2046
	kill -KILL $(alarmd_pids "$@") 2>/dev/null || true
}
