# alarmd: `make run` sets up and runs the daemon, `make test` runs the whole test suite.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
MANDIR = $(DATADIR)/man

.PHONY: deps build run test bench install uninstall clean

deps:
	@scripts/install-deps

build: deps
	swift build -c release --product alarmd
	swift build -c release --product alarmctl

run: deps
	scripts/run-alarmd

# Warnings are errors: the project builds with zero warnings in Swift 6 mode.
test: deps
	swift build --build-tests -Xswiftc -warnings-as-errors
	swift test --skip-build --disable-xctest

bench: deps
	bench/run

install: deps
	swift build -c release --product alarmd --static-swift-stdlib
	swift build -c release --product alarmctl --static-swift-stdlib
	install -Dm755 -s "$$(swift build -c release --show-bin-path)/alarmd" "$(DESTDIR)$(BINDIR)/alarmd"
	install -Dm755 -s "$$(swift build -c release --show-bin-path)/alarmctl" "$(DESTDIR)$(BINDIR)/alarmctl"
	@# Waking the machine from suspend needs CAP_WAKE_ALARM; best effort (needs root and setcap).
	-command -v setcap >/dev/null && setcap cap_wake_alarm=ep "$(DESTDIR)$(BINDIR)/alarmd" 2>/dev/null || \
		echo "note: alarmd was not given cap_wake_alarm; alarms will not wake the machine (see systemd/alarmd.service)"
	sed 's|/usr/local/bin/alarmd|$(BINDIR)/alarmd|' dbus/org.alarmd.AlarmManager1.service | \
		install -Dm644 /dev/stdin "$(DESTDIR)$(DATADIR)/dbus-1/services/org.alarmd.AlarmManager1.service"
	install -Dm644 dbus/org.alarmd.AlarmManager1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.AlarmManager1.xml"
	install -Dm644 dbus/org.alarmd.Alarm1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.Alarm1.xml"
	sed 's|/usr/local/bin/alarmd|$(BINDIR)/alarmd|' systemd/alarmd.service | \
		install -Dm644 /dev/stdin "$(DESTDIR)$(PREFIX)/lib/systemd/user/alarmd.service"
	install -Dm644 config/alarmd.conf "$(DESTDIR)$(DATADIR)/doc/alarmd/alarmd.conf.example"
	install -d "$(DESTDIR)$(DATADIR)/alarmd/sounds"
	for f in sounds/*.oga; do [ -e "$$f" ] && install -m644 "$$f" "$(DESTDIR)$(DATADIR)/alarmd/sounds/"; done; true
	install -Dm644 docs/man/alarmctl.1 "$(DESTDIR)$(MANDIR)/man1/alarmctl.1"
	install -Dm644 docs/man/alarmd.conf.5 "$(DESTDIR)$(MANDIR)/man5/alarmd.conf.5"
	install -Dm644 docs/man/alarmd.8 "$(DESTDIR)$(MANDIR)/man8/alarmd.8"
	install -Dm644 completions/alarmctl.bash "$(DESTDIR)$(DATADIR)/bash-completion/completions/alarmctl"
	install -Dm644 completions/_alarmctl "$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_alarmctl"
	install -Dm644 completions/alarmctl.fish "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/alarmctl.fish"
	install -Dm644 dbus/alarmd-qt.h "$(DESTDIR)$(PREFIX)/include/alarmd/alarmd-qt.h"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/alarmd" "$(DESTDIR)$(BINDIR)/alarmctl" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/services/org.alarmd.AlarmManager1.service" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.AlarmManager1.xml" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.Alarm1.xml" \
	      "$(DESTDIR)$(PREFIX)/lib/systemd/user/alarmd.service"
	rm -rf "$(DESTDIR)$(DATADIR)/alarmd" "$(DESTDIR)$(DATADIR)/doc/alarmd"
	rm -f "$(DESTDIR)$(MANDIR)/man1/alarmctl.1" "$(DESTDIR)$(MANDIR)/man5/alarmd.conf.5" "$(DESTDIR)$(MANDIR)/man8/alarmd.8" \
	      "$(DESTDIR)$(DATADIR)/bash-completion/completions/alarmctl" \
	      "$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_alarmctl" \
	      "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/alarmctl.fish"
	rm -rf "$(DESTDIR)$(PREFIX)/include/alarmd"

clean:
	swift package clean
