// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

// A reader that went away (a panel restarting) is noticed at the write, not by dying of SIGPIPE.
signal(SIGPIPE, SIG_IGN)
var program = AlarmCtl(Array(CommandLine.arguments.dropFirst()))
exit(program.run())
