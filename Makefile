# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

# alarmd: `make run` sets up and runs the daemon, `make test` runs the whole test suite.
# `make` (as yourself) builds alarmd and alarmctl; `sudo make install` then installs what it built,
# needing no Swift toolchain on root's PATH (sudo's secure_path has none).
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
MANDIR = $(DATADIR)/man
GNOME_EXT = alarmd@alarmd.org
GNOME_EXT_DIR = $(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(GNOME_EXT)
# The extension comes in two variants from one source (applets/gnome-shell/assemble): 43 in GNOME Shell
# 43's legacy imports, 45 in the ES modules of 45 and later; each variant's metadata.json lists the Shell
# versions it is offered to, the ones a suite runs (43; 46, 48, 50 and 51). Installed: the one for the
# gnome-shell here (`gnome-shell --version`, as `assemble --variant` maps it), 45 where there is none;
# GNOME_SHELL_VARIANT=43|45 chooses (a package built for another release than the build machine's).
GNOME_SHELL_VARIANT ?= $(shell applets/gnome-shell/assemble --variant "$$(gnome-shell --version 2>/dev/null)")
# The KDE Plasma applet (applets/plasma): its CMake build, warnings as errors: for Plasma 5.27 here, for
# Plasma 6 in the Debian 13 build root (applets/plasma/README.md).
PLASMA_BUILD = .build-plasma
PLASMA6_BUILD = .build-plasma6
PLASMA_APPLET = org.alarmd.plasmoid
# Qt's own QML directory, where the applet's plugin goes (outside PREFIX, where Plasma looks for it).
QT_QML_DIR = $(shell qmake -query QT_INSTALL_QML 2>/dev/null || qtpaths --query QT_INSTALL_QML 2>/dev/null)
CRASH_ROUNDS ?= 200
FUZZ_SECONDS ?= 60
FUZZ_CALLS ?= 100000

# The toolchain: the one on PATH, else where the README's requirements put it.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# The release build users install, with the Swift runtime linked in (no toolchain needed to run it),
# in a scratch path of its own: the debug, sanitizer and benchmark builds never replace what
# `make install` takes. BUILT=DIR installs binaries from elsewhere (tests, debian/rules).
RELEASE_SCRATCH = .build-release
RELEASE = SWIFT=$(SWIFT) scripts/swift-release $(RELEASE_SCRATCH)
BUILT ?= $(RELEASE_SCRATCH)/release
# The extension's compiled translations, made by `make` so that install needs no gettext.
LOCALE_BUILT = $(RELEASE_SCRATCH)/locale
# `install -s` strips; the Debian package passes INSTALL_STRIP= so that dh_strip keeps the debug symbols.
INSTALL_STRIP ?= -s
# Tests and tools build with zero warnings in Swift 6 mode. The debug builds of the targets below all
# go through SWIFT_BUILD, with the same flags, so that no target rebuilds what another built (the
# sanitizer, fuzzing and release builds have scratch paths and flags of their own).
STRICT = -Xswiftc -warnings-as-errors
SWIFT_BUILD = $(SWIFT) build $(STRICT)
# Package.swift declares the tools (bench, crash harness, fuzzers, zone oracle) only with ALARMD_TOOLS=1:
# `swift build --build-tests` alone builds what the unit and integration tests run, and every build of
# a tool, or of the checks that run them, goes through TOOLS.
TOOLS = ALARMD_TOOLS=1

.PHONY: all deps build-deps run-deps build run install-check install-files install-payload deb deb13 test-package test-package13 test-flatpak test lint-reuse test-swift test-unit test-integration test-checks test-tools test-asan test-tsan valgrind-leaks test-unit-sandbox test-desktop test-gnome test-gnome48 test-gnome46 test-gnome50 test-gnome51 test-next lint-gnome gnome-pot bench docs install install-gnome-extension uninstall clean crash-test fuzz-core fuzz-bus plasma-applet install-plasma-applet install-plasma-applet-if-built test-plasma plasma-pot plasma6-applet plasma6-applet-here test-plasma6 test-plasma67 test-wake test-translations pot alarmd-pot locale

# A bare `make` builds, as the README's "From source" says.
all: build

# Only what each step needs: building pulls in no test tool-chain (scripts/install-deps says which is which).
# The entry points install what they need: `make`/`make build`, `make run`, `make test`, `make deb`.
# The targets `make test` runs, and the other test and tool targets below, install nothing (no
# sudo apt-get in the middle of a run): install everything they need once with `make deps`
# (scripts/install-deps all: the build, run and test packages; then the desktop tests' and GNOME
# Shell's). Each script is idempotent: with everything installed it does nothing, offline.
deps:
	@scripts/install-deps all
	@scripts/install-desktop-deps
	@scripts/install-gnome-deps
	@scripts/install-plasma-deps
build-deps:
	@scripts/install-deps build
run-deps:
	@scripts/install-deps run

build: build-deps locale
	@command -v "$(SWIFT)" >/dev/null || { echo "make: no Swift toolchain ($(SWIFT)): install Swift 6 (README, Requirements) and put its usr/bin on PATH" >&2; exit 1; }
	$(RELEASE) --product alarmd
	$(RELEASE) --product alarmctl
	@echo "Built $(BUILT)/alarmd and $(BUILT)/alarmctl. Install them with: sudo make install"

# The compiled translations of alarmd's domain (po/) and the GNOME extension's (its own domain,
# gnome-shell-extension-alarmd), laid out as share/locale is (LL/LC_MESSAGES/DOMAIN.mo): `make run` and
# test-gnome48 point alarmd at them (ALARMD_LOCALEDIR), install-gnome-extension copies the extension's.
locale:
	@for po in po/*.po; do [ -e "$$po" ] || continue; lang=$$(basename "$$po" .po); \
		mkdir -p "$(LOCALE_BUILT)/$$lang/LC_MESSAGES"; msgfmt -c -o "$(LOCALE_BUILT)/$$lang/LC_MESSAGES/alarmd.mo" "$$po" || exit 1; done
	@for po in applets/gnome-shell/po/*.po; do [ -e "$$po" ] || continue; lang=$$(basename "$$po" .po); \
		mkdir -p "$(LOCALE_BUILT)/$$lang/LC_MESSAGES"; msgfmt -o "$(LOCALE_BUILT)/$$lang/LC_MESSAGES/gnome-shell-extension-alarmd.mo" "$$po" || exit 1; done

# alarmd from the checkout on the session bus (a private one if there is none), with the checkout's
# sounds and icons, and alarmctl built beside it.
run: build run-deps
	ALARMD_BIN="$(BUILT)/alarmd" ALARMCTL_BIN="$(BUILT)/alarmctl" scripts/run-alarmd

# The whole suite, as the README's test command: the licensing lint, unit and integration tests, the
# same suite again under AddressSanitizer (with LeakSanitizer), the unit and integration layers under
# ThreadSanitizer (alarmd's event loop, sound thread, store writer and libpulse's thread), then the
# desktop tests (panels, GNOME Shell 43 here, 48 in a Debian 13 root, 50 in a forky root and 51 in a sid
# root, Plasma), the Debian packages' (Debian 12, then Debian 13), a real Flatpak app, and the wake from
# suspend. Installs what they need once, first, then runs them in that order.
TEST_TARGETS = lint-reuse test-translations docs test-swift test-asan test-tsan test-desktop test-gnome test-gnome48 test-gnome50 test-gnome51 test-plasma test-plasma6 test-plasma-lockscreen test-phosh test-package test-package13 test-flatpak test-wake
# Each target's time is printed as it ends and all of them again at the end, so a log of which only
# the tail is kept still says where the time went (and which target failed).
test: deps
	@times=""; for t in $(TEST_TARGETS); do \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory $$t; status=$$?; \
		took=$$(( $$(date +%s) - start )); times="$$times $$t:$${took}s"; \
		echo "make test: $$t took $$took s"; \
		if [ $$status -ne 0 ]; then echo "make test: $$t FAILED; times:$$times"; exit $$status; fi; \
	done; echo "make test: every target passed; times:$$times"

# Seconds, so first: every file states its licence (REUSE), and the packages' debian/copyright gives each the same.
lint-reuse:
	reuse lint
	scripts/check-copyright

# Warnings are errors: the project builds with zero warnings in Swift 6 mode. test-swift runs every
# layer of the Swift suite (docs/HACKING.md, Tests): the unit tests, the daemon's integration tests and
# the project's checks, whose tools the build includes (TOOLS); each layer alone below.
UNIT_TESTS = AlarmCoreTests|AlarmClientTests|CrashModelTests|DaemonTests
test-swift:
	$(TOOLS) $(SWIFT_BUILD) --build-tests
	$(SWIFT) test --skip-build --disable-xctest

test-unit:
	$(SWIFT_BUILD) --build-tests
	$(SWIFT) test --skip-build --disable-xctest --filter '^($(UNIT_TESTS))\.'

test-integration:
	$(SWIFT_BUILD) --build-tests
	$(SWIFT) test --skip-build --disable-xctest --filter '^IntegrationTests\.'

test-checks:
	$(SWIFT_BUILD) --build-tests
	$(SWIFT) test --skip-build --disable-xctest --filter '^ProjectChecks\.'

test-tools:
	$(TOOLS) $(SWIFT_BUILD) --build-tests
	$(SWIFT) test --skip-build --disable-xctest --filter '^ToolChecks\.'

# The Swift suite under AddressSanitizer (with LeakSanitizer) or ThreadSanitizer (docs/sanitizers.md),
# each built into a scratch path of its own, so the normal build stays valid; the integration tests run
# the sanitized alarmd, alarmctl and test peer built next to them. Any sanitizer report fails the run,
# the daemon's as much as the test runner's. ThreadSanitizer runs the layers where threads meet: the
# unit tests (DaemonTests drive the store writer and its checkpoints) and the integration tests (alarmd
# ringing into real PulseAudio and PipeWire, its libpulse thread, a sound backend that hangs); neither the
# project's checks (documents and packaging, run by test-swift and test-asan) nor the tools, which it
# leaves out of the build too (no TOOLS), so that it costs about 4 minutes warm (docs/sanitizers.md).
TSAN_TESTS = $(UNIT_TESTS)|IntegrationTests
test-asan:
	$(TOOLS) $(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	scripts/sanitized-test address .build-asan

test-tsan:
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	scripts/sanitized-test thread .build-tsan --filter '^($(TSAN_TESTS))\.'

# alarmd under valgrind: its memory after 100 and after 1,000 operation cycles must not grow.
valgrind-leaks:
	$(SWIFT_BUILD) --product alarmd
	scripts/valgrind-leaks

# The shipped user unit, run for real by a systemd user manager (needs root; test-swift runs it too).
test-unit-sandbox:
	$(SWIFT_BUILD) --product alarmd
	$(SWIFT_BUILD) --product alarmd-test-peer
	Tests/unit-sandbox/run

# Desktop tests (Tests/desktop): waybar in a headless sway, i3bar and polybar under Xvfb showing
# `alarmctl panel`, screenshotted, read by OCR and clicked. Needs root (it creates the user the desktops
# run as). One product per `swift build` (given twice, --product builds only the last). ALARMCTL=PATH
# runs the tests against another alarmctl (development only) and skips building it. Screenshots:
# test-artifacts/desktop/. Its packages: scripts/install-desktop-deps (part of `make deps`).
test-desktop:
	$(SWIFT_BUILD) --product alarmd
	$(if $(ALARMCTL),,$(SWIFT_BUILD) --product alarmctl)
	ALARMCTL="$(ALARMCTL)" Tests/desktop/run

# The GNOME Shell extension in a real headless GNOME Shell 43 (as root: it runs the shell as the
# user alarmd-gnome); screenshots go to test-artifacts/gnome-shell/. Its packages:
# scripts/install-gnome-deps (part of `make deps`).
test-gnome: lint-gnome
	$(SWIFT_BUILD) --product alarmd
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" Tests/desktop/gnome-shell/run

# The 45+ variant in a real headless GNOME Shell 48, in a Debian 13 (trixie) root made by mmdebstrap
# and cached in /var/cache/alarmd-tests (Tests/lib/debian_root.py: about 4 minutes and 470 MB of
# downloads the first time, a 1.9 GB tarball; then about 2 minutes a run), with the checks of test-gnome
# and more (as root). The host's debug alarmd runs in the root, the toolchain's runtime bound read-only
# at /opt/swift. Then a short pass in Chinese and one in Vietnamese (alarmd and the shell started again
# in the language, alarmd with the translations `locale` compiles). Screenshots: test-artifacts/gnome-shell-48/.
test-gnome48: lint-gnome locale
	$(SWIFT_BUILD) --product alarmd
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" ALARMD_LOCALEDIR="$(LOCALE_BUILT)" Tests/desktop/gnome-shell/run-root trixie

# The same in GNOME Shell 46 (Ubuntu 24.04 LTS's; in no Debian suite): mutter 46.9 and gnome-shell 46.10
# built from source into a prefix by Tests/desktop/gnome-shell/gnome46/build.py (its doc says where the
# sources come from) in a Debian 13 build root: about 4 minutes the first time (the 1.4 GB build root in
# 100 s, then 150 s of compiling with two jobs), then a 30 MB tarball cached in /var/cache/alarmd-tests;
# run in the Debian 13 root of test-gnome48 (about 90 s). Not in `make test`: a fresh machine's whole
# run took 46 minutes with it (41 without; the budget is about 45). Screenshots and the build log:
# test-artifacts/gnome-shell-46/.
test-gnome46: lint-gnome
	$(SWIFT_BUILD) --product alarmd
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" Tests/desktop/gnome-shell/run-root gnome46

# The same in GNOME Shell 50, in a Debian forky (testing) root (about 4.5 minutes and a 2.2 GB tarball
# the first time). Screenshots: test-artifacts/gnome-shell-50/.
test-gnome50: lint-gnome
	$(SWIFT_BUILD) --product alarmd
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" Tests/desktop/gnome-shell/run-root forky

# The same in GNOME Shell 51, in a Debian sid (unstable) root of GNOME alone (about 1.5 minutes and a
# 1.2 GB tarball the first time): Arch's and Fedora 45's Shell, and forky's once sid's GNOME migrates.
# In `make test` since it passed three fresh runs in a row. Screenshots: test-artifacts/gnome-shell-51/.
test-gnome51: lint-gnome
	$(SWIFT_BUILD) --product alarmd
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" Tests/desktop/gnome-shell/run-root sid

# alarmd on Phosh, the phone shell (issue #38): Phosh 0.46, phoc, feedbackd 0.8.2 and gsd-power headless in a
# Debian 13 root of their own (cached in /var/cache/alarmd-tests as phosh-trixie-*: about 2 minutes and a
# 0.7 GB tarball the first time), as root; the host's debug alarmd, D-Bus-activated as the phone's user, and
# alarmctl: a timer on the locked phone lights the screen, shows Stop and Snooze on the lock screen, a tap on
# Stop ends it and its feedbackd feedback and the phone stays locked; the silent profile; feedbackd's
# allow-list; no feedbackd. In `make test`. Screenshots and logs: test-artifacts/phosh-46/
# (lockscreen-alarm.png: the picture of a ringing alarm on the lock screen the README shows).
.PHONY: test-phosh
test-phosh: locale
	$(SWIFT_BUILD) --product alarmd
	$(SWIFT_BUILD) --product alarmctl
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" ALARMCTL="$$($(SWIFT) build --show-bin-path)/alarmctl" \
		ALARMD_LOCALEDIR="$(LOCALE_BUILT)" Tests/desktop/phosh/run-root trixie

# The same with forky's Phosh 0.58 (a root of its own, phosh-forky-*; in test-next). Screenshots and logs:
# test-artifacts/phosh-next/.
.PHONY: test-phosh-next
test-phosh-next: locale
	$(SWIFT_BUILD) --product alarmd
	$(SWIFT_BUILD) --product alarmctl
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" ALARMCTL="$$($(SWIFT) build --show-bin-path)/alarmctl" \
		ALARMD_LOCALEDIR="$(LOCALE_BUILT)" Tests/desktop/phosh/run-root forky

# What is next: the suites of the desktops Debian testing and unstable bring. A suite joins `make test`
# once it passes three fresh runs in a row, as GNOME Shell 50's (test-gnome50) and 51's did.
test-next: test-plasma67 test-plasma-lockscreen67 test-phosh-next

# The KDE Plasma applet (applets/plasma/README.md): the QML package and its C++ QML plugin, built with
# CMake and extra-cmake-modules into $(PLASMA_BUILD); the D-Bus proxies are generated from dbus/*.xml.
# Zero warnings: CMakeLists.txt builds with -Werror, and CMake's own warnings fail the build too.
# Its packages: scripts/install-plasma-deps (part of `make deps`).
# PLASMA_CMAKE_FLAGS: more CMake options, e.g. PLASMA6_CMAKE_FLAGS.
plasma-applet:
	@cmake -S applets/plasma -B $(PLASMA_BUILD) -Wdev -Werror=dev -DCMAKE_BUILD_TYPE=RelWithDebInfo $(PLASMA_CMAKE_FLAGS) \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) -DKDE_INSTALL_USE_QT_SYS_PATHS=ON > $(PLASMA_BUILD).log 2>&1 \
		|| { cat $(PLASMA_BUILD).log >&2; exit 1; }
	@if grep -q "CMake Warning" $(PLASMA_BUILD).log; then cat $(PLASMA_BUILD).log >&2; echo "plasma-applet: cmake warned" >&2; exit 1; fi
	cmake --build $(PLASMA_BUILD) -j2

# Installs the applet `make plasma-applet` built (and builds nothing, as `make install`): the package into
# $(PREFIX)/share/plasma/plasmoids/$(PLASMA_APPLET), the plugin into the system QML directory (Qt's own, as
# qmake reports it; under DESTDIR), its translations. `make install` takes it along only when it was built,
# so that installing alarmd needs no Qt or KDE development packages; the Debian package always builds it.
PLASMA_PLUGIN = $(PLASMA_BUILD)/qml/org/alarmd/plasmoid/private/libalarmdplasmoidplugin.so
install-plasma-applet:
	@[ -e $(PLASMA_PLUGIN) ] || { echo "make install-plasma-applet: the applet is not built. Run \`make plasma-applet\` first, as yourself." >&2; exit 1; }
	DESTDIR="$(DESTDIR)" cmake --install $(PLASMA_BUILD) --prefix "$(PREFIX)"

install-plasma-applet-if-built:
	@if [ -e $(PLASMA_PLUGIN) ]; then $(MAKE) --no-print-directory install-plasma-applet; \
	else echo "make install: the Plasma applet is not built (make plasma-applet): not installing it"; fi

# The applet in a real Plasma 5.27 under Xvfb with kwin_x11: plasmawindowed, then a plasmashell panel, beside
# the real alarmd on a private bus (as root: it runs Plasma as the user alarmd-plasma). Screenshots go to
# test-artifacts/plasma/. Its packages: scripts/install-plasma-deps (part of `make deps`). First the
# plugin's own tests (ctest): the client rules' cases of Tests/cases/client-rules.json on AlarmdClient.
test-plasma: plasma-applet
	ctest --test-dir $(PLASMA_BUILD) --output-on-failure
	$(SWIFT_BUILD) --product alarmd
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" PLASMA_BUILD="$(PLASMA_BUILD)" Tests/desktop/plasma/run

# The Plasma 6 applet, built in the cached Debian 13 (trixie) build root (scripts/build-in-root: Qt 6.8,
# KF 6.13, libplasma 6.3) into $(PLASMA6_BUILD), with the same zero-warning rules; then staged there as
# `cmake --install` puts it under /usr ($(PLASMA6_BUILD)/stage), which the Plasma 6 suites copy into their
# roots. Needs root (the build root's namespaces).
# plasma6-applet-here builds it where Plasma 6 is (the Debian 13 package's build does).
PLASMA6_CMAKE_FLAGS = -DPLASMA6=ON -DKDE_INSTALL_LIBEXECDIR=libexec
plasma6-applet:
	scripts/build-in-root trixie $(PLASMA6_BUILD) -- sh -c 'make --no-print-directory plasma6-applet-here PLASMA_BUILD=/out \
		PREFIX=/usr && rm -rf /out/stage && DESTDIR=/out/stage cmake --install /out > /out/install.log'
plasma6-applet-here:
	@$(MAKE) --no-print-directory plasma-applet PLASMA_CMAKE_FLAGS="$(PLASMA6_CMAKE_FLAGS)"

# The Plasma 6 applet in a real Plasma 6.3 (Debian 13, trixie) under Xvfb with kwin_x11, in the cached desktop
# root (Tests/desktop/plasma/run-root, as root): the checks of test-plasma, in plasmawindowed and a plasmashell
# panel, and Plasma 6's own (a ringing alarm opens the popup under Do Not Disturb; the lock-screen alert
# while the screen is locked). Screenshots: test-artifacts/plasma-6.3/.
test-plasma6: plasma6-applet
	scripts/build-in-root trixie $(PLASMA6_BUILD) -- ctest --test-dir /out --output-on-failure
	$(SWIFT_BUILD) --product alarmd
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" PLASMA6_BUILD="$(PLASMA6_BUILD)" Tests/desktop/plasma/run-root trixie

# The same in Plasma 6.7, in a Debian forky (testing) root, with the applet built for trixie (part of
# test-next). Screenshots: test-artifacts/plasma-6.7/.
test-plasma67: plasma6-applet
	$(SWIFT_BUILD) --product alarmd
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" PLASMA6_BUILD="$(PLASMA6_BUILD)" Tests/desktop/plasma/run-root forky

# Regenerates the applet's translation template from both QML packages, the plugin (which holds no
# user-visible text) and the lock-screen alert (which shares the applet's domain), as
# applets/plasma/Messages.sh does for KDE's tooling. xgettext writes a header of its own, without SPDX
# lines: those of the committed template are kept. PLASMA_POT=FILE writes the template there instead
# (test-translations compares a fresh one with the committed one).
PLASMA_POT_COMMITTED = applets/plasma/po/plasma_applet_$(PLASMA_APPLET).pot
PLASMA_POT = $(PLASMA_POT_COMMITTED)
plasma-pot:
	{ grep '^# SPDX-' $(PLASMA_POT_COMMITTED); \
	  xgettext --from-code=UTF-8 -C --kde -ci18n -ki18n:1 -ki18nc:1c,2 -ki18np:1,2 -ki18ncp:1c,2,3 \
		--package-name=plasma-applet-alarmd --msgid-bugs-address=alarmd@alarmd.org \
		-o - $$(find applets/plasma/package applets/plasma/package6 applets/plasma/alert -name '*.qml' | sort) \
		applets/plasma/plugin/*.cpp applets/plasma/alert/src/*.cpp; \
	} > $(PLASMA_POT).new && mv $(PLASMA_POT).new $(PLASMA_POT)

# alarmd-lockscreen-alert (applets/plasma/alert/README.md): a ringing alarm's Stop and Snooze above the
# Plasma 6 lock screen (KWin's kde_lockscreen_overlay_v1), built with the Plasma 6 applet (plasma6-applet)
# for /usr/libexec/alarmd. Its suites run it in a real Plasma 6.3 (trixie) or 6.7 (forky) in a Debian root, locked, beside the
# real alarmd (as root), and last as alarmd starts it, with no, one and two applets in a Wayland plasmashell, and as an alarmd
# started before the session starts it (the display from the systemd user manager's environment: alarmd-test-peer's stand-in
# for it); screenshots go to test-artifacts/plasma-lockscreen-6.3/ (-6.7/).
.PHONY: test-plasma-lockscreen test-plasma-lockscreen67
test-plasma-lockscreen: plasma6-applet
	$(SWIFT_BUILD) --product alarmd
	$(SWIFT_BUILD) --product alarmd-test-peer
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" PLASMA6_BUILD="$(PLASMA6_BUILD)" Tests/desktop/plasma/lockscreen-root trixie
test-plasma-lockscreen67: plasma6-applet
	$(SWIFT_BUILD) --product alarmd
	$(SWIFT_BUILD) --product alarmd-test-peer
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" PLASMA6_BUILD="$(PLASMA6_BUILD)" Tests/desktop/plasma/lockscreen-root forky

# The GNOME Shell extension through eslint with GNOME's rules (applets/gnome-shell/.eslintrc.yml), both
# variants: 43's rules for gnome43/, ES modules for the model and gnome45/; zero findings; and a file for
# each that it must fail on, so the lint is known to bite.
lint-gnome:
	Tests/desktop/gnome-shell/lint

# The Debian packages alarmd, gnome-shell-extension-alarmd and plasma-applet-alarmd (debian/README.source), with their
# .changes and .buildinfo, into DEB_OUT: dpkg-buildpackage would write them beside the tree, in the
# directory other worktrees share. The Swift build goes to .build-deb.
DEB_OUT = build-deb
DEB_NAME = alarmd_$$(dpkg-parsechangelog -S Version)_$$(dpkg-architecture -q DEB_HOST_ARCH)
define build-debs
	rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)
	ALARMD_DEB_OUT=$(CURDIR)/$(DEB_OUT) dpkg-buildpackage -b -us -uc \
		--buildinfo-option=-u$(CURDIR)/$(DEB_OUT) --changes-option=-u$(CURDIR)/$(DEB_OUT) \
		--buildinfo-file=$(CURDIR)/$(DEB_OUT)/$(DEB_NAME).buildinfo --changes-file=$(CURDIR)/$(DEB_OUT)/$(DEB_NAME).changes
endef
deb:
	@scripts/install-deps all
	@scripts/install-plasma-deps
	$(build-debs)

# The same packages built for Debian 13 (trixie) in a clean, cached trixie root, with trixie's
# debhelper, dh_shlibdeps and lintian (scripts/deb-in-root), into DEB13_OUT; the Swift toolchain is the
# host's, bind-mounted. Needs root.
DEB13_OUT = build-deb-13
deb13:
	@scripts/install-deps all
	scripts/deb-in-root trixie $(DEB13_OUT)

# The packages as a user meets them (Tests/package/run, as root): lintian, then a clean Debian 12
# root (cached in /var/cache/alarmd-tests) where they are installed, run by a real systemd user
# manager, upgraded, removed and purged; alarmd wakes the machine under a manager holding
# CAP_WAKE_ALARM (alarmd-wake-generator) and runs without it under one that does not. Logs:
# test-artifacts/package/. Builds them as `make deb` does.
test-package:
	$(build-debs)
	Tests/package/run $(DEB_OUT)

# A real Flatpak app against alarmd (Tests/flatpak/run, as root: it creates the user alarmd-flatpak and
# runs the test as that user): Debian's flatpak installs a small GDBus client (Tests/flatpak/app) into a
# user installation from a local repository, on a runtime made from the host's own binaries and cached
# in /var/cache/alarmd-tests (about 1 s to make), and runs it through its xdg-dbus-proxy, beside the
# debug alarmd and alarmd-test-peer's notification server on private buses: known by its Flatpak id,
# named in the consent prompt by the desktop entry it exports, its own alarms only, its timer ringing
# after `flatpak kill`, nothing without --talk-name; two apps and the user's panel watching, each app
# told of its own alarms alone; an undecided app's Schedule waiting for the prompt; what an app tries
# as an attacker (URL schemes, sound paths, action names, markup, a borrowed Name=, a flood) refused
# or harmless. About 20 s. Logs: test-artifacts/flatpak/.
test-flatpak:
	$(SWIFT_BUILD) --product alarmd
	$(SWIFT_BUILD) --product alarmd-test-peer
	ALARMD="$$($(SWIFT) build --show-bin-path)/alarmd" TEST_PEER="$$($(SWIFT) build --show-bin-path)/alarmd-test-peer" \
		Tests/flatpak/run

# The same for Debian 13 (trixie): the packages `make deb13` builds, in a clean trixie root (cached the
# same way), under systemd 257's user manager, ringing into PipeWire 1.4 (WirePlumber, pipewire-pulse)
# through a muted and a 0 % output, which alarmd raises while ringing and puts back; the wake checks as
# on 12, under systemd 257. The trixie run takes about 1.5 minutes with the root cached (mmdebstrap
# adds about 2 the first time). Logs: test-artifacts/package-trixie/.
test-package13:
	scripts/deb-in-root trixie $(DEB13_OUT)
	Tests/package/run --suite trixie $(DEB13_OUT)

# An alarm wakes a suspended machine (Tests/wake/run, as root): the packages `make deb13` builds (not
# rebuilt when current), installed in a Debian 13 image that QEMU boots by systemd under TCG and
# suspends to RAM (S3); the alarms of a user on the local seat wake it by its RTC, a user without
# CAP_WAKE_ALARM sleeps through and rings on resume. About 5 minutes (the guest's three suspends
# take most of it; mmdebstrap adds under a minute the first time). Logs: test-artifacts/wake/.
test-wake:
	scripts/deb-in-root trixie $(DEB13_OUT)
	Tests/wake/run $(DEB13_OUT)

# Every translation domain ships complete and current (scripts/check-po; docs/HACKING.md,
# "Translations"): alarmd's own (po/), the GNOME extension's and the Plasma applet's. Each is checked
# against a template made from the sources now, so a string added without `make pot` fails here.
POT_FRESH = $(RELEASE_SCRATCH)/pot-fresh
test-translations:
	@mkdir -p $(POT_FRESH)
	@$(MAKE) --no-print-directory alarmd-pot ALARMD_POT=$(POT_FRESH)/alarmd.pot
	scripts/check-po alarmd po $(POT_FRESH)/alarmd.pot
	@$(MAKE) -s --no-print-directory gnome-pot GNOME_POT=$(POT_FRESH)/gnome-shell-extension-alarmd.pot && scripts/check-po gnome-shell-extension-alarmd applets/gnome-shell/po $(POT_FRESH)/gnome-shell-extension-alarmd.pot
	@$(MAKE) --no-print-directory plasma-pot PLASMA_POT=$(POT_FRESH)/plasma_applet_$(PLASMA_APPLET).pot > /dev/null
	scripts/check-po plasma_applet_$(PLASMA_APPLET) applets/plasma/po $(POT_FRESH)/plasma_applet_$(PLASMA_APPLET).pot
	scripts/check-plasma-metadata

# Every translation template, from the sources.
pot: alarmd-pot gnome-pot plasma-pot

# alarmd's and alarmctl's own texts (the domain `alarmd`, po/): every phrase the Swift sources mark
# with N_, NC_ or NP_ (Sources/AlarmCore/Text/Phrase.swift), comments "Translators:" kept. xgettext
# reads Swift as C, which holds for calls of string literals; only the files that mark any are read.
# Files, not lines, are referenced: moving a line must not make the template stale.
# ALARMD_POT=FILE writes another copy (test-translations compares a fresh one with po/'s).
ALARMD_POT = po/alarmd.pot
alarmd-pot:
	{ grep '^# SPDX-' po/alarmd.pot; \
	  xgettext --language=C --from-code=UTF-8 -k -kN_ -kNC_:1c,2 -kNP_:1,2 --add-comments=Translators --add-location=file \
		--package-name=alarmd --msgid-bugs-address=alarmd@alarmd.org --output=- \
		$$(grep -rlE '\bN[CP]?_\("' Sources --include='*.swift' | sort); \
	} > $(ALARMD_POT).new && mv $(ALARMD_POT).new $(ALARMD_POT)

# Regenerates the extension's translation template (its own gettext domain, gnome-shell-extension-alarmd)
# from all its scripts and its settings schema (whose texts dconf-editor shows; xgettext tells the two
# kinds by their names), keeping the committed template's SPDX lines (as plasma-pot). GNOME_POT=FILE
# writes a fresh one elsewhere (test-translations and the GNOME suites compare it with po/'s). C_ is
# pgettext.
GNOME_POT_COMMITTED = applets/gnome-shell/po/gnome-shell-extension-alarmd.pot
GNOME_POT = $(GNOME_POT_COMMITTED)
gnome-pot:
	{ grep '^# SPDX-' $(GNOME_POT_COMMITTED); \
	  xgettext --from-code=UTF-8 --keyword=_ --keyword=C_:1c,2 --add-comments=Translators --add-location=file \
		--package-name=gnome-shell-extension-alarmd --msgid-bugs-address=alarmd@alarmd.org --output=- \
		$(sort $(wildcard applets/gnome-shell/$(GNOME_EXT)/*.js applets/gnome-shell/$(GNOME_EXT)/*/*.js \
			applets/gnome-shell/$(GNOME_EXT)/schemas/*.gschema.xml)); \
	} > $(GNOME_POT).new && mv $(GNOME_POT).new $(GNOME_POT)

# Figures beside baselines from the same run (tools/bench/RESULTS.md); BENCH_ARGS="--figures 2 --seed 7" etc.
bench:
	tools/bench/run $(BENCH_ARGS)

# The AlarmClient library's reference (DocC) as a static site, .build/docs/AlarmClient.doccarchive
# (docs/HACKING.md says how to open it), from its doc comments and the catalog
# Sources/AlarmClient/AlarmClient.docc. The library builds in a scratch path of its own, so that the debug
# build in .build keeps its flags, its compiler writing the symbol graphs: without the members protocols'
# default implementations lend (`!=`), which no comment here can document, and with extension blocks,
# without which docc drops Zone.local. docc gets AlarmClient's graphs alone: the directory holds those of
# the modules it builds on too, which docc would document beside it. A public symbol without a doc comment
# fails it (scripts/check-symbol-docs), and so does any docc warning: a broken link, a parameter the
# symbol does not have. No swift-docc-plugin: it would have to be fetched.
DOCS = .build/docs
DOCC ?= $(dir $(realpath $(SWIFT)))docc
SYMBOL_GRAPHS = $(CURDIR)/$(DOCS)/build/symbol-graphs
docs:
	$(SWIFT_BUILD) --target AlarmClient --scratch-path $(DOCS)/build -Xswiftc -emit-symbol-graph \
		-Xswiftc -emit-symbol-graph-dir -Xswiftc $(SYMBOL_GRAPHS) \
		-Xswiftc -symbol-graph-skip-synthesized-members -Xswiftc -emit-extension-block-symbols
	rm -rf $(DOCS)/symbols $(DOCS)/AlarmClient.doccarchive && mkdir -p $(DOCS)/symbols
	cp $(SYMBOL_GRAPHS)/AlarmClient.symbols.json $(SYMBOL_GRAPHS)/AlarmClient@*.symbols.json $(DOCS)/symbols/
	scripts/check-symbol-docs $(DOCS)/symbols/*.symbols.json
	$(DOCC) convert Sources/AlarmClient/AlarmClient.docc --additional-symbol-graph-dir $(DOCS)/symbols \
		--fallback-display-name AlarmClient --fallback-bundle-identifier org.alarmd.AlarmClient \
		--warnings-as-errors --experimental-documentation-coverage --coverage-summary-level brief \
		--output-path $(DOCS)/AlarmClient.doccarchive
	@echo "Built $(DOCS)/AlarmClient.doccarchive. Serve it with: python3 -m http.server -d $(DOCS)/AlarmClient.doccarchive," \
		"then open http://localhost:8000/documentation/alarmclient/"

# Installs what `make` built; builds nothing, so it fails before touching the system when there is
# nothing built. No file capability: a binary with one runs in secure-execution mode, where glibc hides
# DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR from sd-bus and alarmd cannot reach any user's session
# bus. Waking from suspend comes from the unit instead: where the user manager holds CAP_WAKE_ALARM,
# systemd/alarmd-wake-generator gives alarmd.service AmbientCapabilities=CAP_WAKE_ALARM.
install: install-check install-files
	-[ -z "$(DESTDIR)" ] && command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t -f "$(DATADIR)/icons/hicolor"
	-[ -z "$(DESTDIR)" ] && command -v glib-compile-schemas >/dev/null && glib-compile-schemas "$(DATADIR)/glib-2.0/schemas" 2>/dev/null
	@[ -n "$(DESTDIR)" ] || printf '%s\n' "Installed alarmd in $(PREFIX). As each user, once:" \
		"  systemctl --user daemon-reload   # then alarmd starts on first use (D-Bus activation)" \
		"  systemctl --user enable alarmd   # optional: start it at every login" \
		"  gnome-extensions enable $(GNOME_EXT)   # on GNOME, after logging in again"

# The files alone, as the Debian package installs them too (debian/rules: its own build as BUILT,
# INSTALL_STRIP= for dh_strip, INSTALL_DIRS_RECORD= as dpkg knows its files, the icon cache left to
# dpkg's triggers). Which directories it created is recorded (scripts/install-dirs), so that uninstall
# removes those and leaves the ones that were there before, empty or not.
INSTALL_DIRS_RECORD ?= $(DATADIR)/alarmd/installed-dirs
INSTALL_DIRS = DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" QML_DIR="$(QT_QML_DIR)" RECORD="$(INSTALL_DIRS_RECORD)" scripts/install-dirs
install-files:
	@before=$$(mktemp) && trap 'rm -f "$$before"' EXIT && $(INSTALL_DIRS) before "$$before" && \
		$(MAKE) --no-print-directory install-payload && $(INSTALL_DIRS) record "$$before"

install-payload: install-gnome-extension install-plasma-applet-if-built
	install -Dm755 $(INSTALL_STRIP) "$(BUILT)/alarmd" "$(DESTDIR)$(BINDIR)/alarmd"
	install -Dm755 $(INSTALL_STRIP) "$(BUILT)/alarmctl" "$(DESTDIR)$(BINDIR)/alarmctl"
	sed 's|/usr/local/bin/alarmd|$(BINDIR)/alarmd|' dbus/org.alarmd.AlarmManager1.service | \
		install -Dm644 /dev/stdin "$(DESTDIR)$(DATADIR)/dbus-1/services/org.alarmd.AlarmManager1.service"
	install -Dm644 dbus/org.alarmd.AlarmManager1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.AlarmManager1.xml"
	install -Dm644 dbus/org.alarmd.Alarm1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.Alarm1.xml"
	sed 's|/usr/local/bin/alarmd|$(BINDIR)/alarmd|' systemd/alarmd.service | \
		install -Dm644 /dev/stdin "$(DESTDIR)$(PREFIX)/lib/systemd/user/alarmd.service"
	install -Dm755 systemd/alarmd-wake-generator "$(DESTDIR)$(PREFIX)/lib/systemd/user-generators/alarmd-wake-generator"
	install -Dm644 data/alarmd.conf.example "$(DESTDIR)$(DATADIR)/doc/alarmd/alarmd.conf.example"
	install -Dm644 data/org.alarmd.Alarmd.desktop "$(DESTDIR)$(DATADIR)/applications/org.alarmd.Alarmd.desktop"
	install -Dm644 data/70_alarmd.gschema.override "$(DESTDIR)$(DATADIR)/glib-2.0/schemas/70_alarmd.gschema.override"
	install -Dm644 systemd/wake-alarm.conf "$(DESTDIR)$(DATADIR)/doc/alarmd/wake-alarm.conf"
	for f in data/icons/hicolor/*/apps/*.svg; do install -Dm644 "$$f" "$(DESTDIR)$(DATADIR)/$${f#data/}"; done
	install -d "$(DESTDIR)$(DATADIR)/alarmd/sounds"
	for f in sounds/*.oga; do [ -e "$$f" ] && install -m644 "$$f" "$(DESTDIR)$(DATADIR)/alarmd/sounds/"; done; true
	install -Dm644 docs/man/alarmctl.1 "$(DESTDIR)$(MANDIR)/man1/alarmctl.1"
	install -Dm644 docs/man/alarmd.conf.5 "$(DESTDIR)$(MANDIR)/man5/alarmd.conf.5"
	install -Dm644 docs/man/alarmd.8 "$(DESTDIR)$(MANDIR)/man8/alarmd.8"
	install -Dm644 data/completions/alarmctl.bash "$(DESTDIR)$(DATADIR)/bash-completion/completions/alarmctl"
	install -Dm644 data/completions/_alarmctl "$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_alarmctl"
	install -Dm644 data/completions/alarmctl.fish "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/alarmctl.fish"
	install -Dm644 dbus/alarmd-qt.h "$(DESTDIR)$(PREFIX)/include/alarmd/alarmd-qt.h"
	for po in po/*.po; do lang=$$(basename "$$po" .po); msgfmt -c -o - "$$po" | \
		install -Dm644 /dev/stdin "$(DESTDIR)$(DATADIR)/locale/$$lang/LC_MESSAGES/alarmd.mo" || exit 1; done

install-check:
	@for f in "$(BUILT)/alarmd" "$(BUILT)/alarmctl"; do [ -x "$$f" ] || { \
		echo "make install: $$f is not built. Run \`make\` first, as yourself, then \`sudo make install\`." >&2; exit 1; }; done

# The GNOME Shell extension, with its translations (then: gnome-extensions enable $(GNOME_EXT)): the
# variant for GNOME_SHELL_VARIANT (see above), assembled into place (applets/gnome-shell/assemble).
install-gnome-extension:
	@echo "install-gnome-extension: the $(GNOME_SHELL_VARIANT) variant, for GNOME Shell" \
		$$(sed -nE 's/.*"shell-version": \[(.*)\].*/\1/p' applets/gnome-shell/$(GNOME_EXT)/gnome$(GNOME_SHELL_VARIANT)/metadata.json)
	applets/gnome-shell/assemble $(GNOME_SHELL_VARIANT) "$(GNOME_EXT_DIR)" "$(LOCALE_BUILT)"

# Removes every file install put there and the directories install created (never one that was there
# before), refreshes the icon cache, then says what it leaves: each user's alarms, enable links, an
# alarmd still running, and a directory it created that now holds someone else's files.
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/alarmd" "$(DESTDIR)$(BINDIR)/alarmctl" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/services/org.alarmd.AlarmManager1.service" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.AlarmManager1.xml" \
	      "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.alarmd.Alarm1.xml" \
	      "$(DESTDIR)$(PREFIX)/lib/systemd/user/alarmd.service" \
	      "$(DESTDIR)$(PREFIX)/lib/systemd/user-generators/alarmd-wake-generator" \
	      "$(DESTDIR)$(DATADIR)/applications/org.alarmd.Alarmd.desktop" \
	      "$(DESTDIR)$(DATADIR)/glib-2.0/schemas/70_alarmd.gschema.override"
	for f in data/icons/hicolor/*/apps/*.svg; do rm -f "$(DESTDIR)$(DATADIR)/$${f#data/}"; done
	rm -rf "$(DESTDIR)$(DATADIR)/alarmd/sounds" "$(DESTDIR)$(DATADIR)/doc/alarmd" "$(GNOME_EXT_DIR)"
	rm -f "$(DESTDIR)$(MANDIR)/man1/alarmctl.1" "$(DESTDIR)$(MANDIR)/man5/alarmd.conf.5" "$(DESTDIR)$(MANDIR)/man8/alarmd.8" \
	      "$(DESTDIR)$(DATADIR)/bash-completion/completions/alarmctl" \
	      "$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_alarmctl" \
	      "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/alarmctl.fish"
	rm -rf "$(DESTDIR)$(PREFIX)/include/alarmd"
	rm -rf "$(DESTDIR)$(DATADIR)/plasma/plasmoids/$(PLASMA_APPLET)" "$(DESTDIR)$(DATADIR)/metainfo/$(PLASMA_APPLET).appdata.xml"
	rm -f "$(DESTDIR)$(DATADIR)"/locale/*/LC_MESSAGES/plasma_applet_$(PLASMA_APPLET).mo
	for po in po/*.po; do rm -f "$(DESTDIR)$(DATADIR)/locale/$$(basename "$$po" .po)/LC_MESSAGES/alarmd.mo"; done
	$(if $(QT_QML_DIR),rm -rf "$(DESTDIR)$(QT_QML_DIR)/org/alarmd")
	@DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" RECORD="$(INSTALL_DIRS_RECORD)" scripts/uninstall-leftovers
	-[ -z "$(DESTDIR)" ] && command -v glib-compile-schemas >/dev/null && glib-compile-schemas "$(DATADIR)/glib-2.0/schemas" 2>/dev/null

clean:
	$(SWIFT) package clean
	rm -rf $(RELEASE_SCRATCH) $(PLASMA_BUILD) $(PLASMA_BUILD).log $(PLASMA6_BUILD)

# Crash consistency (docs/crash-consistency.md): alarmd killed with SIGKILL at seeded instants while
# four clients call it, CRASH_ROUNDS times (default 200), its store checked after every restart.
# CRASH_ARGS="--seed N" replays a run; alarmd-crash --help lists the rest.
crash-test:
	$(SWIFT_BUILD) --product alarmd
	$(TOOLS) $(SWIFT_BUILD) --product alarmd-crash
	"$$($(SWIFT) build --show-bin-path)/alarmd-crash" --rounds $(CRASH_ROUNDS) $(CRASH_ARGS)

# The engine under libFuzzer with AddressSanitizer (docs/fuzzing.md) for FUZZ_SECONDS (60), starting
# from the committed corpus (tools/fuzz/corpus); new inputs go to .build-fuzz/corpus, a failing one to
# .build-fuzz/crash-* (replay it with `alarmd-fuzz-core FILE` from a normal build, $(TOOLS)). Built into a scratch
# path of its own and linked with lld through a generated toolset: ld.gold fails on libFuzzer's archive.
fuzz-core:
	mkdir -p .build-fuzz/corpus
	printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' \
		"$$(dirname "$$(readlink -f "$$(command -v swiftc)")")/ld.lld" > .build-fuzz/toolset.json
	$(TOOLS) $(SWIFT) build -c release --product alarmd-fuzz-core --scratch-path .build-fuzz --toolset .build-fuzz/toolset.json \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIBFUZZER
	cd .build-fuzz && LSAN_OPTIONS=suppressions=$(CURDIR)/tools/sanitizers/lsan.supp SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1 \
		./release/alarmd-fuzz-core -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -print_final_stats=1 \
		corpus ../tools/fuzz/corpus

# alarmd under FUZZ_CALLS (100,000) hostile calls on a private bus (docs/fuzzing.md): release builds
# of alarmd and alarmd-fuzz-bus, then the run, its checks and its figures (docs/fuzzing.md, Results).
# FUZZ_BUS_ARGS="--seed N" replays a run; --help lists the options.
fuzz-bus:
	$(SWIFT) build -c release --product alarmd
	$(TOOLS) $(SWIFT) build -c release --product alarmd-fuzz-bus
	"$$($(SWIFT) build -c release --show-bin-path)/alarmd-fuzz-bus" --calls $(FUZZ_CALLS) --restart-check --rss-growth-kib 8192 \
		$(FUZZ_BUS_ARGS)
