// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "strata",
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  products: [
    // `import Strata`. Named apart from the `strata` executable by more than case: on a
    // case-insensitive file system (a Mac's default) some build systems put both at one path.
    .library(name: "StrataLibrary", targets: ["Strata"]),
    .executable(name: "strata", targets: ["StrataTool"]),
    .executable(name: "strata-bench", targets: ["StrataBenchmarks"]),
    .executable(name: "strata-fuzz", targets: ["StrataFuzz"]),
    // An app's template built (or its committed template checked) at build time.
    .plugin(name: "StrataTemplatePlugin", targets: ["StrataTemplatePlugin"]),
    // The same with the tool built beforehand: no compile of the library for the building
    // machine in the app's build (docs/build-plugin.md, "A prebuilt tool").
    .plugin(name: "StrataTemplatePrebuiltPlugin", targets: ["StrataTemplatePrebuiltPlugin"]),
    // The build plugin's tool, under its target's name: SwiftPM (6.3) finds a build plugin's
    // executable-target dependency by a product named as the target, and runs it as a host
    // tool named as the target.
    .executable(name: "StrataPluginTool", targets: ["StrataPluginTool"]),
    // A server's start-up on a dqlite cluster: `DqliteDatabase(url:)`, migrate, seed, backup.
    .library(name: "StrataDqlite", targets: ["StrataDqlite"]),
    // What an app's own tests use: never linked into the app.
    .library(name: "StrataTesting", targets: ["StrataTesting"]),
  ],
  targets: [
    // The system libsqlite3, found with pkg-config. Only Linux builds it: Apple platforms
    // import the SDK's `SQLite3` module instead.
    .systemLibrary(
      name: "StrataSQLite",
      pkgConfig: "sqlite3",
      providers: [
        .apt(["libsqlite3-dev"]),
        .yum(["sqlite-devel"]),
      ]
    ),
    // The system zlib, for gzipped seed files (Debian's zlib1g-dev; the SDKs' libz on Apple
    // platforms).
    .systemLibrary(
      name: "StrataZlib",
      providers: [
        .apt(["zlib1g-dev"]),
        .yum(["zlib-devel"]),
      ]
    ),
    // Linux's statfs(2), which the Glibc module leaves out (FolderSnapshot.isOnLocalDisk).
    .systemLibrary(name: "StrataStatfs"),
    .target(
      name: "Strata",
      dependencies: [
        .target(name: "StrataSQLite", condition: .when(platforms: [.linux])),
        .target(name: "StrataStatfs", condition: .when(platforms: [.linux])),
        "StrataZlib",
      ],
      // The privacy manifest App Store Connect reads from every SDK an app links
      // (docs/apple-platforms.md); `.ci/privacy-manifest-check` keeps it true to the code.
      resources: [.copy("Resources/PrivacyInfo.xcprivacy")]
    ),
    // A client of dqlite's wire protocol (docs/dqlite.md): POSIX sockets, no outside package.
    .target(name: "StrataDqlite", dependencies: ["Strata"]),
    // The CLI's own argument parser: a library so that the fuzzer can reach it.
    .target(name: "StrataArguments"),
    // The commands, in a library: `strata` is its `main`, and the fuzzer reaches it.
    // StrataDqlite: `--database dqlite://…` (docs/dqlite.md).
    .target(name: "StrataCLI", dependencies: ["Strata", "StrataArguments", "StrataDqlite"]),
    // `strata`. A Linux release build is static and linked at a fixed address when built as
    // docs/decisions.md says ("A release build of the CLI is static"): flags of the `swift
    // build` command, not of this manifest, which an app using strata by version must load.
    .executableTarget(name: "StrataTool", dependencies: ["StrataCLI"]),
    // What the build plugin runs: builds or checks an app's template through the library,
    // without the commands (StrataArguments: the one rule for escaping what it prints).
    .executableTarget(name: "StrataPluginTool", dependencies: ["Strata", "StrataArguments"]),
    .executableTarget(
      name: "StrataBenchmarks",
      // StrataCLI: `inspect-formats` renders the schema as the `inspect` command does;
      // StrataDqlite and StrataTestSupport: `dqlite` against a real three-node cluster.
      dependencies: ["Strata", "StrataTesting", "StrataCLI", "StrataDqlite", "StrataTestSupport"],
      path: "Benchmarks/StrataBenchmarks"
    ),
    // Fuzzing (docs/RELIABILITY.md). `Fuzz/run.sh` builds `strata-fuzz` with
    // `-sanitize=fuzzer,address -DFUZZING`; a plain build replays inputs through the same checks.
    .target(name: "LibFuzzerDriver", path: "Fuzz/LibFuzzerDriver"),
    .target(
      name: "StrataFuzzChecks",
      // StrataCLI: the output rule (`output`) and the `--databases` resolution (`fleet-list`);
      // StrataDqlite: its decoder, fed a hostile server's answers (`dqlite-wire`).
      dependencies: ["Strata", "StrataArguments", "StrataCLI", "StrataDqlite"],
      path: "Fuzz/Checks"
    ),
    .executableTarget(
      name: "StrataFuzz",
      dependencies: ["StrataFuzzChecks", "LibFuzzerDriver"],
      path: "Fuzz/StrataFuzz"
    ),
    // Fixtures both test targets use.
    .target(
      name: "StrataTestSupport",
      // StrataDqlite: a real dqlite cluster for the tests (`DqliteCluster`).
      dependencies: ["Strata", "StrataDqlite"],
      path: "Tests/StrataTestSupport"
    ),
    .testTarget(name: "StrataTests", dependencies: ["Strata", "StrataTestSupport"]),
    .testTarget(
      name: "StrataCLITests",
      dependencies: ["Strata", "StrataArguments", "StrataCLI", "StrataTestSupport"]
    ),
    // The dqlite client against a real three-node cluster of `dqlite-demo` and hostile servers.
    .testTarget(
      name: "StrataDqliteTests",
      dependencies: ["StrataDqlite", "Strata", "StrataTestSupport"]
    ),
    // Every seed input and every input a fuzzer ever crashed on, through the fuzz checks.
    .testTarget(
      name: "StrataFuzzTests",
      dependencies: ["StrataFuzzChecks", "Strata", "StrataArguments"]
    ),
    // The build plugin runs its own small tool (docs/build-plugin.md).
    .plugin(
      name: "StrataTemplatePlugin",
      capability: .buildTool(),
      dependencies: [.target(name: "StrataPluginTool")],
      path: "Plugins/StrataTemplatePlugin"
    ),
    // No dependency: it runs a `StrataPluginTool` found on disk. Its shared files are links to
    // StrataTemplatePlugin's.
    .plugin(
      name: "StrataTemplatePrebuiltPlugin",
      capability: .buildTool(),
      path: "Plugins/StrataTemplatePrebuiltPlugin"
    ),
    .target(name: "StrataTesting", dependencies: ["Strata"]),
    // A target as an app would have it: migrations bundled, its template built by the plugin.
    .target(
      name: "StrataPluginFixture",
      path: "Tests/PluginFixture",
      resources: [.copy("migrations")],
      plugins: ["StrataTemplatePlugin"]
    ),
    .testTarget(
      name: "StrataTestingTests",
      dependencies: ["StrataTesting", "StrataPluginFixture", "Strata", "StrataTestSupport"]
    ),
    // The three apps of docs/apps-compared.md, written as an app developer would, run by
    // `swift test` (Examples/Tests): first launch, a second launch, an update.
    .target(
      name: "StudentStoreExample",
      dependencies: ["Strata"],
      path: "Examples/StudentStore",
      resources: [.copy("migrations"), .copy("seeds")]
    ),
    .target(
      name: "PeopleStoreExample",
      dependencies: ["Strata"],
      path: "Examples/PeopleStore",
      resources: [.copy("migrations"), .copy("seeds")],
      plugins: ["StrataTemplatePlugin"]
    ),
    .target(
      name: "FieldsAppExample",
      dependencies: ["Strata"],
      path: "Examples/FieldsApp",
      resources: [.copy("migrations"), .copy("seeds")]
    ),
    // The Xcode-shaped app (Examples/XcodeApp): its launch code and bundled folders as the app
    // target has them, its template built by the plugin; the SwiftUI entry point is Xcode's.
    .target(
      name: "PeopleAppExample",
      dependencies: ["Strata"],
      path: "Examples/XcodeApp/PeopleApp",
      exclude: ["PeopleApp.swift"],
      resources: [.copy("migrations"), .copy("seeds")],
      plugins: ["StrataTemplatePlugin"]
    ),
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        "StudentStoreExample", "PeopleStoreExample", "FieldsAppExample", "PeopleAppExample",
        "Strata",
      ],
      path: "Examples/Tests"
    ),
  ],
  swiftLanguageModes: [.v6]
)
