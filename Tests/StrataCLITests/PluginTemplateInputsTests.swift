import Foundation
import Testing

/// How the build plugin finds a target's `migrations` folder and committed template among the
/// files its build system lists: `TemplateInputs` (Plugins/StrataTemplatePlugin/
/// TemplateInputs.swift), on the lists Xcode makes for an app target (`XcodeTarget.inputFiles`,
/// which only Xcode can show): a folder reference is one input, the folder itself; a
/// synchronized folder lists every file in it. SwiftPM's lists are checked in a real build by
/// .ci/plugin-check.
///
/// A test cannot import a plugin, and a copy of the file could drift from it: the plugin's own
/// file is compiled here with `swiftc`, with a driver that runs every case below and prints
/// what it found, one line a case. Paths only: the cases touch no disk.
@Suite struct PluginTemplateInputsTests {
  /// A case: the target's files (a path, and whether the build bundles it) under `root`, and
  /// what the plugin should find, as the driver prints it.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var root = "/Users/dev/PeopleApp"
    var files: [(path: String, bundled: Bool)]
    var expected: String

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a folder reference is the folder itself",
      files: [
        ("/Users/dev/PeopleApp/PeopleApp/PeopleApp.swift", false),
        ("/Users/dev/PeopleApp/PeopleApp/migrations", true),
        ("/Users/dev/PeopleApp/PeopleApp/seeds", true),
      ],
      expected: "folder /Users/dev/PeopleApp/PeopleApp/migrations"
    ),
    Case(
      name: "a folder listed with a trailing slash and dots is the same folder",
      files: [("/Users/dev/PeopleApp/PeopleApp/./x/../migrations/", true)],
      expected: "folder /Users/dev/PeopleApp/PeopleApp/migrations"
    ),
    Case(
      name: "a synchronized folder lists each file, which is bundled flat",
      files: [
        ("/Users/dev/PeopleApp/PeopleApp/PeopleApp.swift", false),
        ("/Users/dev/PeopleApp/PeopleApp/migrations/0002_index.sql", true),
        ("/Users/dev/PeopleApp/PeopleApp/migrations/0001_create_person_info.sql", true),
        ("/Users/dev/PeopleApp/PeopleApp/seeds/person_info.csv", true),
      ],
      expected: "flattened /Users/dev/PeopleApp/PeopleApp/migrations: "
        + "0001_create_person_info.sql, 0002_index.sql"
    ),
    Case(
      name: "a nested folder listed as itself",
      files: [("/Users/dev/PeopleApp/PeopleApp/Resources/migrations", true)],
      expected: "folder /Users/dev/PeopleApp/PeopleApp/Resources/migrations"
    ),
    Case(
      name: "a nested folder listed file by file",
      files: [("/Users/dev/PeopleApp/App/Database/migrations/0001_x.sql", true)],
      expected: "flattened /Users/dev/PeopleApp/App/Database/migrations: 0001_x.sql"
    ),
    Case(
      name: "a file in a folder inside migrations counts for migrations (diesel)",
      files: [
        ("/Users/dev/PeopleApp/App/migrations/2024-01-01-000000_create/up.sql", true),
        ("/Users/dev/PeopleApp/App/migrations/2024-01-01-000000_create/down.sql", true),
      ],
      expected: "flattened /Users/dev/PeopleApp/App/migrations: "
        + "2024-01-01-000000_create/down.sql, 2024-01-01-000000_create/up.sql"
    ),
    Case(
      name: "files the build does not bundle still name the folder",
      files: [("/Users/dev/PeopleApp/App/migrations/0001_x.sql", false)],
      expected: "not bundled /Users/dev/PeopleApp/App/migrations"
    ),
    Case(
      name: "a folder above the project named migrations is not the migrations folder",
      root: "/Users/dev/migrations/PeopleApp",
      files: [
        ("/Users/dev/migrations/PeopleApp/Sources/App.swift", false),
        ("/Users/dev/migrations/PeopleApp/Resources/notes/readme.txt", true),
      ],
      expected: "not found"
    ),
    Case(
      name: "outside the project, a file's own folder counts",
      files: [("/Users/dev/Shared/migrations/0001_x.sql", true)],
      expected: "flattened /Users/dev/Shared/migrations: 0001_x.sql"
    ),
    Case(
      name: "outside the project, a folder further up does not",
      files: [("/Users/dev/Shared/migrations/v1/up.sql", true)],
      expected: "not found"
    ),
    Case(name: "no files", files: [], expected: "not found"),
    Case(
      name: "no migrations folder among the files",
      files: [("/Users/dev/PeopleApp/PeopleApp/PeopleApp.swift", false)],
      expected: "not found"
    ),
    Case(
      name: "two migrations folders are ambiguous",
      files: [
        ("/Users/dev/PeopleApp/PeopleApp/migrations/0001_x.sql", true),
        ("/Users/dev/PeopleApp/Fixtures/migrations", true),
      ],
      expected: "ambiguous /Users/dev/PeopleApp/Fixtures/migrations, "
        + "/Users/dev/PeopleApp/PeopleApp/migrations"
    ),
  ]

  /// A committed-template case: the migrations folder, the files that exist on the (imagined)
  /// disk, the target's files, and the template the plugin checks ("none": it builds one).
  struct TemplateCase: CustomTestStringConvertible, Sendable {
    var name: String
    var existing: [String]
    var files: [String] = []
    var expected: String

    static let migrations = "/Users/dev/PeopleApp/PeopleApp/migrations"
    var testDescription: String { name }
  }

  static let templateCases: [TemplateCase] = [
    TemplateCase(
      name: "seeds/template.sqlite3 beside migrations comes first",
      existing: [
        "/Users/dev/PeopleApp/PeopleApp/seeds/template.sqlite3",
        "/Users/dev/PeopleApp/PeopleApp/template.sqlite3",
      ],
      expected: "/Users/dev/PeopleApp/PeopleApp/seeds/template.sqlite3"
    ),
    TemplateCase(
      name: "then template.sqlite3 beside migrations",
      existing: ["/Users/dev/PeopleApp/PeopleApp/template.sqlite3"],
      files: ["/Users/dev/PeopleApp/PeopleApp/Resources/template.sqlite3"],
      expected: "/Users/dev/PeopleApp/PeopleApp/template.sqlite3"
    ),
    TemplateCase(
      name: "then a target's file named template.sqlite3, anywhere",
      existing: [],
      files: [
        "/Users/dev/PeopleApp/PeopleApp/PeopleApp.swift",
        "/Users/dev/PeopleApp/PeopleApp/Resources/template.sqlite3",
      ],
      expected: "/Users/dev/PeopleApp/PeopleApp/Resources/template.sqlite3"
    ),
    TemplateCase(name: "else none", existing: [], expected: "none"),
  ]

  @Test(arguments: cases)
  func findsTheMigrationsFolder(_ test: Case) throws {
    let found = try Self.found.get()[test.name]
    #expect(found == test.expected)
  }

  @Test(arguments: templateCases)
  func findsTheCommittedTemplate(_ test: TemplateCase) throws {
    let found = try Self.found.get()[test.name]
    #expect(found == test.expected)
  }

  /// Each case's name and what the plugin's code found: compiled and run once for every test.
  static let found: Result<[String: String], any Error> = Result { try runDriver() }

  static func runDriver() throws -> [String: String] {
    let repository = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let plugin = repository.appendingPathComponent(
      "Plugins/StrataTemplatePlugin/TemplateInputs.swift"
    )
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-plugin-inputs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let driver = folder.appendingPathComponent("Driver.swift")
    try Data(driverSource().utf8).write(to: driver)
    let executable = folder.appendingPathComponent("driver")
    let compiled = try run(
      "/usr/bin/env",
      [
        "swiftc", "-parse-as-library", "-swift-version", "6", "-o", executable.path,
        plugin.path, driver.path,
      ]
    )
    guard compiled.status == 0 else {
      throw DriverFailure(what: "swiftc failed on \(plugin.path)", output: compiled.output)
    }
    let ran = try run(executable.path, [])
    guard ran.status == 0 else {
      throw DriverFailure(what: "the driver failed", output: ran.output)
    }
    var found: [String: String] = [:]
    for line in ran.output.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count == 2 { found[String(parts[0])] = String(parts[1]) }
    }
    return found
  }

  /// A program that prints, for each case, its name, a tab and what `TemplateInputs` found.
  static func driverSource() -> String {
    func literal(_ text: String) -> String { String(reflecting: text) }
    var calls: [String] = []
    for test in cases {
      let files = test.files.map { "file(\(literal($0.path)), \($0.bundled))" }
      calls.append(
        "show(\(literal(test.name)), TemplateInputs.migrationsFolder(among: ["
          + files.joined(separator: ", ") + "], under: folder(\(literal(test.root)))))"
      )
    }
    for test in templateCases {
      let files = test.files.map { "file(\(literal($0)), true)" }
      let existing = test.existing.map(literal)
      calls.append(
        "show(\(literal(test.name)), TemplateInputs.committedTemplate(besides: folder("
          + literal(TemplateCase.migrations) + "), among: [" + files.joined(separator: ", ")
          + "]) { [" + existing.joined(separator: ", ") + "].contains($0.path) })"
      )
    }
    return """
      import Foundation

      func file(_ path: String, _ bundled: Bool) -> TemplateInputs.TargetFile {
        TemplateInputs.TargetFile(URL(fileURLWithPath: path), isBundled: bundled)
      }

      func folder(_ path: String) -> URL { URL(fileURLWithPath: path, isDirectory: true) }

      func show(_ name: String, _ search: TemplateInputs.FolderSearch) {
        let found: String
        switch search {
        case .found(let url, .folder): found = "folder \\(url.path)"
        case .found(let url, .flattened(let files)):
          found = "flattened \\(url.path): " + files.joined(separator: ", ")
        case .found(let url, .notBundled): found = "not bundled \\(url.path)"
        case .notFound: found = "not found"
        case .ambiguous(let urls): found = "ambiguous " + urls.map(\\.path).joined(separator: ", ")
        }
        print(name + "\\t" + found)
      }

      func show(_ name: String, _ template: URL?) {
        print(name + "\\t" + (template?.path ?? "none"))
      }

      @main enum Driver {
        static func main() {
      \(calls.map { "    " + $0 }.joined(separator: "\n"))
        }
      }

      """
  }

  struct DriverFailure: Error, CustomStringConvertible {
    var what: String
    var output: String
    var description: String { "\(what):\n\(output)" }
  }

  /// How a program ended, and what it printed (output and errors together).
  struct Ran {
    var status: Int32
    var output: String
  }

  static func run(_ program: String, _ arguments: [String]) throws -> Ran {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Ran(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
  }
}
