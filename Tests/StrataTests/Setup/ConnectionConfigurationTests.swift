import Foundation
import StrataTestSupport
import Testing

@testable import Strata

private func writeMigrations(in folder: TemporaryDirectory) throws -> URL {
  try FunctionMigrations.write(in: folder, calling: "twice")
}

/// The app's configuration: registers `twice(x)`.
private let withTwice = ConnectionConfiguration { connection in
  try connection.registerFunction("twice", argumentCount: 1, deterministic: true) { arguments in
    guard case .integer(let number) = arguments[0] else { return .null }
    return .integer(number * 2)
  }
}

@Suite struct ConnectionConfigurationTests {
  @Test func setupRunsMigrationsThatCallTheAppsFunction() throws {
    let folder = try TemporaryDirectory()
    var setup = DatabaseSetup(
      database: folder.path("app.sqlite3"),
      migrations: try writeMigrations(in: folder)
    )
    #expect(throws: MigrationError.self) { try setup.run() }
    try? FileManager.default.removeItem(at: folder.path("app.sqlite3"))
    setup.connectionConfiguration = withTwice
    let report = try setup.run()
    #expect(report.version == 2)
    let db = try withTwice.open(path: folder.path("app.sqlite3").path)
    #expect(
      try db.rows("SELECT x, y FROM computed ORDER BY x") == [
        [.integer(2), .real(4)], [.integer(5), .real(10)],
      ]
    )
  }

  @Test func setupFromATemplateBuiltWithTheFunction() throws {
    let folder = try TemporaryDirectory()
    let migrations = try MigrationSet(directory: try writeMigrations(in: folder))
    let template = folder.path("template.sqlite3")
    #expect(throws: MigrationError.self) { try TemplateBuilder.build(migrations, to: template) }
    #expect(!FileManager.default.fileExists(atPath: template.path))
    let built = try TemplateBuilder.build(migrations, to: template, configuration: withTwice)
    #expect(built.version == 2)
    // Replacing an unchanged template rebuilds its migrations: the function is needed again.
    try TemplateBuilder.build(migrations, to: template, replacing: true, configuration: withTwice)
    var setup = DatabaseSetup(
      database: folder.path("app.sqlite3"),
      migrations: folder.path("migrations"),
      template: template
    )
    setup.connectionConfiguration = withTwice
    let report = try setup.run()
    #expect(report.templateCopied && report.version == 2)
  }

  @Test func migrateAndRollbackOnAConnectionOpenedWithTheConfiguration() throws {
    let folder = try TemporaryDirectory()
    let migrator = Migrator(try MigrationSet(directory: try writeMigrations(in: folder)))
    let url = folder.path("app.sqlite3")
    let plain = try Connection.open(at: url, access: .create)
    #expect(throws: MigrationError.self) { try migrator.migrate(plain) }
    let db = try Connection.open(at: url, access: .write, configuration: withTwice)
    #expect(try migrator.migrate(db).toVersion == 2)
    #expect(try migrator.rollback(db, .steps(2)).toVersion == 0)
    #expect(
      try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'computed'") == .integer(0)
    )
  }

  @Test func validateAndDriftReplayWithTheConfiguration() throws {
    let folder = try TemporaryDirectory()
    let set = try MigrationSet(directory: try writeMigrations(in: folder))
    let db = try Connection.open(
      at: folder.path("app.sqlite3"),
      access: .create,
      configuration: withTwice
    )
    try Migrator(set).migrate(db, options: MigrateOptions(target: 1))
    // Without the function the replay fails on it.
    #expect(try !Validator(set).validate(db).problems.isEmpty)
    #expect(throws: InspectionError.self) { try DriftCheck(set).check(db) }
    let result = try Validator(set, configuration: withTwice).validate(db)
    #expect(result.problems == [] && result.notChecked == [] && result.schemaCompared)
    let drift = try DriftCheck(set, configuration: withTwice).check(db)
    #expect(!drift.hasDrift && drift.schemaCompared && drift.replayedVersions == [1])
  }

  @Test func aConfigurationThatFailsLeavesNoNewFile() throws {
    let folder = try TemporaryDirectory()
    let url = folder.path("new.sqlite3")
    let broken = ConnectionConfiguration(extensions: [
      SQLiteExtension(url: folder.path("none.so"))
    ])
    let error = #expect(throws: ExtensionLoadError.self) {
      try Connection.open(at: url, access: .create, configuration: broken)
    }
    #expect(error?.message.contains(folder.path("none.so").path) == true)
    #expect(error?.message.hasSuffix("nothing was changed") == true)
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test func anErrorOfThePreparationFailsTheOpenAndTheSetup() throws {
    struct Refused: Error {}
    let folder = try TemporaryDirectory()
    let refusing = ConnectionConfiguration { _ in throw Refused() }
    var setup = DatabaseSetup(
      database: folder.path("app.sqlite3"),
      migrations: try writeMigrations(in: folder)
    )
    setup.connectionConfiguration = refusing
    #expect(throws: Refused.self) { try setup.run() }
    #expect(!FileManager.default.fileExists(atPath: folder.path("app.sqlite3").path))
    #expect(throws: Refused.self) { try refusing.openInMemory() }
  }

  /// Every connection strata opens goes through `ConnectionConfiguration.open`, so no entry
  /// point can forget the app's configuration: `Connection(path:` and `Connection.inMemory()`
  /// appear nowhere else in the library or the CLI.
  @Test func noSourceOpensAConnectionAroundTheConfiguration() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var offenders: [String] = []
    for target in ["Sources/Strata", "Sources/StrataCLI"] {
      let folder = root.appendingPathComponent(target)
      let files =
        FileManager.default.enumerator(atPath: folder.path)?
        .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
      #expect(!files.isEmpty)
      for file in files
      where !["SQLite/Connection.swift", "SQLite/ConnectionConfiguration.swift"].contains(file) {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated()
        where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
          && (line.contains("Connection(path:") || line.contains("Connection.inMemory()"))
        {
          offenders.append("\(target)/\(file):\(number + 1)")
        }
      }
    }
    #expect(offenders == [])
  }
}
