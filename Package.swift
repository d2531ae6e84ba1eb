// swift-tools-version:6.0
// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import PackageDescription

let package = Package(
    name: "alarmd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "alarmd", targets: ["alarmd"]),
        .executable(name: "alarmctl", targets: ["alarmctl"]),
        .library(name: "AlarmClient", targets: ["AlarmClient"]),
    ],
    targets: [
        // C libraries from Debian, wrapped by module maps (headers live in /usr/include).
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // glibc's gettext and LC_TIME (<libintl.h>, which Swift's Glibc module leaves out).
        .systemLibrary(name: "CIntl", path: "Sources/CIntl"),
        // libcanberra and libpulse: their headers, and a pointer to each function alarmd calls, which
        // dlopen fills on first use (CDlopen), so that an idle alarmd maps neither library nor all they load.
        .target(name: "CDlopen", path: "Sources/CDlopen"),
        .target(name: "CCanberra", dependencies: ["CDlopen"], path: "Sources/CCanberra"),
        .target(name: "CPulse", dependencies: ["CDlopen"], path: "Sources/CPulse"),
        // GSettings, the same way, on a phone only (feedbackd's allow-list).
        .target(name: "CGio", dependencies: ["CDlopen"], path: "Sources/CGio"),

        // The wire value: a D-Bus value in pure Swift, the leaf both layers below share.
        .target(name: "BusValue", path: "Sources/BusValue"),

        // Functional core: pure Swift, no C imports, driven by an injected clock.
        .target(name: "AlarmCore", dependencies: ["BusValue"], path: "Sources/AlarmCore"),

        // Thin typed layer over sd-bus and sd-event; knows nothing of alarms.
        .target(name: "SDBus", dependencies: ["CSystemd", "BusValue"], path: "Sources/SDBus"),

        // Files as the shells read them (text, paths, the local zone's TZif), without Foundation.
        .target(name: "SystemFiles", dependencies: ["AlarmCore"], path: "Sources/SystemFiles"),

        // The session's language for what the shells say (the core's `Language`): gettext, nl_langinfo.
        .target(name: "Gettext", dependencies: ["AlarmCore", "CIntl", "SystemFiles"], path: "Sources/Gettext"),

        // Imperative shell: manager object, store, timers.
        .target(name: "AlarmDaemon", dependencies: ["AlarmCore", "SDBus", "SystemFiles", "Gettext", "CSystemd", "CSQLite", "CCanberra", "CPulse", "CGio"],
                path: "Sources/AlarmDaemon"),

        // What every client shares: the contract's names (from AlarmCore), a typed proxy, snapshots
        // with the applet rule, a live mirror fed by signals, panel lines. Never the daemon.
        .target(name: "AlarmClient", dependencies: ["AlarmCore", "SDBus", "SystemFiles", "Gettext"], path: "Sources/AlarmClient"),

        .executableTarget(name: "alarmd", dependencies: ["AlarmDaemon"], path: "Sources/alarmd"),
        .executableTarget(name: "alarmctl", dependencies: ["AlarmClient", "AlarmCore", "SDBus", "Gettext"], path: "Sources/alarmctl"),
        // What the tools below and the unit tests share: what the clients know must hold after a crash
        // (CrashModel, docs/crash-consistency.md), and hostile input generators and the engine harness
        // (AlarmFuzzing, docs/fuzzing.md), whose recorded inputs AlarmCoreTests replays.
        .target(name: "CrashModel", dependencies: ["AlarmCore"], path: "tools/crash/Model"),
        .target(name: "AlarmFuzzing", dependencies: ["AlarmCore"], path: "tools/fuzz/AlarmFuzzing"),

        // Test peers speaking published protocols: notification server, app, logind.
        .executableTarget(name: "alarmd-test-peer", dependencies: ["SDBus", "AlarmCore"], path: "Tests/TestPeer"),
        .target(name: "TestSupport", dependencies: ["SDBus", "AlarmCore"], path: "Tests/TestSupport"),
        // The test layers (docs/HACKING.md, Tests): the unit tests, in process and fast, ...
        .testTarget(name: "DaemonTests", dependencies: ["AlarmDaemon", "Gettext", "CIntl", "SDBus", "SystemFiles", "TestSupport"], path: "Tests/DaemonTests",
                    exclude: ["Fixtures"]),   // data files, read by path (no resource bundle: no Foundation Bundle)
        .testTarget(name: "AlarmCoreTests", dependencies: ["AlarmCore", "AlarmFuzzing", "TestSupport"], path: "Tests/AlarmCoreTests"),
        .testTarget(name: "AlarmClientTests", dependencies: ["AlarmClient", "AlarmCore", "TestSupport"], path: "Tests/AlarmClientTests"),
        .testTarget(name: "CrashModelTests", dependencies: ["CrashModel", "AlarmCore"], path: "Tests/CrashModelTests"),
        // ... the daemon's behaviour: the built alarmd on private buses, driven by clients, alarmctl and test peers, ...
        .testTarget(name: "IntegrationTests", dependencies: ["TestSupport", "SDBus", "AlarmCore", "AlarmClient", "CSystemd", "alarmd", "alarmctl", "alarmd-test-peer"],
                    path: "Tests/IntegrationTests"),
        // ... and the project's checks: docs, man pages, completions, packaging, code generation (the
        // tools' own checks, ToolChecks, below).
        .testTarget(name: "ProjectChecks", dependencies: ["TestSupport", "SDBus", "AlarmCore", "AlarmClient", "alarmd", "alarmctl", "alarmd-test-peer"],
                    path: "Tests/ProjectChecks"),
    ],
    swiftLanguageModes: [.v6]
)

// The tools, declared only with ALARMD_TOOLS=1 in the environment (the Makefile's tool and test targets
// set it): `swift build` builds every target a package declares, needed by a test or not, so that
// `swift build --build-tests` would otherwise build them all for the unit and integration tests, which
// never run them. ToolChecks runs each in a small run.
if Context.environment["ALARMD_TOOLS"] == "1" {
    package.targets += [
        .testTarget(name: "ToolChecks", dependencies: ["TestSupport", "SDBus", "AlarmCore", "AlarmDaemon", "alarmd", "alarmd-test-peer",
                                                       "alarmd-bench", "alarmd-floor", "alarmd-crash", "alarmd-fuzz-bus", "alarmd-zone-oracle"],
                    path: "Tests/ToolChecks"),
        // The floor `make bench` measures alarmd's idle memory and size against: sd-bus, SQLite, nothing else.
        .executableTarget(name: "alarmd-floor", dependencies: ["SDBus", "CSQLite"], path: "tools/bench/Floor"),
        .executableTarget(name: "alarmd-bench", dependencies: ["AlarmCore", "SDBus", "CSystemd", "TestSupport"], path: "tools/bench/AlarmBench"),

        // Crash consistency (`make crash-test`): the harness that kills alarmd at random instants and
        // judges the store by what the clients know (CrashModel).
        .executableTarget(name: "alarmd-crash", dependencies: ["CrashModel", "AlarmCore", "SDBus", "CSystemd", "CSQLite", "TestSupport"],
                          path: "tools/crash/Harness"),

        // Fuzzing (docs/fuzzing.md): the engine under libFuzzer (`make fuzz-core`; a replay of inputs
        // otherwise; libFuzzer's entry point is only declared here), and a client that floods a running
        // alarmd with hostile calls.
        .systemLibrary(name: "CLibFuzzer", path: "tools/fuzz/CLibFuzzer"),
        .executableTarget(name: "alarmd-fuzz-core", dependencies: ["AlarmFuzzing", "CLibFuzzer"], path: "tools/fuzz/alarmd-fuzz-core"),
        .executableTarget(name: "alarmd-fuzz-bus", dependencies: ["AlarmFuzzing", "AlarmCore", "AlarmDaemon", "SDBus", "CSystemd", "CSQLite", "TestSupport"],
                          path: "tools/fuzz/alarmd-fuzz-bus"),

        // The zone oracle: AlarmCore's zones against glibc's for every file of a zone database.
        // Optimised even in a debug build: it converts about a million instants.
        .executableTarget(name: "alarmd-zone-oracle", dependencies: ["AlarmCore"], path: "Tests/ZoneOracle",
                          swiftSettings: [.unsafeFlags(["-O"])]),
    ]
}
