# alarmd: `make run` sets up and runs the daemon, `make test` runs the whole test suite.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
MANDIR = $(DATADIR)/man
GNOME_EXT = alarmd@alarmd.org
GNOME_EXT_DIR = $(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(GNOME_EXT)
# install-files takes alarmd and alarmctl from here (install builds them there first).
BIN_DIR ?= $$(swift build -c release --show-bin-path)
INSTALL_STRIP ?= -s
CRASH_ROUNDS ?= 200
FUZZ_SECONDS ?= 60
FUZZ_CALLS ?= 100000

.PHONY: deps build run test deb test-package install-files test-swift test-asan test-tsan valgrind-leaks test-unit-sandbox test-desktop test-gnome gnome-pot bench install install-gnome-extension uninstall clean crash-test fuzz-core fuzz-bus

deps:
	@scripts/install-deps

build: deps
	swift build -c release --product alarmd
	swift build -c release --product alarmctl

run: deps
	scripts/run-alarmd

# The whole suite, as the README's test command: unit and integration tests, the same suite again
# under AddressSanitizer (with LeakSanitizer), then the desktop tests (panels, then GNOME Shell).
test: test-swift test-asan test-desktop test-gnome test-package

# Warnings are errors: the project builds with zero warnings in Swift 6 mode.
test-swift: deps
	swift build --build-tests -Xswiftc -warnings-as-errors
	swift test --skip-build --disable-xctest

# The Swift suite under AddressSanitizer (with LeakSanitizer) or ThreadSanitizer (docs/sanitizers.md),
# each built into a scratch path of its own, so the normal build stays valid; the integration tests run
# the sanitized alarmd, alarmctl and test peer built next to them. Any sanitizer report fails the run.
test-asan: deps
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	scripts/sanitized-test address .build-asan

test-tsan: deps
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	scripts/sanitized-test thread .build-tsan

# alarmd under valgrind: its memory after 100 and after 1,000 operation cycles must not grow. Built
# with the flags of `test`, as the targets below, so that no target rebuilds what another built.
valgrind-leaks: deps
	swift build --product alarmd -Xswiftc -warnings-as-errors
	scripts/valgrind-leaks

# The shipped user unit, run for real by a systemd user manager (needs root; test-swift runs it too).
test-unit-sandbox: deps
	swift build --product alarmd -Xswiftc -warnings-as-errors
	swift build --product alarmd-test-peer -Xswiftc -warnings-as-errors
	tests/unit-sandbox/run

# Desktop tests (tests/desktop): waybar in a headless sway, i3bar and polybar under Xvfb showing
# `alarmctl panel`, screenshotted, read by OCR and clicked. Needs root (it creates the user the desktops
# run as). Builds with the flags of `test`, so neither target rebuilds what the other built; one product
# per `swift build` (given twice, --product builds only the last). ALARMCTL=PATH runs the tests against
# another alarmctl (development only) and skips building it. Screenshots: test-artifacts/desktop/.
test-desktop: deps
	@scripts/install-desktop-deps
	swift build --product alarmd -Xswiftc -warnings-as-errors
	$(if $(ALARMCTL),,swift build --product alarmctl -Xswiftc -warnings-as-errors)
	ALARMCTL="$(ALARMCTL)" tests/desktop/run

# The GNOME Shell extension in a real headless GNOME Shell 43 (as root: it runs the shell as the
# user alarmd-gnome); screenshots go to test-artifacts/gnome-shell/.
test-gnome: deps
	@scripts/install-gnome-deps
	swift build --product alarmd -Xswiftc -warnings-as-errors
	ALARMD="$$(swift build --show-bin-path)/alarmd" tests/desktop/gnome-shell/run

# The Debian packages alarmd and gnome-shell-extension-alarmd (debian/README.source), with their
# .changes and .buildinfo, into DEB_OUT: dpkg-buildpackage would write them beside the tree, in the
# directory other worktrees share. The Swift build goes to .build-deb.
DEB_OUT = build-deb
DEB_NAME = alarmd_$$(dpkg-parsechangelog -S Version)_$$(dpkg-architecture -q DEB_HOST_ARCH)
deb: deps
	rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)
	ALARMD_DEB_OUT=$(CURDIR)/$(DEB_OUT) dpkg-buildpackage -b -us -uc \
		--buildinfo-option=-u$(CURDIR)/$(DEB_OUT) --changes-option=-u$(CURDIR)/$(DEB_OUT) \
		--buildinfo-file=$(CURDIR)/$(DEB_OUT)/$(DEB_NAME).buildinfo --changes-file=$(CURDIR)/$(DEB_OUT)/$(DEB_NAME).changes

# The packages as a user meets them (tests/package/run, as root): lintian, then a clean Debian 12
# root (cached in /var/cache/alarmd-tests) where they are installed, run by a real systemd user
# manager, upgraded, removed and purged. Logs: test-artifacts/package/.
test-package: deb
	tests/package/run $(DEB_OUT)

# Regenerates the extension's translation template from its sources.
gnome-pot:
	xgettext --language=JavaScript --from-code=UTF-8 --keyword=_ --add-comments=Translators \
		--package-name=alarmd --msgid-bugs-address= --output=applets/gnome-shell/po/alarmd.pot \
		applets/gnome-shell/$(GNOME_EXT)/extension.js applets/gnome-shell/$(GNOME_EXT)/model.js

# Figures beside baselines from the same run (bench/RESULTS.md); BENCH_ARGS="--figures 2 --seed 7" etc.
bench: deps
	bench/run $(BENCH_ARGS)

install: deps
	swift build -c release --product alarmd --static-swift-stdlib
	swift build -c release --product alarmctl --static-swift-stdlib
	$(MAKE) install-files
	@# Waking the machine from suspend needs CAP_WAKE_ALARM; best effort (needs root and setcap). The file
	@# capability serves alarmd started without systemd; under alarmd.service see systemd/wake-alarm.conf.
	-command -v setcap >/dev/null && setcap cap_wake_alarm=ep "$(DESTDIR)$(BINDIR)/alarmd" 2>/dev/null || \
		echo "note: alarmd was not given cap_wake_alarm; alarms will not wake the machine (see systemd/alarmd.service)"
	-command -v gtk-update-icon-cache >/dev/null && [ -z "$(DESTDIR)" ] && gtk-update-icon-cache -q -t "$(DATADIR)/icons/hicolor"

# What `install` copies, without building, installing packages or setting capabilities: the Debian
# package (debian/rules) installs its own build from BIN_DIR with it, unstripped (INSTALL_STRIP=) so
# that dh_strip keeps the debug symbols, and without the file capability, which would hide the session
# bus from alarmd (docs in debian/README.source).
install-files: install-gnome-extension
	install -Dm755 $(INSTALL_STRIP) "$(BIN_DIR)/alarmd" "$(DESTDIR)$(BINDIR)/alarmd"
	install -Dm755 $(INSTALL_STRIP) "$(BIN_DIR)/alarmctl" "$(DESTDIR)$(BINDIR)/alarmctl"
	sed 's|/usr/local/bin/alarmd|$(BINDIR)/alarmd|' dbus/org.alarmd.AlarmManager1.service | \
		install -Dm644 /dev/stdin "$(DESTDIR)$(DATADIR)/dbus-1/services/org.alarmd.AlarmManager1.service"
	install -Dm644 dbus/org.alarmd.AlarmManager1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.AlarmManager1.xml"
	install -Dm644 dbus/org.alarmd.Alarm1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.Alarm1.xml"
	sed 's|/usr/local/bin/alarmd|$(BINDIR)/alarmd|' systemd/alarmd.service | \
		install -Dm644 /dev/stdin "$(DESTDIR)$(PREFIX)/lib/systemd/user/alarmd.service"
	install -Dm644 config/alarmd.conf "$(DESTDIR)$(DATADIR)/doc/alarmd/alarmd.conf.example"
	install -Dm644 systemd/wake-alarm.conf "$(DESTDIR)$(DATADIR)/doc/alarmd/wake-alarm.conf"
	for f in icons/hicolor/*/apps/*.svg; do install -Dm644 "$$f" "$(DESTDIR)$(DATADIR)/$$f"; done
	install -d "$(DESTDIR)$(DATADIR)/alarmd/sounds"
	for f in sounds/*.oga; do [ -e "$$f" ] && install -m644 "$$f" "$(DESTDIR)$(DATADIR)/alarmd/sounds/"; done; true
	install -Dm644 docs/man/alarmctl.1 "$(DESTDIR)$(MANDIR)/man1/alarmctl.1"
	install -Dm644 docs/man/alarmd.conf.5 "$(DESTDIR)$(MANDIR)/man5/alarmd.conf.5"
	install -Dm644 docs/man/alarmd.8 "$(DESTDIR)$(MANDIR)/man8/alarmd.8"
	install -Dm644 completions/alarmctl.bash "$(DESTDIR)$(DATADIR)/bash-completion/completions/alarmctl"
	install -Dm644 completions/_alarmctl "$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_alarmctl"
	install -Dm644 completions/alarmctl.fish "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/alarmctl.fish"
	install -Dm644 dbus/alarmd-qt.h "$(DESTDIR)$(PREFIX)/include/alarmd/alarmd-qt.h"

# The GNOME Shell extension, with its translations (then: gnome-extensions enable $(GNOME_EXT)).
install-gnome-extension:
	install -d "$(GNOME_EXT_DIR)"
	install -m644 applets/gnome-shell/$(GNOME_EXT)/metadata.json applets/gnome-shell/$(GNOME_EXT)/extension.js \
		applets/gnome-shell/$(GNOME_EXT)/model.js applets/gnome-shell/$(GNOME_EXT)/stylesheet.css "$(GNOME_EXT_DIR)/"
	for po in applets/gnome-shell/po/*.po; do [ -e "$$po" ] || continue; lang=$$(basename "$$po" .po); \
		install -d "$(GNOME_EXT_DIR)/locale/$$lang/LC_MESSAGES"; \
		msgfmt -o "$(GNOME_EXT_DIR)/locale/$$lang/LC_MESSAGES/alarmd.mo" "$$po"; done

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/alarmd" "$(DESTDIR)$(BINDIR)/alarmctl" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/services/org.alarmd.AlarmManager1.service" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.AlarmManager1.xml" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.Alarm1.xml" \
	      "$(DESTDIR)$(PREFIX)/lib/systemd/user/alarmd.service"
	for f in icons/hicolor/*/apps/*.svg; do rm -f "$(DESTDIR)$(DATADIR)/$$f"; done
	rm -rf "$(DESTDIR)$(DATADIR)/alarmd" "$(DESTDIR)$(DATADIR)/doc/alarmd" "$(GNOME_EXT_DIR)"
	rm -f "$(DESTDIR)$(MANDIR)/man1/alarmctl.1" "$(DESTDIR)$(MANDIR)/man5/alarmd.conf.5" "$(DESTDIR)$(MANDIR)/man8/alarmd.8" \
	      "$(DESTDIR)$(DATADIR)/bash-completion/completions/alarmctl" \
	      "$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_alarmctl" \
	      "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/alarmctl.fish"
	rm -rf "$(DESTDIR)$(PREFIX)/include/alarmd"

clean:
	swift package clean

# Crash consistency (docs/crash-consistency.md): alarmd killed with SIGKILL at seeded instants while
# four clients call it, CRASH_ROUNDS times (default 200), its store checked after every restart.
# CRASH_ARGS="--seed N" replays a run; alarmd-crash --help lists the rest. Built with the flags of
# `test`, so that neither rebuilds what the other built.
crash-test: deps
	swift build --product alarmd -Xswiftc -warnings-as-errors
	swift build --product alarmd-crash -Xswiftc -warnings-as-errors
	"$$(swift build --show-bin-path)/alarmd-crash" --rounds $(CRASH_ROUNDS) $(CRASH_ARGS)

# The engine under libFuzzer with AddressSanitizer (docs/fuzzing.md) for FUZZ_SECONDS (60), starting
# from the committed corpus (fuzz/corpus); new inputs go to .build-fuzz/corpus, a failing one to
# .build-fuzz/crash-* (replay it with `alarmd-fuzz-core FILE` from a normal build). Built into a scratch
# path of its own and linked with lld through a generated toolset: ld.gold fails on libFuzzer's archive.
fuzz-core: deps
	mkdir -p .build-fuzz/corpus
	printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' \
		"$$(dirname "$$(readlink -f "$$(command -v swiftc)")")/ld.lld" > .build-fuzz/toolset.json
	swift build -c release --product alarmd-fuzz-core --scratch-path .build-fuzz --toolset .build-fuzz/toolset.json \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIBFUZZER
	cd .build-fuzz && LSAN_OPTIONS=suppressions=$(CURDIR)/sanitizers/lsan.supp SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1 \
		./release/alarmd-fuzz-core -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -print_final_stats=1 \
		corpus ../fuzz/corpus

# alarmd under FUZZ_CALLS (100,000) hostile calls on a private bus (docs/fuzzing.md): release builds
# of alarmd and alarmd-fuzz-bus, then the run, its checks and its figures (the README's "Reliability").
# FUZZ_BUS_ARGS="--seed N" replays a run; --help lists the options.
fuzz-bus: deps
	swift build -c release --product alarmd
	swift build -c release --product alarmd-fuzz-bus
	"$$(swift build -c release --show-bin-path)/alarmd-fuzz-bus" --calls $(FUZZ_CALLS) --restart-check --rss-growth-kib 8192 \
		$(FUZZ_BUS_ARGS)
