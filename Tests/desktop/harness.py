# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later

"""Shared machinery of the desktop tests: a non-root user, a private runtime dir and session bus, the real
alarmd, a desktop (sway + waybar, or Xvfb + i3/i3bar or polybar) whose bar runs `alarmctl panel`,
screenshots read back by OCR, clicks, and cleanup of every process a test started.

Standard library only; run by /usr/bin/python3 as root (the runner, Tests/desktop/run, says how).
Every process of a test runs as the user USER; the test process is a child subreaper, so processes
that daemonize (i3 and sway start their bars with a double fork) stay its descendants and are killed
and reaped when the test ends, whatever way it ends.
"""

import ctypes
import json
import os
import pwd
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

USER = "alarmd-desktop"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
ARTIFACTS = os.path.join(REPO, "test-artifacts", "desktop")
MANAGER = ["org.alarmd.AlarmManager1", "/org/alarmd/AlarmManager1", "org.alarmd.AlarmManager1"]
CONVERT = "/usr/bin/convert"  # ImageMagick itself, whatever else is first on PATH
SCREEN_W, SCREEN_H = 1280, 800
SCALE = 3  # OCR reads the bar upscaled this much
BAR_BG = "#222222"  # every bar's background: its height is measured by this colour


class Failure(Exception):
    """A check failed: what the user would have seen differs from what was expected."""


# ---------------------------------------------------------------------------------------------- processes

def become_subreaper():
    """Orphaned descendants (double-forked bars, module commands) are reparented to us, not to PID 1
    (which reaps nothing here): we can find, kill and reap them all."""
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def descendants(root=None):
    """Pids of every living (or zombie) descendant of `root` (default: this process), parents first."""
    root = os.getpid() if root is None else root
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name is in parentheses and may contain spaces: the ppid follows the last ')'.
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(0), []):
            out.append(child)
            todo.append(child)
    return out


def describe(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return f"{pid} [{state}] {cmd or '(zombie)'}"
    except OSError:
        return f"{pid} (gone)"


def reap_all():
    """Collects every exited child (ours or orphans reparented to us) without blocking."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_descendants(grace=3.0):
    """SIGTERM to every descendant, SIGKILL to whatever is left after `grace` seconds; reaps them all.
    Returns the descriptions of the living processes it ended (zombies are only reaped)."""
    found = [describe(p) for p in descendants() if not _is_zombie(p)]
    deadline = time.monotonic() + grace
    sig = signal.SIGTERM
    while True:
        reap_all()
        alive = [p for p in descendants() if not _is_zombie(p)]
        zombies = [p for p in descendants() if _is_zombie(p)]
        if not alive and not zombies:
            return found
        for p in alive:
            try:
                os.kill(p, sig)
            except ProcessLookupError:
                pass
        if time.monotonic() > deadline:
            sig = signal.SIGKILL
        if time.monotonic() > deadline + 5:
            raise Failure("processes survive SIGKILL: " + ", ".join(describe(p) for p in alive + zombies))
        time.sleep(0.05)


def _is_zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return False


# --------------------------------------------------------------------------------------------- the user

def ensure_user():
    """The non-root user every desktop process runs as (sway refuses root). Idempotent."""
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        # Another run may create it at the same moment: its useradd failing is fine if the user exists.
        subprocess.run(["useradd", "--create-home", "--shell", "/usr/sbin/nologin",
                        "--comment", "alarmd desktop tests", USER])
        return pwd.getpwnam(USER)


def ensure_x11_socket_dir():
    """A non-root Xvfb cannot create /tmp/.X11-unix itself."""
    os.makedirs("/tmp/.X11-unix", exist_ok=True)
    os.chmod("/tmp/.X11-unix", 0o1777)


# ----------------------------------------------------------------------------------------------- helpers

def wait_until(what, predicate, timeout, interval=0.1):
    """Polls `predicate` until it returns something truthy (returned) or the deadline passes (Failure)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def unwrap(value):
    """busctl --json=short wraps every variant as {"type": …, "data": …}; keep the data."""
    if isinstance(value, dict) and set(value) == {"type", "data"}:
        return unwrap(value["data"])
    if isinstance(value, dict):
        return {k: unwrap(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unwrap(v) for v in value]
    return value


class Ocr:
    """What tesseract read in the bar: the text and its word boxes in screen coordinates."""

    def __init__(self, text, words, drawn=True):
        self.text = text
        self.words = words  # [(word, x, y, w, h)] in screen pixels
        self.drawn = drawn  # False: no bar on the screen yet

    @property
    def empty(self):
        """A bar is drawn and no text is in it."""
        return self.drawn and self.text == ""

    def find(self, word):
        """Screen centre (x, y) of the first word containing `word`, or None."""
        for w, x, y, width, height in self.words:
            if word in w:
                return x + width // 2, y + height // 2
        return None

    def __str__(self):
        return repr(self.text) if self.drawn else "(no bar drawn)"


# ----------------------------------------------------------------------------------------------- session

class Session:
    """One test's world: a temporary directory owned by USER (runtime dir, home, state, logs), the
    processes it starts, and an artifact directory test-artifacts/desktop/NAME that outlives it."""

    def __init__(self, name):
        self.name = name
        self.user = ensure_user()
        self.bin_dir = os.environ.get("ALARMD_BIN_DIR") or bin_path()
        self.alarmd = os.path.join(self.bin_dir, "alarmd")
        # Development only: ALARMCTL points at another alarmctl (a stand-in). Normally the one built
        # next to alarmd.
        self.alarmctl = os.environ.get("ALARMCTL") or os.path.join(self.bin_dir, "alarmctl")
        for binary in (self.alarmd, self.alarmctl):
            if not os.access(binary, os.X_OK):
                raise Failure(f"{binary} is not built (make test-desktop builds alarmd and alarmctl)")
        self.tmp = tempfile.mkdtemp(prefix=f"alarmd-desktop-{name[:20]}-")
        self.runtime = os.path.join(self.tmp, "run")
        self.home = os.path.join(self.tmp, "home")
        self.state = os.path.join(self.tmp, "state")
        self.logs = os.path.join(self.tmp, "logs")
        self.shots = os.path.join(self.tmp, "shots")
        for d in (self.runtime, self.home, self.state, self.logs, self.shots):
            os.makedirs(d)
        os.chmod(self.tmp, 0o755)
        os.chmod(self.runtime, 0o700)
        for d in (self.tmp, self.runtime, self.home, self.state, self.logs, self.shots):
            os.chown(d, self.user.pw_uid, self.user.pw_gid)
        self.artifacts = os.path.join(ARTIFACTS, name)
        shutil.rmtree(self.artifacts, ignore_errors=True)
        os.makedirs(self.artifacts)
        self.procs = []              # started by spawn, stopped in reverse order by close
        self.address = None
        self.display = None          # X display (":N") or Wayland socket name
        self.screenshot_cmd = None   # argv writing a PNG to the path appended to it
        self.shot_count = 0
        self.last_shot_window = None
        self.last_shot = None
        self._bar_height = None
        self.timings = {}
        self.t0 = time.monotonic()

    # ------------------------------------------------------------------ environment and processes

    def env(self, **extra):
        env = {
            "HOME": self.home, "USER": USER, "LOGNAME": USER, "SHELL": "/bin/sh",
            # alarmctl's own directory comes first: polybar actions say just `alarmctl …`.
            "PATH": f"{os.path.dirname(self.alarmctl)}:/usr/bin:/bin:/usr/sbin:/sbin",
            "XDG_RUNTIME_DIR": self.runtime, "LANG": "C.UTF-8", "NO_AT_BRIDGE": "1",
            # Hermetic: no sound server, no system bus (no logind), as in Tests/TestSupport.
            "PULSE_SERVER": "unix:/nonexistent/pulse",
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket",
        }
        if self.address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        env.update(extra)
        return env

    def spawn(self, label, argv, stdout=None, env=None, pass_fds=()):
        """Starts argv as USER in a new session; stderr (and stdout unless given) go to logs/LABEL.log."""
        log = open(os.path.join(self.logs, label + ".log"), "ab")
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout if stdout is not None else log,
                                stderr=log, env=env or self.env(), cwd=self.home, user=self.user.pw_uid,
                                group=self.user.pw_gid, extra_groups=[], start_new_session=True,
                                pass_fds=pass_fds)
        log.close()
        proc.label = label
        self.procs.append(proc)
        return proc

    def run(self, argv, env=None, timeout=30, check=True):
        """Runs argv as USER to completion."""
        result = subprocess.run(argv, capture_output=True, text=True, env=env or self.env(), cwd=self.home,
                                user=self.user.pw_uid, group=self.user.pw_gid, extra_groups=[],
                                timeout=timeout, stdin=subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise Failure(f"{shlex.join(argv)} exited {result.returncode}: {result.stderr.strip()}")
        return result

    def find_processes(self, program=None, args=()):
        """Pids of this test's living processes running `program` (the base name of argv[0]) and/or
        having `args` as consecutive arguments."""
        found = []
        for pid in descendants():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    argv = f.read().decode(errors="replace").split("\0")[:-1]
            except OSError:
                continue
            if _is_zombie(pid) or not argv:
                continue
            if program and os.path.basename(argv[0]) != program:
                continue
            n = len(args)
            if n and not any(argv[i:i + n] == list(args) for i in range(len(argv) - n + 1)):
                continue
            found.append(pid)
        return found

    def log(self, msg):
        print(f"  [{time.monotonic() - self.t0:6.2f} s] {msg}", flush=True)

    def expect_running(self, *procs):
        for p in procs:
            if p.poll() is not None:
                raise Failure(f"{p.label} exited with {p.returncode}; its log:\n" + self.read_log(p.label))

    def read_log(self, label):
        try:
            with open(os.path.join(self.logs, label + ".log"), errors="replace") as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    # ------------------------------------------------------------------------------ bus and daemon

    def start_bus(self):
        """A private session bus started as USER, reaped by us (no --fork)."""
        p = self.spawn("dbus-daemon", ["dbus-daemon", "--session", "--nofork", "--print-address=1",
                                       f"--address=unix:path={self.runtime}/bus"], stdout=subprocess.PIPE)
        ready, _, _ = select.select([p.stdout], [], [], 10)
        line = p.stdout.readline().decode().strip() if ready else ""
        if not line:
            raise Failure("dbus-daemon printed no address:\n" + self.read_log("dbus-daemon"))
        self.address = line
        self.log(f"session bus {self.address}")
        return p

    def start_alarmd(self):
        p = self.spawn("alarmd", [self.alarmd, "--bus-address", self.address, "--state-dir", self.state])

        def owned():
            self.expect_running(p)
            r = self.run(["busctl", f"--address={self.address}", "call", "org.freedesktop.DBus",
                          "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", MANAGER[0]])
            return r.stdout.strip() == "b true"

        wait_until("alarmd to own " + MANAGER[0], owned, 20, 0.05)
        self.log("alarmd is on the bus")
        return p

    def busctl(self, *args, json_out=False, check=True):
        argv = ["busctl", f"--address={self.address}"] + (["--json=short"] if json_out else [])
        return self.run(argv + ["call"] + MANAGER + [str(a) for a in args], check=check)

    def schedule_timer(self, title, duration, **presentation):
        """Schedule("", {title, duration, …}) through busctl, exactly as a user would; returns the id."""
        entries = [("title", title), ("duration", duration)] + list(presentation.items())
        args = ["Schedule", "sa{sv}", "", len(entries)]
        for key, value in entries:
            args += [key, "s", value]
        out = self.busctl(*args).stdout.strip()
        m = re.fullmatch(r'o "/org/alarmd/AlarmManager1/alarm/([0-9a-f_]+)"', out)
        if not m:
            raise Failure(f"Schedule answered {out!r}")
        alarm_id = m.group(1).replace("_", "-")
        self.log(f"scheduled {title!r} ({duration}) as {alarm_id}")
        return alarm_id

    def alarms(self):
        """GetAlarms, as plain dictionaries keyed by id."""
        data = json.loads(self.busctl("GetAlarms", json_out=True).stdout)["data"][0]
        return {a["Id"]: a for a in unwrap(data)}

    def alarm_state(self, alarm_id):
        a = self.alarms().get(alarm_id)
        return a["State"] if a else None

    def fire_time(self, alarm_id):
        """When the timer ends (s since the epoch), from the daemon's FireTimeUSec."""
        return self.alarms()[alarm_id]["FireTimeUSec"] / 1e6

    @staticmethod
    def panel_blocks():
        """The code blocks of the "Panels" section of docs/user-guide.md, as (language, text): the bars
        run the snippets a user copies, verbatim (alarmctl is found on PATH, the bus through
        DBUS_SESSION_BUS_ADDRESS, as in a desktop session)."""
        guide = open(os.path.join(REPO, "docs", "user-guide.md"), encoding="utf-8").read()
        section = guide.split("\n## Panels", 1)[1].split("\n## ", 1)[0]
        return re.findall(r"```(\w*)\n(.*?)```", section, re.S)

    @classmethod
    def panel_snippet(cls, bar):
        """waybar: (module dict, CSS); i3: the status_command line; polybar: the module's exec."""
        blocks = cls.panel_blocks()
        if bar == "waybar":
            module = json.loads("{" + next(t for lang, t in blocks if lang == "json") + "}")["custom/alarmd"]
            return module, next(t for lang, t in blocks if lang == "css")
        if bar == "i3":
            block = next(t for lang, t in blocks if t.lstrip().startswith("bar {"))
            return next(l.strip() for l in block.splitlines() if l.strip().startswith("status_command"))
        if bar == "polybar":
            block = next(t for lang, t in blocks if lang == "ini")
            return next(l.split("=", 1)[1].strip() for l in block.splitlines() if l.startswith("exec"))
        raise ValueError(bar)

    # ------------------------------------------------------------------------------------ desktops

    def start_xvfb(self):
        """Xvfb on a free display (it picks one and tells us through -displayfd)."""
        ensure_x11_socket_dir()
        t = time.monotonic()
        r, w = os.pipe()
        # -noreset: the server stays as it is when its last client leaves (a screenshot taken before the
        # bar connects).
        p = self.spawn("Xvfb", ["Xvfb", "-displayfd", str(w), "-screen", "0", f"{SCREEN_W}x{SCREEN_H}x24",
                                "-nolisten", "tcp", "-noreset"], pass_fds=(w,))
        os.close(w)
        # Xvfb writes the number and the newline in two writes and dies if the second one fails: read up
        # to the newline before closing our end.
        number = b""
        deadline = time.monotonic() + 20
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([r], [], [], 0.1)
            chunk = os.read(r, 64) if ready else b""
            if ready and not chunk:
                break
            number += chunk
        os.close(r)
        number = number.decode().strip()
        if not number.isdigit():
            raise Failure("Xvfb did not start:\n" + self.read_log("Xvfb"))
        self.display = ":" + number
        self.screenshot_cmd = ["import", "-window", "root"]
        self.timings["xvfb_up"] = time.monotonic() - t
        self.log(f"Xvfb on {self.display} in {self.timings['xvfb_up']:.2f} s")
        return p

    def x_env(self):
        return self.env(DISPLAY=self.display)

    def start_i3(self, bar_block):
        """i3 with one bar; `bar_block` is the body of its `bar { }`."""
        config = os.path.join(self.home, "i3.config")
        self.write_user_file(config, "# i3 config file (v4)\n"
                                     "font pango:DejaVu Sans Mono 12\n"
                                     f"bar {{\n{bar_block}\n}}\n")
        p = self.spawn("i3", ["i3", "-c", config], env=self.x_env())
        self.log("i3 started")
        return p

    def start_polybar(self, module_exec):
        config = os.path.join(self.home, "polybar.ini")
        self.write_user_file(config, f"""[bar/main]
width = 100%
height = 32
bottom = false
background = {BAR_BG}
foreground = #ffffff
font-0 = DejaVu Sans:size=14;3
font-1 = Noto Color Emoji:scale=10;2
padding = 2
modules-right = alarmd
enable-ipc = false

[module/alarmd]
type = custom/script
exec = {module_exec}
tail = true
""")
        p = self.spawn("polybar", ["polybar", "--config=" + config, "main"], env=self.x_env())
        self.log("polybar started")
        return p

    def start_sway_waybar(self):
        """Headless sway (pixman renderer, no input devices) whose config starts waybar."""
        t = time.monotonic()
        waybar_config = os.path.join(self.home, "waybar.json")
        waybar_css = os.path.join(self.home, "waybar.css")
        self.write_user_file(waybar_config, json.dumps({
            "layer": "top", "position": "top", "height": 32,
            "modules-left": [], "modules-center": [], "modules-right": ["custom/alarmd"],
            "custom/alarmd": self.panel_snippet("waybar")[0],
        }, indent=2))
        # Only non-emoji fonts, or digits are drawn from the emoji font.
        self.write_user_file(waybar_css, '* { font-family: "DejaVu Sans"; font-size: 18px; }\n'
                                         f"window#waybar {{ background: {BAR_BG}; color: #ffffff; }}\n"
                                         "#custom-alarmd { padding: 0 12px; }\n" + self.panel_snippet("waybar")[1])
        sway_config = os.path.join(self.home, "sway.config")
        self.write_user_file(sway_config, f"output HEADLESS-1 resolution {SCREEN_W}x{SCREEN_H}\n"
                                          "xwayland disable\n"
                                          f"exec waybar -c {waybar_config} -s {waybar_css}\n")
        p = self.spawn("sway", ["sway", "-c", sway_config], env=self.env(
            WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman"))

        def socket():
            self.expect_running(p)
            names = [n for n in os.listdir(self.runtime) if n.startswith("wayland-") and not n.endswith(".lock")]
            return names[0] if names else None

        self.display = wait_until("sway's Wayland socket", socket, 20)
        self.screenshot_cmd = ["grim"]
        self.timings["sway_up"] = time.monotonic() - t
        self.log(f"sway on {self.display} in {self.timings['sway_up']:.2f} s")
        return p

    def write_user_file(self, path, text):
        with open(path, "w") as f:
            f.write(text)
        os.chown(path, self.user.pw_uid, self.user.pw_gid)

    # ------------------------------------------------------------------------ seeing and clicking

    def screenshot(self):
        """A full-screen PNG taken as USER (import on X, grim on Wayland); returns its path."""
        self.shot_count += 1
        path = os.path.join(self.shots, f"shot-{self.shot_count:03d}.png")
        env = self.x_env() if self.display.startswith(":") else self.env(WAYLAND_DISPLAY=self.display)
        started = time.time()
        self.run(self.screenshot_cmd + [path], env=env)
        self.last_shot_window = (started, time.time())  # wall-clock time the screen was captured within
        self.last_shot = path
        return path

    def pixel(self, shot, x, y):
        """The colour of one pixel of a screenshot, '#RRGGBB'."""
        out = subprocess.run([CONVERT, shot, "-crop", f"1x1+{x}+{y}", "+repage", "-depth", "8", "txt:-"],
                             capture_output=True, text=True, check=True).stdout
        return re.search(r"#[0-9A-Fa-f]{6}", out.splitlines()[1]).group(0).upper()

    def bar_height(self, shot):
        """The bar's height: the rows at the top of the screen in its background colour (BAR_BG), measured
        once. OCR must see the bar alone: a strip of another colour under it spoils the reading."""
        if self._bar_height is None:
            column = subprocess.run([CONVERT, shot, "-crop", "1x200+0+0", "+repage", "txt:-"],
                                    capture_output=True, text=True, check=True).stdout
            rows = 0
            for line in column.splitlines()[1:]:
                if BAR_BG not in line.upper():
                    break
                rows += 1
            if rows < 10:
                return None  # not drawn yet
            self._bar_height = rows
            self.log(f"the bar is {rows} px high")
        return self._bar_height

    def ocr_bar(self, shot):
        """Reads the bar: cropped to it, upscaled, grey, negated (the bars draw light text on dark) and made
        black and white, then tesseract's word boxes mapped back to screen coordinates. Without the
        threshold tesseract misreads some grey renderings completely ('PZ 5:21' as 'eee bral |')."""
        height = self.bar_height(shot)
        if height is None:
            return Ocr("", [], drawn=False)
        prepared = shot[:-4] + "-bar.png"
        subprocess.run([CONVERT, shot, "-crop", f"{SCREEN_W}x{height}+0+0", "+repage",
                        "-resize", f"{SCALE * 100}%", "-colorspace", "Gray", "-negate", "-threshold", "50%", prepared],
                       check=True)
        tsv = subprocess.run(["tesseract", prepared, "-", "tsv"], capture_output=True, text=True, check=True,
                             env=dict(os.environ, OMP_THREAD_LIMIT="1")).stdout
        words = []
        for row in tsv.splitlines()[1:]:
            cols = row.split("\t")
            if len(cols) == 12 and cols[11].strip():
                left, top, width, height = (int(c) for c in cols[6:10])
                words.append((cols[11].strip(), left // SCALE, top // SCALE, width // SCALE, height // SCALE))
        return Ocr(" ".join(w[0] for w in words), words)

    def wait_for_bar(self, what, check, timeout=30, watch=()):
        """Screenshots and reads the bar until `check(ocr)` returns something truthy; returns
        (screenshot path, ocr, check's value). Fails at the deadline, keeping the last screenshot."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            self.expect_running(*watch)
            shot = self.screenshot()
            ocr = self.ocr_bar(shot)
            value = check(ocr)
            if value:
                return shot, ocr, value
            if last != ocr.text:
                self.log(f"bar reads {ocr}")
                last = ocr.text
            if time.monotonic() > deadline:
                kept = self.keep(shot, "timeout.png", ocr)
                raise Failure(f"the bar never showed {what} within {timeout} s; last read {ocr} ({kept})")

    def keep(self, path, name, ocr=None):
        """Copies a screenshot into the test's artifact directory (with what OCR read in it, NAME.txt) and
        says where."""
        dest = os.path.join(self.artifacts, name)
        shutil.copyfile(path, dest)
        if ocr is not None:
            with open(dest[:-4] + ".txt", "w") as f:
                f.write(str(ocr) + "\n")
        print(f"  artifact: {os.path.relpath(dest, REPO)}", flush=True)
        return os.path.relpath(dest, REPO)

    def click(self, x, y, *, button):
        """A real pointer click on the X display (XTEST, through xdotool)."""
        self.run(["xdotool", "mousemove", str(x), str(y), "click", str(button)], env=self.x_env())
        self.log(f"clicked button {button} at {x},{y}")

    # ------------------------------------------------------------------------------------- cleanup

    def close(self):
        """Stops what the test started, newest first (bars and desktop, then alarmd, then the bus), then
        kills and reaps anything left (double-forked bars, module commands)."""
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(3)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        killed = kill_descendants()
        if killed:
            self.log("cleanup also ended: " + "; ".join(killed))
        for name in sorted(os.listdir(self.logs)):
            shutil.copyfile(os.path.join(self.logs, name), os.path.join(self.artifacts, name))
        shutil.rmtree(self.tmp, ignore_errors=True)


def bin_path():
    """Where `swift build` puts alarmd and alarmctl."""
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    r = subprocess.run([swift, "build", "--show-bin-path"], cwd=REPO, capture_output=True, text=True)
    if r.returncode != 0:
        raise Failure("swift build --show-bin-path failed: " + r.stderr.strip())
    return r.stdout.strip()


# ------------------------------------------------------------------------------------- one test process

def main(namespace):
    """Entry point of a test file: `python3 test_x.py test_function` runs that test in a Session and exits
    0 (passed) or 1 (failed). Every process it started is gone when it exits."""
    name = sys.argv[1]
    test = namespace[name]
    become_subreaper()
    # The runner ends an overdue test with SIGTERM: unwind so that cleanup runs.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated (deadline)"))
    ok = False
    session = None
    try:
        session = Session(name)
        test(session)
        ok = True
    except Failure as e:
        print(f"  FAIL: {e}", flush=True)
    except SystemExit as e:
        print(f"  FAIL: {e}", flush=True)
    except BaseException:
        traceback.print_exc()
    finally:
        if session is not None:
            session.close()
        else:
            kill_descendants()
    for key, value in (session.timings.items() if session else []):
        print(f"  timing {key}: {value:.2f} s", flush=True)
    sys.exit(0 if ok else 1)
