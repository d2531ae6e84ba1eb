// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

// Configurations and metadata are D-Bus values: whoever uses the core uses them too.
@_exported import BusValue
