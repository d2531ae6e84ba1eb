// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// Every message carries D-Bus values: whoever uses the bus layer uses them too.
@_exported import BusValue
