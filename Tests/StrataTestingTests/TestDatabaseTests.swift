import Foundation
import Strata
import StrataPluginFixture
import StrataTestSupport
import StrataTesting
import Testing

/// `TestDatabase`: a database of its own per test, from the template or a setup.
@Suite struct TestDatabaseTests {
  private static func template() throws -> URL {
    try DatabaseSetup.resource("template", withExtension: "sqlite3", in: PluginFixture.bundle)
  }

  /// Two fresh databases from one template are separate files in separate folders: rows
  /// written to one are not in the other, nor in the template; the folder goes with the value.
  @Test func freshCopiesAreSeparateAndRemoved() throws {
    let template = try Self.template()
    let before = try Data(contentsOf: template)
    var first: TestDatabase? = try TestDatabase.fresh(template: template)
    let second = try TestDatabase.fresh(template: template)
    let folder = try #require(first?.folder)
    #expect(folder != second.folder)
    try #require(first).connection().execute(
      "INSERT INTO student VALUES ('S1', 'Ann', 20)"
    )
    #expect(
      try #require(first).connection().scalar("SELECT count(*) FROM student") == .integer(1)
    )
    #expect(try second.connection().scalar("SELECT count(*) FROM student") == .integer(0))
    #expect(try Data(contentsOf: template) == before)
    // Foreign keys are on, as on strata's own connections.
    #expect(try second.connection().scalar("PRAGMA foreign_keys") == .integer(1))
    first = nil
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }

  /// A missing template and a file that is not a database are typed errors naming the file.
  @Test func badTemplatesAreTypedErrors() throws {
    let dir = try TemporaryDirectory()
    let missing = dir.path("none.sqlite3")
    #expect(throws: SetupError.templateMissing(path: missing.path)) {
      try TestDatabase.fresh(template: missing)
    }
    let text = try dir.write("notes.sqlite3", "not a database\n")
    #expect(
      throws: SetupError.templateInvalid(
        path: text.path,
        reason: "it does not start with the SQLite header"
      )
    ) {
      try TestDatabase.fresh(template: text)
    }
  }

  /// From a `DatabaseSetup`: the setup runs into the test's own file (migrated, not the
  /// setup's database path).
  @Test func freshFromASetup() throws {
    let dir = try TemporaryDirectory()
    let migrations = try DatabaseSetup.resource("migrations", in: PluginFixture.bundle)
    let appDatabase = dir.path("app.sqlite3")
    let database = try TestDatabase.fresh(
      setup: DatabaseSetup(database: appDatabase, migrations: migrations)
    )
    #expect(!FileManager.default.fileExists(atPath: appDatabase.path))
    let connection = try database.connection()
    #expect(try connection.scalar("SELECT max(version) FROM strata_migrations") == .integer(2))
    try connection.execute("INSERT INTO person_info VALUES ('Ann', 30)")
  }

  /// The form a test writes: the app's migrations, template and seeds, no database URL; the
  /// closure sets what else the app's launch sets (here the settings' null token and the seed
  /// mode). The database is migrated and seeded as the app's launch would do it.
  @Test func freshFromMigrationsTemplateAndSeedsWithSettings() throws {
    let dir = try TemporaryDirectory()
    let migrations = try DatabaseSetup.resource("migrations", in: PluginFixture.bundle)
    let seeds = dir.path("seeds")
    try dir.write("seeds/person_info.csv", "name,age\nPeter,-\nMary,31\n")
    let database = try TestDatabase.fresh(
      migrations: migrations,
      template: try Self.template(),
      seeds: seeds
    ) { setup in
      setup.settings = try ProjectSettings(parsing: "[seeds.\"person_info.csv\"]\nnull = [\"-\"]\n")
      setup.seedMode = .missing
    }
    let connection = try database.connection()
    #expect(try connection.scalar("SELECT max(version) FROM strata_migrations") == .integer(2))
    #expect(
      try connection.rows("SELECT name, age FROM person_info ORDER BY name")
        == [[.text("Mary"), .integer(31)], [.text("Peter"), .null]]
    )
    #expect(database.url.lastPathComponent == "test.sqlite3")
    #expect(database.url.deletingLastPathComponent() == database.folder)
  }

  /// A database set in the closure is not used: the test's own file is, and nothing is
  /// created where the closure pointed.
  @Test func theClosureCannotPointTheTestAtAnotherFile() throws {
    let dir = try TemporaryDirectory()
    let migrations = try DatabaseSetup.resource("migrations", in: PluginFixture.bundle)
    let elsewhere = dir.path("app.sqlite3")
    let database = try TestDatabase.fresh(migrations: migrations, named: "launch.sqlite3") {
      $0.database = elsewhere
    }
    #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
    #expect(database.url.lastPathComponent == "launch.sqlite3")
    #expect(try database.connection().scalar("SELECT count(*) FROM student") == .integer(0))
  }

  /// What the closure throws is what `fresh` throws.
  @Test func whatTheClosureThrowsIsThrown() throws {
    struct Refused: Error, Equatable {}
    let migrations = try DatabaseSetup.resource("migrations", in: PluginFixture.bundle)
    #expect(throws: Refused()) {
      try TestDatabase.fresh(migrations: migrations) { _ in throw Refused() }
    }
  }

  /// A launch that fails (a seed file naming a column the table lacks) throws what the
  /// app's launch throws, naming the file as it sits in the seeds folder.
  @Test func aFailingLaunchThrowsWhatTheAppsLaunchThrows() throws {
    let dir = try TemporaryDirectory()
    let migrations = try DatabaseSetup.resource("migrations", in: PluginFixture.bundle)
    try dir.write("seeds/person_info.csv", "name,height\nPeter,180\n")
    let error = #expect(throws: SetupError.self) {
      try TestDatabase.fresh(migrations: migrations, seeds: dir.path("seeds"))
    }
    #expect(
      error?.message.contains("seeds/person_info.csv") == true,
      "\(String(describing: error))"
    )
  }
}
