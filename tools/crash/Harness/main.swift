// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

// alarmd-crash: `make crash-test`. Kills alarmd with SIGKILL at seeded random instants while
// several clients call it, restarts it, and checks the store against what the clients were told
// (docs/crash-consistency.md). See CrashOptions.usage.

exit(CrashRun.main(Array(CommandLine.arguments.dropFirst())))
