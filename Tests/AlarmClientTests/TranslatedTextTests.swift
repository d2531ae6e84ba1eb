// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore
import Testing

/// A German catalog as a .po gives it to gettext, in the test's hands (as AlarmCoreTests' `Catalog`):
/// texts by context and id, a plural for any count but one, and German LC_TIME conventions (24-hour,
/// "Mo" to "So", Monday first) unless a test gives others.
struct GermanCatalog: Language {
    var conventions = LocaleConventions(clock: .twentyFourHour, weekdayNames: ["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"], firstWeekday: .monday)
    let texts: [String: [String]] = [
        "Every day": ["Jeden Tag"], "Today": ["Heute"], "Tomorrow": ["Morgen"], "Once": ["Einmalig"],
        "%1$s–%2$s": ["%1$s–%2$s"], "list of days|, ": [", "], "month|Dec": ["Dez."],
        "date|%1$s %2$s %3$s": ["%1$s, %2$s. %3$s"], "weekday and time|%1$s %2$s": ["%1$s. %2$s"],
        "Next alarm: %s": ["Nächster Wecker: %s"],
        "%d h": ["%d Std.", "%d Std."], "%d min": ["%d Min.", "%d Min."], "%d s": ["%d Sek.", "%d Sek."],
        "%d d": ["%d Tag", "%d Tage"], "duration|%1$s %2$s": ["%1$s %2$s"], "in %s": ["in %s"], "%s ago": ["vor %s"],
        "time|now": ["jetzt"], "%1$dd %2$s": ["%1$d T. %2$s", "%1$d T. %2$s"],
        "panel|off": ["aus"], "alarmd is not running": ["alarmd läuft nicht"],
        "default title|Timer": ["Timer"], "default title|Alarm": ["Wecker"],
        "%1$s: %2$s left": ["%1$s: noch %2$s"], "%1$s: paused, %2$s left": ["%1$s: pausiert, noch %2$s"],
        "%1$s: %2$s (%3$s)": ["%1$s: %2$s (%3$s)"], "%s: ringing": ["%s: klingelt"],
        "there is no hour %s in a day (hours are 00 to 23)": ["Einen Tag mit der Stunde %s gibt es nicht (Stunden gehen von 00 bis 23)"],
        "February": ["Februar"],
        "%1$s %2$s has no day %3$s (it has days 01 to %4$s)": ["Der %1$s %2$s hat keinen %3$s. Tag (er hat die Tage 01 bis %4$s)"],
        "is longer than %s, the most it may be": ["ist länger als %s, das Höchste, was geht"],
        "%d day": ["%d Tag", "%d Tage"],
        "unknown command '%s'": ["unbekannter Befehl „%s“"],
    ]

    func template(of p: Phrase) -> String {
        guard let forms = texts[(p.context.map { $0 + "|" } ?? "") + p.id] else { return English().template(of: p) }
        return forms[forms.count > 1 && p.count != 1 ? 1 : 0]
    }
}

/// What alarmctl and the panels write goes through the Language they are given: its words, its
/// weekday names, its first day of the week and its clock. English() is the C locale's, which the
/// shared client-rules cases hold (ClientRulesTests).
@Suite struct TranslatedTextTests {
    let s = usecPerSecond
    /// Tuesday 2026-12-01 00:00 UTC.
    let now: USec = 1_796_083_200 * usecPerSecond
    let german = GermanCatalog()
    /// An en_US-like locale: Sunday first, 12-hour clock.
    let us = LocaleConventions(clock: .twelveHour(am: "AM", pm: "PM", markerFirst: false, separator: " "),
                               weekdayNames: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], firstWeekday: .sunday)

    @Test func daysInTheLanguagesNamesAndWeek() {
        let workdays = ["monday", "tuesday", "wednesday", "thursday", "friday"]
        #expect(AlarmText.days(workdays, fire: 0, now: now, zone: .utc, language: german) == "Mo–Fr")
        #expect(AlarmText.days(workdays, fire: 0, now: now, zone: .utc) == "Mon–Fri", "English() unless told")
        #expect(AlarmText.days(Weekday.allCases.map(\.rawValue), fire: 0, now: now, zone: .utc, language: german) == "Jeden Tag")
        // The runs are read from the language's first day: Fri to Mon is one run in a Monday-first
        // week only where it does not wrap.
        let long = ["friday", "saturday", "sunday", "monday"]
        #expect(AlarmText.days(long, fire: 0, now: now, zone: .utc, language: german) == "Mo, Fr–So")
        var sundayFirst = german
        sundayFirst.conventions.firstWeekday = .sunday
        #expect(AlarmText.days(long, fire: 0, now: now, zone: .utc, language: sundayFirst) == "So, Mo, Fr, Sa")
        // An explicit first day still wins (the applets pass their desktop's).
        #expect(AlarmText.days(long, firstDay: .monday, fire: 0, now: now, zone: .utc, language: sundayFirst) == "Mo, Fr–So")
    }

    @Test func oneShotDaysInTheLanguage() {
        #expect(AlarmText.days([], fire: 0, now: now, zone: .utc, language: german) == "Einmalig")
        #expect(AlarmText.days([], fire: now + 3600 * s, now: now, zone: .utc, language: german) == "Heute")
        #expect(AlarmText.days([], fire: now + 86_400 * s, now: now, zone: .utc, language: german) == "Morgen")
        // Friday 2026-12-25.
        #expect(AlarmText.days([], fire: now + 24 * 86_400 * s, now: now, zone: .utc, language: german) == "Fr, 25. Dez.")
        #expect(AlarmText.days([], fire: now + 24 * 86_400 * s, now: now, zone: .utc) == "Fri 25 Dec")
    }

    @Test func timesInTheLanguagesClock() {
        let eveningThursday = now + (2 * 86_400 + 18 * 3600 + 45 * 60) * s
        #expect(TimeText.local(now + 7 * 3600 * s, now: now, zone: .utc, language: german) == "07:00")
        #expect(TimeText.local(eveningThursday, now: now, zone: .utc, language: german) == "Do. 18:45")
        let twelve = GermanCatalog(conventions: us)
        #expect(TimeText.local(now + 7 * 3600 * s, now: now, zone: .utc, language: twelve) == "7:00 AM")
        #expect(TimeText.local(eveningThursday, now: now, zone: .utc, language: twelve) == "Thu. 6:45 PM")
        #expect(TimeText.local(eveningThursday, now: now, zone: .utc) == "Thu 18:45", "the C locale's, as always")
        let alarm = SnapshotTests.snapshot("scheduled", fire: eveningThursday, kind: "alarm")
        #expect(AlarmText.nextAlarmHeading(of: alarm, zone: .utc, language: german) == "Nächster Wecker: Do. 18:45")
        #expect(AlarmText.nextAlarmHeading(of: alarm, zone: .utc, language: English()) == "Next alarm: Thu 18:45")
    }

    @Test func durationsInTheLanguagesUnits() {
        #expect(TimeText.relative(now + (7 * 3600 + 12 * 60) * s, from: now, language: german) == "in 7 Std. 12 Min.")
        #expect(TimeText.relative(now - 300 * s, from: now, language: german) == "vor 5 Min.")
        #expect(TimeText.relative(now + 3 * 86_400 * s, from: now, language: german) == "in 3 Tage", "the plural by the count")
        #expect(TimeText.relative(now, from: now, language: german) == "jetzt")
        #expect(TimeText.clock(2 * 86_400 * s + 3723 * s, language: german) == "2 T. 01:02:03")
        #expect(CommandInput.durationText(5400, language: german) == "1 Std. 30 Min.")
    }

    @Test func repeatDaysKeepTheirGrammarOnlyInTheCLocale() {
        let workdays = ["monday", "tuesday", "wednesday", "thursday", "friday"]
        #expect(TimeText.days(workdays) == "mon-fri", "what --days reads, as alarmctl always printed it")
        #expect(TimeText.days(workdays, language: german) == "Mo–Fr")
        #expect(TimeText.days([], language: german) == "")
        #expect(TimeText.days(["funday"], language: german) == "", "names it does not know are left out, as in the C locale")
        #expect(TimeText.days(["funday", "sunday"], language: german) == "So")
    }

    @Test func panelTextInTheLanguage() {
        let off = PanelView.make(alarms: [], running: false, now: now, zone: .utc, language: german)
        #expect(off.text == "⏰ aus" && off.tooltip == "alarmd läuft nicht")
        let timer = SnapshotTests.snapshot("countdown", fire: now + 1499 * s, total: 1500 * s, presentation: [])
        let paused = SnapshotTests.snapshot("paused", total: 600 * s, elapsed: 60 * s, presentation: [("title", .string("Tee"))],
                                            id: "00000000-0000-4000-8000-000000000002")
        let alarm = SnapshotTests.snapshot("scheduled", fire: now + (2 * 86_400 + 6 * 3600) * s, presentation: [],
                                           id: "00000000-0000-4000-8000-000000000003", kind: "alarm", weekdays: ["thursday"])
        let v = PanelView.make(alarms: [timer, paused, alarm], running: true, now: now, zone: .utc, language: german)
        #expect(v.text == "Timer 24:59")
        #expect(v.tooltip.split(separator: "\n").sorted()
                == ["Tee: pausiert, noch 9:00", "Timer: noch 24:59", "Wecker: Do. 06:00 (Do)"], "\(v.tooltip)")
        // The class and the click actions are for machines: the same in every language.
        #expect(v.mode == PanelView.make(alarms: [timer, paused, alarm], running: true, now: now, zone: .utc).mode)
    }

    @Test func typingErrorsInTheLanguage() {
        #expect(CommandInput.readTime("25:00", language: german)
                == .failure(.invalid("Einen Tag mit der Stunde 25 gibt es nicht (Stunden gehen von 00 bis 23)")))
        #expect(CommandInput.readTime("2027-02-30 07:00", zone: .utc, language: german)
                == .failure(.invalid("Der Februar 2027 hat keinen 30. Tag (er hat die Tage 01 bis 28)")))
        #expect(CommandInput.readDuration("3d", range: 1...86_400, language: german)
                == .failure(.invalid("ist länger als 1 Tag, das Höchste, was geht")))
        #expect(CommandInput.readDuration("3d", range: 1...86_400) == .failure(.invalid("is longer than 1 day, the most it may be")))
        let failure = #expect(throws: Invocation.Failure.self) { try Invocation(["frobnicate"], language: german) }
        #expect(failure?.message == "unbekannter Befehl „frobnicate“")
    }
}
