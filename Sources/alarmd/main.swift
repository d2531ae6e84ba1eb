// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmDaemon
import Glibc

exit(alarmdMain(CommandLine.arguments))
