// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Gettext

/// The language of everything alarmctl writes for a person: the session's (LANG, LC_ALL, LC_MESSAGES
/// for the words, LC_TIME for the clock and the week). What scripts read stays as it is in every
/// locale: `--json`, the panel's classes, D-Bus names, the event names of `monitor`.
let language: any Language = Translation.current

func say(_ phrase: Phrase) -> String { language.say(phrase) }
