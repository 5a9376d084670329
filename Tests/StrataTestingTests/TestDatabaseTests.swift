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
}
