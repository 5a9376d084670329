import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Every URL a setup is given is checked before the database is created: each bad one is a
/// typed error an app can show, and no file appears.
@Suite struct SetupInputCheckTests {
  private func expectNothingCreated(_ fixture: SetupFixture) {
    #expect(databaseFileKind(at: fixture.database.path) == .missing)
    #expect(
      !FileManager.default.fileExists(atPath: fixture.database.deletingLastPathComponent().path)
    )
  }

  @Test func aMigrationsURLThatIsAFileIsSaidToBeAFile() throws {
    let fixture = try SetupFixture()
    let file = try fixture.dir.write("migrations.sql", "CREATE TABLE a (x);")
    let setup = DatabaseSetup(database: fixture.database, migrations: file)
    let error = #expect(throws: MigrationError.self) { try setup.run() }
    #expect(error == .folderUnusable(path: file.path, reason: "it is a file, not a folder"))
    expectNothingCreated(fixture)
  }

  @Test func aMissingSeedsFolderFailsBeforeTheDatabaseIsCreatedOrMigrated() throws {
    let fixture = try SetupFixture()
    var setup = fixture.setup(template: fixture.template)
    setup.seeds = fixture.dir.path("seeds")
    let error = #expect(throws: SeedError.self) { try setup.run() }
    #expect(error == .directoryNotFound(path: fixture.dir.path("seeds").path))
    expectNothingCreated(fixture)
  }

  @Test func aSeedsURLThatIsAFileIsSaidToBeAFile() throws {
    let fixture = try SetupFixture()
    var setup = fixture.setup()
    setup.seeds = try fixture.dir.write("b.csv", "id,a_x\n1,one\n")
    let error = #expect(throws: SeedError.self) { try setup.run() }
    #expect(error?.message.contains("it is a file, not a folder") == true)
    expectNothingCreated(fixture)
  }

  /// Root reads any folder: the permission check is meaningful only for another user.
  @Test(.enabled(if: getuid() != 0)) func anUnreadableSeedsFolderFailsFirst() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write("seeds/b.csv", "id,a_x\n1,one\n")
    let seeds = fixture.dir.path("seeds")
    chmod(seeds.path, 0)
    defer { chmod(seeds.path, 0o755) }
    var setup = fixture.setup()
    setup.seeds = seeds
    let error = #expect(throws: SeedError.self) { try setup.run() }
    #expect(error?.message.contains("permission denied") == true)
    expectNothingCreated(fixture)
  }

  @Test func aMissingTemplateFailsEvenWhenTheDatabaseExists() throws {
    let fixture = try SetupFixture()
    try fixture.setup().run()
    let missing = fixture.dir.path("nope.sqlite3")
    let before = try Data(contentsOf: fixture.database)
    #expect(throws: SetupError.templateMissing(path: missing.path)) {
      try fixture.setup(template: missing).run()
    }
    #expect(try Data(contentsOf: fixture.database) == before)
  }

  @Test func aStaleTemplateIsRefusedAndNothingIsCreated() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write("migrations/0003_c.sql", "CREATE INDEX b_a ON b (a_x, id);\n")
    let error = #expect(throws: SetupError.self) {
      try fixture.setup(template: fixture.template).run()
    }
    guard case .templateDisagrees(let path, let problem) = error else {
      Issue.record("expected templateDisagrees, got \(String(describing: error))")
      return
    }
    #expect(path == fixture.template.path && problem.contains("0003"))
    #expect(error?.message.contains("was built from other migrations") == true)
    expectNothingCreated(fixture)
  }
}

/// SwiftPM's `.process("migrations")` copies the folder's files into the bundle's top level:
/// a fake bundle on disk, as SwiftPM lays it out, gets the error that says so.
@Suite struct FlattenedFolderTests {
  private func flattenedBundle() throws -> (TemporaryDirectory, Bundle) {
    let dir = try TemporaryDirectory()
    for (name, text) in SetupFixture.files { try dir.write("App_App.resources/\(name)", text) }
    try dir.write("App_App.resources/template.sqlite3", "")
    let bundle = try #require(Bundle(path: dir.path("App_App.resources").path))
    return (dir, bundle)
  }

  @Test func aFlattenedMigrationsFolderIsNamedAsSuchByResource() throws {
    // The folder goes when `dir` does: keep it.
    let (dir, bundle) = try flattenedBundle()
    defer { withExtendedLifetime(dir) {} }
    let error = #expect(throws: SetupError.self) {
      try DatabaseSetup.resource("migrations", in: bundle)
    }
    #expect(
      error
        == .folderFlattened(
          name: "migrations",
          container: "the bundle \(bundle.bundlePath)",
          looseFiles: ["0001_a.sql", "0002_b.sql", "0003_c.sql"]
        )
    )
    #expect(
      error?.message.contains("files it should hold (0001_a.sql, 0002_b.sql, 0003_c.sql)") == true
    )
    #expect(error?.help.contains(".copy(\"migrations\")") == true)
  }

  @Test func aMissingFolderWithNothingLooseIsStillMissing() throws {
    let dir = try TemporaryDirectory()
    try dir.write("Other.resources/readme.txt", "hello")
    let bundle = try #require(Bundle(path: dir.path("Other.resources").path))
    #expect(throws: SetupError.resourceMissing(name: "migrations", bundle: bundle.bundlePath)) {
      try DatabaseSetup.resource("migrations", in: bundle)
    }
  }

  @Test func runSaysFlattenedForAMigrationsURLBesideLooseFiles() throws {
    let (dir, bundle) = try flattenedBundle()
    let migrations = URL(fileURLWithPath: bundle.bundlePath).appendingPathComponent("migrations")
    let database = dir.path("Documents/app.sqlite3")
    let setup = DatabaseSetup(database: database, migrations: migrations)
    let error = #expect(throws: SetupError.self) { try setup.run() }
    guard case .folderFlattened(let name, _, let loose) = error else {
      Issue.record("expected folderFlattened, got \(String(describing: error))")
      return
    }
    #expect(name == "migrations" && loose.count == 3)
    #expect(databaseFileKind(at: database.path) == .missing)
  }

  @Test func aMissingMigrationsFolderBesideAnUnversionedSQLFileIsMissing() throws {
    let dir = try TemporaryDirectory()
    try dir.write("schema.sql", "CREATE TABLE a (x);")
    let setup = DatabaseSetup(database: dir.path("app.sqlite3"), migrations: dir.path("migrations"))
    #expect(throws: MigrationError.directoryNotFound(path: dir.path("migrations").path)) {
      try setup.run()
    }
  }

  @Test func aFlattenedSeedsFolderIsNamedAsSuchBeforeAnythingIsCreated() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write("App.resources/b.csv", "id,a_x\n1,one\n")
    let bundle = try #require(Bundle(path: fixture.dir.path("App.resources").path))
    let error = #expect(throws: SetupError.self) { try DatabaseSetup.resource("seeds", in: bundle) }
    #expect(error?.message.contains("(b.csv)") == true)
    var setup = fixture.setup()
    setup.seeds = fixture.dir.path("App.resources/seeds")
    #expect(
      throws: SetupError.folderFlattened(
        name: "seeds",
        container: fixture.dir.path("App.resources").path,
        looseFiles: ["b.csv"]
      )
    ) { try setup.run() }
    #expect(databaseFileKind(at: fixture.database.path) == .missing)
  }

  /// What an app shows in an alert for a resource left out of the bundle: what, where, that
  /// nothing was created, and how to fix it.
  @Test func aMissingResourceReadsWellInAnAlert() throws {
    let error = SetupError.resourceMissing(name: "migrations", bundle: "/App.app")
    #expect(
      error.message
        == "the resource migrations is not in the bundle /App.app; no database was created or changed"
    )
    #expect(error.help.hasPrefix("Add migrations to the target's resources"))
  }
}
