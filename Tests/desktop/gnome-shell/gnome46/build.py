#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""GNOME Shell 46 (what Ubuntu 24.04 LTS ships; in no Debian suite) built from source into a private prefix,
PREFIX (/opt/gnome-46): mutter 46.9 and gnome-shell 46.10 with its libgnome-volume-control, for
Tests/desktop/gnome-shell/run-root gnome46, which unpacks it in Debian 13 (trixie)'s desktop root.

Run as root:
    Tests/desktop/gnome-shell/gnome46/build.py     # prints the prefix tarball's path (builds it on a miss)
or from Python: prefix_tarball(log=...) -> (path, cached).

The build runs in a Debian 13 root of its own (Tests/lib/debian_root.py's cached_root('trixie', BUILD_PACKAGES,
'gnome46-build'): the build dependencies only), under nice and with two jobs at most, with only what the tests
need: no docs, tests, installed tests, man pages, profiler, Xwayland or extensions tool and app; the native
backend, Wayland, remote desktop and introspection on. mutter 46 always builds its X11 parts (its meson.build:
"For now always require X11 support"), so the X11 client libraries are build dependencies; Xwayland is off.
The prefix is cached as CACHE/gnome46-prefix-KEY.tar, KEY a hash of the sources' checksums (SHA256SUMS
beside this file) and of this file: a warm run only finds it. Its build log is kept beside it (.log) and
copied to test-artifacts/gnome-shell-46/build.log.

The sources (SHA256SUMS names them) are read from $GNOME46_SOURCES, else from ../shared/sources/gnome-46
beside the repository, and checked against SHA256SUMS; without them this fails with one line saying what
is missing and how to make it (`git archive` of the upstream tags).
"""
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..', '..', '..'))
sys.path.insert(0, os.path.join(REPO, 'Tests', 'lib'))
import debian_root  # noqa: E402

PREFIX = '/opt/gnome-46'
SUMS = os.path.join(HERE, 'SHA256SUMS')
ART = os.path.join(REPO, 'test-artifacts', 'gnome-shell-46')
# How to make each tarball when it is missing: the upstream project and the `git archive` that made it.
ORIGIN = {
    'mutter-46.9.tar.xz': 'GNOME/mutter tag 46.9: git archive --prefix=mutter-46.9/ 46.9 | xz',
    'gnome-shell-46.10.tar.xz': 'GNOME/gnome-shell tag 46.10: git archive --prefix=gnome-shell-46.10/ 46.10 | xz',
    'libgnome-volume-control-5f9768a2.tar.xz': 'GNOME/libgnome-volume-control commit 5f9768a2: '
                                               'git archive --prefix=gvc/ 5f9768a2 | xz',
}

# What mutter 46.9 and gnome-shell 46.10 build with (their meson.build files' dependency() and find_program()
# for the options below), in Debian 13.
BUILD_PACKAGES = [
    'build-essential', 'meson', 'ninja-build', 'pkgconf', 'python3', 'gettext', 'sassc', 'xcvt', 'xz-utils',
    'gjs', 'libgjs-dev', 'gobject-introspection', 'libgirepository1.0-dev',
    'libglib2.0-dev', 'libglib2.0-dev-bin', 'libglib2.0-bin', 'gsettings-desktop-schemas-dev',
    'libgraphene-1.0-dev', 'libgdk-pixbuf-2.0-dev', 'libpango1.0-dev', 'libcairo2-dev', 'libpixman-1-dev',
    'libfribidi-dev', 'libharfbuzz-dev', 'libatk1.0-dev', 'libatk-bridge2.0-dev', 'libdbus-1-dev',
    'libcolord-dev', 'liblcms2-dev', 'libei-dev', 'libeis-dev', 'libgtk-4-dev', 'libgnome-desktop-4-dev',
    'libcanberra-dev', 'libwacom-dev', 'libxkbcommon-dev', 'libxkbcommon-x11-dev', 'xkb-data',
    # X11 client libraries: mutter 46 cannot be built without its X11 backend.
    'libx11-dev', 'libx11-xcb-dev', 'libxcomposite-dev', 'libxcursor-dev', 'libxdamage-dev', 'libxext-dev',
    'libxfixes-dev', 'libxi-dev', 'libxtst-dev', 'libxkbfile-dev', 'libxrender-dev', 'libxrandr-dev',
    'libxcb-randr0-dev', 'libxcb-res0-dev', 'libxinerama-dev', 'libxau-dev', 'libice-dev', 'libsm-dev',
    'libstartup-notification0-dev',
    # Wayland, the native backend, remote desktop and screen cast.
    'libgl-dev', 'libegl-dev', 'libgles-dev', 'libgbm-dev', 'libdrm-dev', 'libwayland-dev', 'wayland-protocols',
    'libudev-dev', 'libgudev-1.0-dev', 'systemd-dev', 'libsystemd-dev', 'libinput-dev', 'libpipewire-0.3-dev',
    # gnome-shell.
    'libecal2.0-dev', 'libedataserver1.2-dev', 'libgcr-4-dev', 'libxml2-dev', 'libpolkit-agent-1-dev',
    'libnm-dev', 'libsecret-1-dev', 'libpulse-dev',
]

MUTTER_OPTIONS = [
    '-Dwayland=true', '-Dnative_backend=true', '-Dremote_desktop=true', '-Dintrospection=true',
    '-Dxwayland=false', '-Ddocs=false', '-Dtests=false', '-Dinstalled_tests=false', '-Dprofiler=false',
    '-Dcore_tests=false', '-Dnative_tests=false', '-Dclutter_tests=false', '-Dcogl_tests=false',
    # The virtual monitor has no EDID to parse.
    '-Dlibdisplay_info=disabled',
]
SHELL_OPTIONS = [
    '-Dtests=false', '-Dgtk_doc=false', '-Dman=false', '-Dextensions_tool=false', '-Dextensions_app=false',
]

# Runs in the build root as root, in a tmpfs: the sources at /sources (read-only), the prefix installed at PREFIX.
SCRIPT = r'''
set -eu
mkdir -p /tmp/build && cd /tmp/build
tar -xf /sources/mutter-46.9.tar.xz
tar -xf /sources/gnome-shell-46.10.tar.xz
tar -C gnome-shell-46.10/subprojects -xf /sources/libgnome-volume-control-5f9768a2.tar.xz
common="--prefix=$PREFIX --libdir=lib --buildtype=release --wrap-mode=nodownload"
step() { echo "=== $(date -u +%H:%M:%S) $*"; }
step mutter: meson setup
meson setup mutter-build mutter-46.9 $common $MUTTER_OPTIONS
step mutter: ninja
ninja -C mutter-build -j2
step mutter: install
meson install -C mutter-build --quiet
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
step gnome-shell: meson setup
meson setup shell-build gnome-shell-46.10 $common $SHELL_OPTIONS
step gnome-shell: ninja
ninja -C shell-build -j2
step gnome-shell: install
meson install -C shell-build --quiet
step done
'''


class MissingSources(Exception):
    pass


def log(msg):
    print(f'gnome46: {msg}', file=sys.stderr, flush=True)


def sources_dir():
    return os.environ.get('GNOME46_SOURCES') or os.path.join(os.path.dirname(REPO), 'shared', 'sources', 'gnome-46')


def checksums():
    """{file name: sha256} from SHA256SUMS (comment lines skipped)."""
    sums = {}
    with open(SUMS) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                digest, name = line.split()
                sums[name.lstrip('*')] = digest
    return sums


def verify_sources():
    """The sources' folder, each tarball checked against SHA256SUMS; MissingSources (one line) otherwise."""
    where = sources_dir()
    for name, digest in checksums().items():
        path = os.path.join(where, name)
        how = f'set GNOME46_SOURCES to a folder holding it (from {ORIGIN.get(name, "its upstream project")})'
        if not os.path.exists(path):
            raise MissingSources(f'{name} is not in {where}: {how}')
        h = hashlib.sha256()
        with open(path, 'rb') as f:
            for block in iter(lambda: f.read(1 << 20), b''):
                h.update(block)
        if h.hexdigest() != digest:
            raise MissingSources(f'{path} does not match SHA256SUMS ({h.hexdigest()[:16]}…, want {digest[:16]}…): '
                                 f'{how}')
    return where


def cache_key():
    """The sources' checksums and this file: whatever changes the build changes one of them."""
    h = hashlib.sha256()
    with open(SUMS, 'rb') as f:
        h.update(b''.join(line for line in f if not line.startswith(b'#')))
    with open(os.path.abspath(__file__), 'rb') as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def tarball_path():
    return os.path.join(debian_root.CACHE, f'gnome46-prefix-{cache_key()}.tar')


def prefix_tarball(log=log, art=ART):
    """The tarball of PREFIX (paths relative to /), from the cache or built now. Returns (path, cached).
    Copies its build log to art/build.log."""
    tarball = tarball_path()
    os.makedirs(art, exist_ok=True)
    if os.path.exists(tarball):
        _copy_log(tarball, art)
        return tarball, True
    os.makedirs(debian_root.CACHE, exist_ok=True)
    # Its own lock: a build takes long, and the cache's lock (debian_root.LOCK) is held only while the
    # build root is made, so other roots can be made meanwhile.
    with open(os.path.join(debian_root.CACHE, 'gnome46-prefix.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(tarball):
            _build(tarball, art, log)
    _copy_log(tarball, art)
    return tarball, False


def _copy_log(tarball, art):
    src = tarball[:-len('.tar')] + '.log'
    if os.path.exists(src):
        shutil.copyfile(src, os.path.join(art, 'build.log'))


def _build(tarball, art, log):
    sources = verify_sources()
    started = time.monotonic()
    root_tar, cached = debian_root.cached_root('trixie', BUILD_PACKAGES, 'gnome46-build', log=log,
                                               logfile=os.path.join(art, 'mmdebstrap-build.log'))
    root_seconds = time.monotonic() - started
    log(f'build root {os.path.basename(root_tar)} {"from the cache" if cached else "made now"} ({root_seconds:.0f} s)')
    partial = f'{tarball}.partial-{os.getpid()}'
    logpath = os.path.join(art, 'build.log')
    try:
        with debian_root.Root(root_tar, binds=[(sources, '/sources', True)], prefix='alarmd-gnome46-build-') as root, \
                open(logpath, 'w') as logf:
            log(f'building mutter 46.9 and gnome-shell 46.10 into {PREFIX} (log: {os.path.relpath(logpath, REPO)})')
            t = time.monotonic()
            env = {'PREFIX': PREFIX, 'MUTTER_OPTIONS': ' '.join(MUTTER_OPTIONS), 'SHELL_OPTIONS': ' '.join(SHELL_OPTIONS),
                   'HOME': '/root', 'LC_ALL': 'C.UTF-8'}
            r = root.run(['nice', '-n', '10', 'bash', '-c', SCRIPT], env=env, timeout=6 * 3600, stdout=logf,
                         stderr=subprocess.STDOUT, capture_output=False)
            build_seconds = time.monotonic() - t
            if r.returncode != 0:
                raise RuntimeError(f'the build failed ({r.returncode}) after {build_seconds:.0f} s: see '
                                   f'{os.path.relpath(logpath, REPO)}')
            subprocess.run(['tar', '-C', root.host_path('/'), '-cf', partial, PREFIX.lstrip('/')], check=True)
        with open(logpath, 'a') as logf:
            logf.write(f'=== build root {root_seconds:.0f} s, build {build_seconds:.0f} s, '
                       f'{os.path.getsize(partial) / 1e6:.0f} MB\n')
        shutil.copyfile(logpath, tarball[:-len('.tar')] + '.log')
        os.rename(partial, tarball)
        log(f'{os.path.basename(tarball)} built in {build_seconds:.0f} s (build root {root_seconds:.0f} s), '
            f'{os.path.getsize(tarball) / 1e6:.0f} MB')
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    # Prefixes of other keys (older sources or build scripts).
    for old in os.listdir(debian_root.CACHE):
        path = os.path.join(debian_root.CACHE, old)
        if old.startswith('gnome46-prefix-') and not path.startswith(tarball[:-len('.tar')]) \
                and (old.endswith('.tar') or old.endswith('.log')):
            os.unlink(path)


def main():
    if os.geteuid() != 0:
        sys.exit('gnome46: must run as root (it makes and enters a Debian root)')
    t = time.monotonic()
    try:
        path, cached = prefix_tarball()
    except MissingSources as e:
        sys.exit(f'gnome46: {e}')
    log(f'{"cached" if cached else "built"}: {time.monotonic() - t:.1f} s')
    print(path)


if __name__ == '__main__':
    main()
