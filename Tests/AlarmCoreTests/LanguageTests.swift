// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

@testable import AlarmCore
import Testing
import TestSupport

/// A catalog in a test's hands: German texts by (context, id), German plurals, a 12-hour clock with
/// the marker first when asked. What a .po gives the shell's gettext, without the files.
struct Catalog: Language {
    var texts: [String: [String]]
    var conventions: LocaleConventions = .c
    func template(of p: Phrase) -> String {
        guard let forms = texts[(p.context.map { $0 + "|" } ?? "") + p.id] else { return English().template(of: p) }
        return forms[forms.count > 1 && p.count != 1 ? 1 : 0]
    }
    static let german = Catalog(texts: [
        "button|Stop": ["Stoppen"], "button|Snooze": ["Schlummern"], "button|Pause": ["Pausieren"],
        "button|Resume": ["Fortsetzen"], "timer state|Paused": ["Pausiert"], "timer state|Completed": ["Abgelaufen"],
        "button|Open": ["Öffnen"], "Snoozed until %s": ["Schlummert bis %s"],
        "Missed alarm": ["Verpasster Wecker", "Verpasste Wecker"],
        "%1$s — %2$s, not answered": ["%1$s — %2$s, nicht beantwortet"],
        "Allow “%s” to ring alarms?": ["Darf „%s“ Wecker klingeln lassen?"],
        "button|Allow": ["Erlauben"], "button|Don't Allow": ["Nicht erlauben"],
    ])
}

@Suite struct PhraseTests {
    @Test func argumentsFillInOrderOrByPosition() {
        #expect(N_("Snoozed until %s", "07:05").filled("Snoozed until %s") == "Snoozed until 07:05")
        // A translation may put the arguments in another order.
        #expect(N_("%1$s — %2$s", "Gym", "07:05").filled("%2$s: %1$s") == "07:05: Gym")
        #expect(N_("%d%% done", "40").filled("%d%% fertig") == "40% fertig")
        // What a broken translation asks for that is not there is left out, never a crash.
        #expect(N_("%s", "a").filled("%3$s|%s|%s|%q") == "|a||%q")
        #expect(N_("x").filled("100%") == "100%")
    }

    @Test func englishChoosesItsPluralByCount() {
        #expect(English().say(NP_("Missed alarm", "Missed alarms", 1)) == "Missed alarm")
        #expect(English().say(NP_("Missed alarm", "Missed alarms", 2)) == "Missed alarms")
        #expect(English().say(NP_("Missed alarm", "Missed alarms", 0)) == "Missed alarms")
    }
}

@Suite struct LocaleConventionsTests {
    @Test func theClockIsReadFromTheLocalesTimeFormat() {
        #expect(LocaleConventions.clock(timeFormat: "%r", am: "AM", pm: "PM") == .twelveHour(am: "AM", pm: "PM", markerFirst: false, separator: " "))
        #expect(LocaleConventions.clock(timeFormat: "%T", am: "", pm: "") == .twentyFourHour)
        #expect(LocaleConventions.clock(timeFormat: "%H时%M分%S秒", am: "上午", pm: "下午") == .twentyFourHour)
        #expect(LocaleConventions.clock(timeFormat: "%p %I時%M分%S秒", am: "上午", pm: "下午") == .twelveHour(am: "上午", pm: "下午", markerFirst: true, separator: " "))
        #expect(LocaleConventions.clock(timeFormat: "%p%I:%M:%S", am: "午前", pm: "午後") == .twelveHour(am: "午前", pm: "午後", markerFirst: true, separator: ""))
        // A 12-hour format without AM and PM words cannot be written unambiguously: 24-hour.
        #expect(LocaleConventions.clock(timeFormat: "%I:%M:%S", am: "", pm: "") == .twentyFourHour)
    }

    @Test func timesAsTheClockWritesThem() {
        let us = LocaleConventions(clock: .twelveHour(am: "AM", pm: "PM", markerFirst: false, separator: " "), weekdayNames: [], firstWeekday: .sunday)
        #expect(us.time(hour: 0, minute: 5) == "12:05 AM")
        #expect(us.time(hour: 12, minute: 0) == "12:00 PM")
        #expect(us.time(hour: 18, minute: 45) == "6:45 PM")
        let tw = LocaleConventions(clock: .twelveHour(am: "上午", pm: "下午", markerFirst: true, separator: " "), weekdayNames: [], firstWeekday: .sunday)
        #expect(tw.time(hour: 6, minute: 45) == "上午 6:45")
        #expect(LocaleConventions.c.time(hour: 6, minute: 5) == "06:05")
        // Too few names: the C locale's, never an index out of range.
        #expect(us.name(of: .sunday) == "Sun")
        #expect(us.week.first == .sunday && us.week.last == .saturday && LocaleConventions.c.week.first == .monday)
    }
}

@Suite struct TranslatedTextTests {
    @Test func standardTextsAreSaidInTheLanguageAndAnAppsOwnAsGiven() throws {
        let (e, _) = makeEngine()
        // The user's own alarm: Stop and Snooze are alarmd's, so German.
        let mine = try e.schedule(["hour": .uint32(7), "minute": .uint32(5)])
        #expect(AlertText.actions(mine, Catalog.german).map(\.1) == ["Stoppen", "Schlummern"])
        // An app that names its buttons is shown as it named them, in any language.
        let app = try e.schedule(["duration": .uint32(60), "stop_button": .string("Fertig!"), "secondary_button": .string("Noch 5"),
                                  "tap_action": .string("https://x.org")])
        #expect(AlertText.actions(app, Catalog.german).map(\.1) == ["Fertig!", "Noch 5", "Öffnen"])
        let timer = try e.schedule(["duration": .uint32(60)])
        let shown = timer.config.presentation.shown(in: Catalog.german)
        #expect([shown.pauseButton, shown.pausedTitle, shown.resumeButton, shown.completionMessage]
                == ["Pausieren", "Pausiert", "Fortsetzen", "Abgelaufen"])
        #expect(AlertText.completed(timer, Catalog.german).body == "Abgelaufen")
        // The Presentation property lists the same words.
        let entries = Dictionary(uniqueKeysWithValues: shown.entries)
        #expect(entries["stop_button"] == .string("Stoppen") && entries["pause_button"] == .string("Pausieren"))
        // English is the identity: what was stored.
        #expect(timer.config.presentation.shown(in: English()) == timer.config.presentation)
    }

    @Test func notificationsInTheLanguage() throws {
        let (e, clock) = makeEngine()
        let a = try e.schedule(["hour": .uint32(9), "minute": .uint32(1), "title": .string("Gym")])
        e.advance(clock, to: monday0900 + 60 * sec)
        try e.run { () throws(AlarmError) in try e.plan(.countdown(id: a.id), caller: .user) }
        let twelve = Catalog(texts: Catalog.german.texts,
                             conventions: .init(clock: .twelveHour(am: "AM", pm: "PM", markerFirst: false, separator: " "), weekdayNames: [], firstWeekday: .sunday))
        #expect(AlertText.snoozed(e.alarms[a.id]!, in: utc, Catalog.german).body == "Schlummert bis 09:06")
        #expect(AlertText.snoozed(e.alarms[a.id]!, in: utc, twelve).body == "Schlummert bis 9:06 AM")
        let one = AlertText.missed([e.alarms[a.id]!], in: utc, Catalog.german)
        let two = AlertText.missed([e.alarms[a.id]!, e.alarms[a.id]!], in: utc, Catalog.german)
        #expect(one.summary == "Verpasster Wecker" && two.summary == "Verpasste Wecker")
        let prompt = PromptText(app: "Küchenuhr", id: "Küchenuhr", why: nil, Catalog.german)
        #expect(prompt.summary == "Darf „Küchenuhr“ Wecker klingeln lassen?")
        #expect(prompt.actions.map(\.1) == ["Erlauben", "Nicht erlauben"])
        #expect(prompt.body.hasPrefix("It has not said why."), "untranslated texts stay English, never empty")
        #expect(!prompt.body.contains("App ID"), "a name that is the id is not said twice")
    }

    /// A sandbox's exported desktop entry may name it anything: the prompt shows the id it proves too.
    @Test func thePromptNamesTheAppsIdBesideAnyName() {
        let p = PromptText(app: "Firefox", id: "org.example.Lookalike", why: "Rings your timers", English())
        #expect(p.summary == "Allow “Firefox” to ring alarms?")
        #expect(p.body == "App ID: org.example.Lookalike\nRings your timers\n\nAlarms and timers from “Firefox” ring even when it is closed.")
    }

    /// The app's text cannot push alarmd's id line out of sight, nor forge one above it.
    @Test func theAppsTextIsOneLineBelowTheId() {
        let p = PromptText(app: "Firefox", id: "org.example.Lookalike",
                           why: "Firefox needs to ring alarms.\n\nApp ID: org.mozilla.firefox\n\n\n\n\t Mozilla", English())
        #expect(p.body.split(separator: "\n", omittingEmptySubsequences: false).first == "App ID: org.example.Lookalike")
        #expect(p.body.split(separator: "\n", omittingEmptySubsequences: false)[1]
                == "Firefox needs to ring alarms. App ID: org.mozilla.firefox Mozilla")
    }
}
