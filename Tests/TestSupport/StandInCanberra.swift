// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Foundation

/// A libcanberra.so.0 of the test's own, found by alarmd first through `environment`'s
/// LD_LIBRARY_PATH: the calls alarmd makes, with `proplistSets` and `playFull` (C function bodies)
/// doing what the test needs; everything else succeeds and does nothing.
public final class StandInCanberra {
    public let dir: TempDir
    public var environment: [String: String] { ["LD_LIBRARY_PATH": dir.path] }

    public init(proplistSets: String = "(void)p; (void)k; (void)v; return 0;", playFull: String) throws {
        dir = TempDir("alarmd-stand-in-canberra")
        let source = """
            #include <fcntl.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include <unistd.h>
            int ca_context_create(void **c) { *c = malloc(1); return 0; }
            int ca_context_destroy(void *c) { free(c); return 0; }
            int ca_context_change_props_full(void *c, void *p) { (void)c; (void)p; return 0; }
            int ca_context_cancel(void *c, unsigned id) { (void)c; (void)id; return 0; }
            int ca_proplist_create(void **p) { *p = malloc(1); return 0; }
            int ca_proplist_destroy(void *p) { free(p); return 0; }
            const char *ca_strerror(int code) { (void)code; return "stand-in"; }
            int ca_proplist_sets(void *p, const char *k, const char *v) { \(proplistSets) }
            int ca_context_play_full(void *c, unsigned id, void *p, void *cb, void *data) {
                (void)c; (void)id; (void)p; (void)cb; (void)data;
                \(playFull)
            }
            """
        try source.write(toFile: dir.path + "/canberra.c", atomically: true, encoding: .utf8)
        let cc = try runCommand("/usr/bin/cc", ["-shared", "-fPIC", "-o", dir.path + "/libcanberra.so.0", dir.path + "/canberra.c"])
        guard cc.status == 0 else { throw TestFailure("cc: \(cc.err)") }
    }
}
