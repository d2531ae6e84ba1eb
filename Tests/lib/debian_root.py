# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Debian roots for tests: made once by mmdebstrap, cached as tarballs, entered in namespaces of their own.

    from debian_root import cached_root, Root
    tarball, cached = cached_root('trixie', ['gnome-shell', 'dbus-daemon'], 'desktop')
    with Root(tarball, binds=[('/opt/swift', True)]) as root:
        uid = root.add_user('alex')
        root.run(['gnome-shell', '--version'], user='alex')

cached_root() keeps one tarball per name and suite in CACHE (/var/cache/alarmd-tests), keyed by a hash of
the suite, the package list, the mirror and apt's options: a miss runs mmdebstrap (under a temporary name,
renamed when done, so an interrupted run leaves no broken cache, and a hit needs no lock) and removes
that name's tarballs of other keys. Every maker of roots in CACHE goes through it (the desktop suites, Tests/package/run,
scripts/deb-in-root), under the one lock CACHE/lock, so two runs never build at once.

Root starts a holder: PID 1 of a new PID namespace, in a new mount namespace (unshare --mount --pid
--fork), which unpacks the tarball into a temporary directory (by default a tmpfs mounted there in its
namespace only: quick to fill, and gone with the namespace, where deleting 2 GB from a busy disk takes a
minute), mounts proc, /sys and /dev (rbind), a tmpfs on /run and on /tmp, and the binds asked for
(read-only when asked), then reaps orphans until the root is closed. Commands enter it with nsenter (mount and PID namespaces, the root as their root directory), as
root or as a user, with an empty environment plus what the caller gives. Closing kills everything in the
PID namespace (so whatever a command left behind ends with it), which drops its mounts, and deletes the
directory. Needs root, util-linux (unshare, nsenter) and mmdebstrap.
"""
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = '/var/cache/alarmd-tests'
MIRROR = 'http://deb.debian.org/debian'
# The one lock of CACHE.
LOCK = os.path.join(CACHE, 'lock')


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def cached_root(suite, packages, name, mirror=MIRROR, aptopts=(), log=None, logfile=None, sources=None,
                recommends=False, options=()):
    """The tarball of a root of `suite` (variant apt, no recommends) with `packages`, from the cache or
    made now. Returns (path, cached). `aptopts`: more --aptopt values (e.g. 'Acquire::Check-Valid-Until
    "false"' for a testing suite whose Release file is past its Valid-Until). `logfile`: where
    mmdebstrap's output goes on a miss. `sources`: apt's sources instead of the mirror's main, as a
    one-line source or a file (keyed by its text); `recommends`: install them too; `options`: more
    mmdebstrap arguments (e.g. --skip=cleanup/apt/lists, to keep apt's lists in the root)."""
    packages = sorted(set(packages))
    aptopts = list(aptopts)
    options = list(options)
    sources = sources or f'deb {mirror} {suite} main'
    text = open(sources).read() if sources.startswith('/') else sources
    os.makedirs(CACHE, exist_ok=True)
    key = hashlib.sha256(json.dumps(['apt', suite, packages, text, aptopts, recommends, options]).encode()).hexdigest()[:16]
    prefix = f'{name}-{suite}-'
    tarball = os.path.join(CACHE, f'{prefix}{key}.tar')
    # A tarball is complete once it has its name (renamed into place): a hit needs no lock, and does
    # not wait for someone else's mmdebstrap.
    if os.path.exists(tarball):
        return tarball, True
    with open(LOCK, 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(tarball):
            return tarball, True
        if log:
            log(f'{os.path.basename(tarball)} is not cached: mmdebstrap {suite} with {len(packages)} packages')
        started = time.monotonic()
        partial = f'{tarball}.partial-{os.getpid()}'
        argv = ['mmdebstrap', '--variant=apt', '--dpkgopt=force-unsafe-io', '--include=' + ','.join(packages),
                '--format=tar'] + ([] if recommends else ['--aptopt=APT::Install-Recommends "false"'])
        argv += [f'--aptopt={o}' for o in aptopts] + options
        argv += [suite, partial, sources]
        try:
            r = subprocess.run(argv, capture_output=True, text=True)
            if logfile:
                with open(logfile, 'w') as f:
                    f.write(' '.join(argv) + '\n' + r.stdout + r.stderr)
            if r.returncode != 0:
                raise RuntimeError(f'mmdebstrap failed ({r.returncode}): {r.stderr.strip()[-800:]}')
            os.rename(partial, tarball)
            if log:
                log(f'{os.path.basename(tarball)} made in {time.monotonic() - started:.0f} s, '
                    f'{os.path.getsize(tarball) / 1e9:.1f} GB')
        finally:
            if os.path.exists(partial):
                os.unlink(partial)
        # This name's roots for other package lists or mirrors, and what crashed runs left half made.
        for old in os.listdir(CACHE):
            path = os.path.join(CACHE, old)
            if not old.startswith(prefix) or path == tarball:
                continue
            if '.partial-' in old:
                pid = old.rsplit('.partial-', 1)[1]
                if pid.isdigit() and _pid_alive(int(pid)):
                    continue
            os.unlink(path)
        return tarball, False


# PID 1 of the root's PID namespace: mounts what the root needs (given as JSON on argv), says "ready",
# then reaps every orphan until its stdin closes; then it kills all in its namespace and exits.
_HOLDER = r'''
import json, os, select, signal, subprocess, sys
root, tarball, in_memory, binds = sys.argv[1], sys.argv[2], sys.argv[3] == '1', json.loads(sys.argv[4])
def mount(*a):
    subprocess.run(['mount'] + list(a), check=True)
subprocess.run(['mount', '--make-rprivate', '/'], check=True)
if in_memory:
    mount('-t', 'tmpfs', '-o', 'mode=755', 'tmpfs', root)
subprocess.run(['tar', '-C', root, '-xf', tarball], check=True)
with open(root + '/etc/machine-id', 'w') as f:  # D-Bus and systemd want one (PID 1 writes it at first boot)
    f.write(os.urandom(16).hex() + '\n')
mount('-t', 'proc', 'proc', root + '/proc')
mount('--rbind', '/sys', root + '/sys')
mount('--rbind', '/dev', root + '/dev')
mount('-t', 'tmpfs', '-o', 'mode=755', 'tmpfs', root + '/run')
mount('-t', 'tmpfs', '-o', 'mode=1777', 'tmpfs', root + '/tmp')
for src, dest, ro in binds:
    target = root + dest
    if os.path.isdir(src):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, 'a').close()
    mount('--bind', src, target)
    if ro:
        mount('-o', 'remount,bind,ro', target)
os.makedirs(root + '/tmp/.X11-unix', exist_ok=True)
os.chmod(root + '/tmp/.X11-unix', 0o1777)
print('ready', flush=True)
while True:
    readable, _, _ = select.select([0], [], [], 0.5)
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
    if readable and not os.read(0, 4096):
        break
try:
    os.kill(-1, signal.SIGKILL)
except ProcessLookupError:
    pass
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
'''


class Root:
    """A root unpacked from `tarball` and entered in namespaces of its own (see the module's doc).
    binds: [(host_path, read_only)] mounted at the same path inside, or [(host_path, path_inside,
    read_only)]. in_memory: unpack into a tmpfs (the default; the root's files are then reached from the
    host through host_path() only), else into a directory on disk under workdir."""

    def __init__(self, tarball, binds=(), workdir='/var/tmp', prefix='alarmd-root-', in_memory=True):
        self.tarball = tarball
        self.in_memory = in_memory
        self.binds = [(b[0], b[0], b[1]) if len(b) == 2 else tuple(b) for b in binds]
        self.workdir = workdir
        self.prefix = prefix
        self.dir = None
        self.path = None
        self.holder = None
        self.users = {}
        self.unpack_seconds = 0.0

    # -- life ---------------------------------------------------------------------------------------
    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc):
        self.close()

    def open(self):
        t = time.monotonic()
        self.dir = tempfile.mkdtemp(prefix=self.prefix, dir=self.workdir)
        os.chmod(self.dir, 0o755)
        self.path = os.path.join(self.dir, 'root')
        os.mkdir(self.path)
        self.holder = subprocess.Popen(
            ['unshare', '--mount', '--pid', '--fork', '--propagation', 'private', '/usr/bin/python3', '-c', _HOLDER,
             self.path, self.tarball, '1' if self.in_memory else '0', json.dumps(self.binds)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True)
        if self.holder.stdout.readline().strip() != 'ready':
            self.close()
            raise RuntimeError('the root\'s namespaces did not come up (unpacking or mounting failed)')
        self.ns_pid = self._ns_pid()
        self.unpack_seconds = time.monotonic() - t

    def _ns_pid(self):
        """The holder's PID as the host sees it (unshare --fork makes it a child of unshare)."""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                with open(f'/proc/{self.holder.pid}/task/{self.holder.pid}/children') as f:
                    kids = f.read().split()
            except OSError:
                kids = []
            if kids:
                return int(kids[0])
            time.sleep(0.02)
        raise RuntimeError('no holder process under unshare')

    def close(self):
        if self.holder:
            try:
                self.holder.stdin.close()
            except OSError:
                pass
            try:
                self.holder.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.holder.pid, signal.SIGKILL)
                self.holder.wait()
            self.holder = None
        if self.dir:
            # The mounts lived in the holder's namespace only; --one-file-system guards against any left.
            subprocess.run(['rm', '-rf', '--one-file-system', self.dir])
            self.dir = None

    # -- paths --------------------------------------------------------------------------------------
    def host_path(self, p):
        """Where a path of the root is on the host, as the root's processes see it (its tmpfs, /run and
        /tmp included: through the holder's view of the mounts). Read and write the root's files here."""
        return f'/proc/{self.ns_pid}/root{self.path}/{p.lstrip("/")}'

    # -- users --------------------------------------------------------------------------------------
    def add_user(self, name):
        """Creates a user with a home in the root; returns (uid, gid)."""
        self.run(['useradd', '--create-home', '--shell', '/bin/sh', name], check=True)
        uid = int(self.run(['id', '-u', name], check=True).stdout)
        gid = int(self.run(['id', '-g', name], check=True).stdout)
        self.users[name] = (uid, gid)
        return uid, gid

    # -- commands -----------------------------------------------------------------------------------
    def argv(self, argv, user=None, env=None):
        """The command line that runs argv inside the root (as `user`, else root), with an environment of
        PATH and LANG plus `env` only."""
        e = {'PATH': '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin', 'LANG': 'C.UTF-8'}
        e.update(env or {})
        # The root directory as the holder's mount namespace has it (through /proc/PID/root): nsenter opens
        # --root and --wd before it enters, and the plain path would name the directory without the mounts.
        inside = f'/proc/{self.ns_pid}/root{self.path}'
        cmd = ['nsenter', f'--target={self.ns_pid}', '--mount', '--pid', f'--root={inside}', f'--wd={inside}', '--']
        if user is not None:
            uid, gid = self.users[user]
            cmd += ['setpriv', f'--reuid={uid}', f'--regid={gid}', '--init-groups', '--']
        return cmd + ['env', '-i'] + [f'{k}={v}' for k, v in e.items()] + list(argv)

    def host_argv(self, argv, user=None, env=None):
        """The command line that runs a program of the host in the root's namespaces (its PID namespace and
        its mounts, the root's paths under self.path): e.g. the host's busctl on a bus socket of the root."""
        e = {'PATH': '/usr/bin:/bin', 'LANG': 'C.UTF-8'}
        e.update(env or {})
        cmd = ['nsenter', f'--target={self.ns_pid}', '--mount', '--pid', '--']
        if user is not None:
            uid, gid = self.users[user]
            cmd += ['setpriv', f'--reuid={uid}', f'--regid={gid}', '--clear-groups', '--']
        return cmd + ['env', '-i'] + [f'{k}={v}' for k, v in e.items()] + list(argv)

    def run(self, argv, user=None, env=None, check=False, timeout=120, **kw):
        kw.setdefault('capture_output', True)
        kw.setdefault('text', True)
        r = subprocess.run(self.argv(argv, user, env), timeout=timeout, **kw)
        if check and r.returncode != 0:
            raise RuntimeError(f'{" ".join(argv)} exited {r.returncode} in the root: {(r.stderr or "").strip()[-500:]}')
        return r

    def popen(self, argv, user=None, env=None, **kw):
        kw.setdefault('start_new_session', True)
        return subprocess.Popen(self.argv(argv, user, env), **kw)


# The one desktop root of the suites that run today's desktops (GNOME Shell, Plasma 6) with sound, as
# PLATFORM-NOTES lists it ("One root with both desktops and sound"), plus what the suites run inside it:
# gsettings and dconf (the shell's settings), alarmd's libraries (libsqlite3-0).
DESKTOP_PACKAGES = [
    'gnome-shell', 'dbus-daemon', 'procps', 'plasma-workspace', 'plasma-desktop', 'qdbus-qt6', 'kwin-x11', 'xvfb',
    'xdotool', 'imagemagick', 'x11-utils', 'xauth', 'pipewire', 'wireplumber', 'pipewire-pulse', 'pulseaudio-utils',
    'gnome-session-canberra', 'sound-theme-freedesktop',
    'libglib2.0-bin', 'dconf-service', 'dconf-gsettings-backend', 'libsqlite3-0',
    # The passes in other languages (issue #36): glibc's locales, for alarmd's setlocale and gettext, and a
    # font with Chinese and Japanese glyphs.
    'locales-all', 'fonts-noto-cjk',
]
# The desktop root of a suite that runs GNOME Shell alone (sid's): sid carries Plasma through transitions
# that can leave it uninstallable for days, and the GNOME suites need none of it. alarmd loads libcanberra
# when it rings, as in the full root.
GNOME_PACKAGES = [
    'gnome-shell', 'dbus-daemon', 'procps', 'libglib2.0-bin', 'dconf-service', 'dconf-gsettings-backend',
    'libsqlite3-0', 'libcanberra0', 'sound-theme-freedesktop',
]
SUITE_PACKAGES = {'sid': GNOME_PACKAGES}
# The Release files of forky and sid on the mirror can be past their Valid-Until.
SUITE_APTOPTS = {suite: ['Acquire::Check-Valid-Until "false"'] for suite in ('forky', 'sid')}


def desktop_root(suite, log=None, logfile=None):
    """cached_root() of the desktop root for `suite` (trixie, forky: both desktops; sid: GNOME alone)."""
    return cached_root(suite, SUITE_PACKAGES.get(suite, DESKTOP_PACKAGES), 'desktop',
                       aptopts=SUITE_APTOPTS.get(suite, ()), log=log, logfile=logfile)


# Per release: the version suffix (so that each release's build upgrades the one before it:
# 0.1.0-1 < 0.1.0-1+deb13) and the build profiles: Debian 13 has no Plasma 5 to build the applet for,
# but Plasma 6 (debian/control).
BUILD_RELEASES = {
    "trixie": {"suffix": "+deb13", "profiles": ["pkg.alarmd.noplasma5", "pkg.alarmd.plasma6"], "number": "13"},
}
# What the host's Swift toolchain loads, beyond what building C needs (ldd of swift-frontend).
TOOLCHAIN = ["libncurses6", "libedit2", "libxml2", "libcurl4t64", "zlib1g", "libstdc++-14-dev", "libgcc-14-dev"]


def build_depends(profiles):
    """debian/control's Build-Depends that apply under these build profiles (Debian policy 7.1's
    restriction lists, `<!name>` and `<name>`), as package names."""
    text = open(os.path.join(REPO_ROOT, "debian", "control")).read()
    source = text.split("\n\n")[0]
    field = re.search(r"^Build-Depends:(.*?)(?=^\S)", source + "\nEnd:", re.M | re.S).group(1)
    field = "\n".join(line for line in field.splitlines() if not line.lstrip().startswith("#"))
    names = []
    for item in filter(None, (i.strip() for i in field.split(","))):
        restrictions = re.findall(r"<([^>]*)>", item)
        applies = not restrictions or any(
            all((t[1:] not in profiles) if t.startswith("!") else (t in profiles) for t in r.split())
            for r in restrictions)
        if applies:
            name = re.split(r"[\s(<\[]", item, maxsplit=1)[0]
            names.append("debhelper" if name == "debhelper-compat" else name)  # virtual: debhelper provides it
    return names


def build_root(suite, log=None, logfile=None):
    """cached_root() of the build root for `suite` (a key of BUILD_RELEASES): debian/control's
    Build-Depends under that release's build profiles, lintian, and what the host's Swift toolchain
    loads. scripts/deb-in-root builds the packages in it, scripts/build-in-root anything else."""
    profiles = BUILD_RELEASES[suite]["profiles"]
    return cached_root(suite, build_depends(profiles) + ["build-essential", "lintian", "fakeroot"] + TOOLCHAIN,
                       "build", log=log, logfile=logfile)[0]
