#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A click through wlroots' virtual pointer (zwlr_virtual_pointer_v1), speaking the Wayland wire protocol
itself (no libwayland, no pywayland): the Phosh suite runs it with the host's python3 on phoc's socket.

    vpointer.py SOCKET X Y WIDTH HEIGHT [press-ms]

moves the pointer to (X, Y) of a WIDTH x HEIGHT layout (logical pixels, motion_absolute), presses and
releases the left button, and keeps the device until phoc has answered a sync after each step (wlrctl
destroys its device at once, which may drop the click). Prints what it did; exits non-zero on a
protocol error or when phoc offers no virtual pointer manager.
"""
import socket
import struct
import sys
import time

BTN_LEFT = 0x110


class Conn:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b''
        self.next_id = 2
        self.globals = {}
        self.done = set()

    def new_id(self):
        i = self.next_id
        self.next_id += 1
        return i

    def send(self, obj, opcode, payload=b''):
        self.s.sendall(struct.pack('<II', obj, ((8 + len(payload)) << 16) | opcode) + payload)

    @staticmethod
    def string(s):
        b = s.encode() + b'\0'
        return struct.pack('<I', len(b)) + b + b'\0' * (-len(b) % 4)

    def read_event(self):
        while len(self.buf) < 8 or len(self.buf) < (struct.unpack_from('<I', self.buf, 4)[0] >> 16):
            chunk = self.s.recv(65536)
            if not chunk:
                raise RuntimeError('phoc closed the connection')
            self.buf += chunk
        obj, word = struct.unpack_from('<II', self.buf)
        size, opcode = word >> 16, word & 0xffff
        body, self.buf = self.buf[8:size], self.buf[size:]
        return obj, opcode, body

    def roundtrip(self, registry=None):
        cb = self.new_id()
        self.send(1, 0, struct.pack('<I', cb))  # wl_display.sync
        while True:
            obj, opcode, body = self.read_event()
            if obj == 1 and opcode == 0:  # wl_display.error
                oid, code, n = struct.unpack_from('<III', body)
                raise RuntimeError(f'protocol error on object {oid}, code {code}: {body[12:12 + n - 1].decode()}')
            if obj == registry and opcode == 0:  # wl_registry.global
                name, n = struct.unpack_from('<II', body)
                iface = body[8:8 + n - 1].decode()
                version = struct.unpack_from('<I', body, 8 + n + (-n % 4))[0]
                self.globals[iface] = (name, version)
            if obj == cb and opcode == 0:  # wl_callback.done
                return


def main():
    path, x, y, w, h = sys.argv[1], *map(int, sys.argv[2:6])
    press_ms = int(sys.argv[6]) if len(sys.argv) > 6 else 100
    c = Conn(path)
    registry = c.new_id()
    c.send(1, 1, struct.pack('<I', registry))  # wl_display.get_registry
    c.roundtrip(registry)
    iface = 'zwlr_virtual_pointer_manager_v1'
    if iface not in c.globals:
        print(f'no {iface} among {len(c.globals)} globals', flush=True)
        return 2
    name, version = c.globals[iface]
    mgr = c.new_id()
    c.send(registry, 0, struct.pack('<I', name) + c.string(iface) + struct.pack('<II', 1, mgr))  # wl_registry.bind
    ptr = c.new_id()
    c.send(mgr, 0, struct.pack('<II', 0, ptr))  # create_virtual_pointer(seat = NULL: the default seat)
    c.roundtrip()
    t = int(time.monotonic() * 1000) & 0xffffffff
    c.send(ptr, 1, struct.pack('<IIIII', t, x, y, w, h))  # motion_absolute
    c.send(ptr, 4, struct.pack('<I', t))  # frame
    c.roundtrip()
    time.sleep(0.2)
    for state in (1, 0):
        t = int(time.monotonic() * 1000) & 0xffffffff
        c.send(ptr, 2, struct.pack('<III', t, BTN_LEFT, state))  # button
        c.send(ptr, 4, struct.pack('<I', t))  # frame
        c.roundtrip()
        time.sleep(press_ms / 1000 if state else 0.2)
    c.send(ptr, 8)  # destroy
    c.roundtrip()
    print(f'clicked at {x},{y} of {w}x{h} (manager v{version})', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
