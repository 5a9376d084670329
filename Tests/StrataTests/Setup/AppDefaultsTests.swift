import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// An app's own connection must behave as strata's do, and a resource missing from the
/// bundle must be an error that names it, never an empty database at version 0.
@Suite struct AppDefaultsTests {
  private static func parentAndChild(_ connection: Connection) throws {
    try connection.execute(
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id));
      """
    )
  }

  @Test func anAppsConnectionEnforcesForeignKeys() throws {
    let folder = try TemporaryDirectory()
    let connection = try Connection(path: folder.path("app.sqlite3").path)
    try Self.parentAndChild(connection)
    #expect(try connection.scalar("PRAGMA foreign_keys")?.integerValue == 1)
    #expect(throws: SQLiteError.self) {
      try connection.execute("INSERT INTO child (id, parent_id) VALUES (1, 42)")
    }
    #expect(try connection.scalar("SELECT count(*) FROM child")?.integerValue == 0)
  }

  @Test func foreignKeysCanBeLeftOffOnPurpose() throws {
    let connection = try Connection(path: ":memory:", foreignKeys: false)
    try Self.parentAndChild(connection)
    try connection.execute("INSERT INTO child (id, parent_id) VALUES (1, 42)")
    #expect(try connection.scalar("SELECT count(*) FROM child")?.integerValue == 1)
  }

  @Test func theDatabaseAnAppSetsUpEnforcesForeignKeysOnItsOwnConnection() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_tables.sql",
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id));
      """
    )
    let report = try DatabaseSetup(
      database: folder.path("app.sqlite3"),
      migrations: folder.path("migrations")
    ).run()
    let connection = try Connection(path: report.database)
    #expect(throws: SQLiteError.self) {
      try connection.execute("INSERT INTO child (id, parent_id) VALUES (1, 42)")
    }
  }

  @Test func oneBusyTimeoutDefault() throws {
    let folder = try TemporaryDirectory()
    let setup = DatabaseSetup(database: folder.path("a.sqlite3"), migrations: folder.url)
    #expect(setup.busyTimeout == Connection.defaultBusyTimeout)
    #expect(Connection.defaultBusyTimeout == 10_000)
  }

  @Test func aMissingBundleResourceIsAnErrorNamingIt() throws {
    let folder = try TemporaryDirectory()
    try folder.write("present/0001_a.sql", "CREATE TABLE a (id INTEGER);\n")
    let bundle = try #require(Bundle(path: folder.url.path))
    #expect(
      try DatabaseSetup.resource("present", in: bundle).standardizedFileURL.path
        == folder.path("present").standardizedFileURL.path
    )
    let error = #expect(throws: SetupError.self) {
      try DatabaseSetup.resource("migrations", in: bundle)
    }
    #expect(error == .resourceMissing(name: "migrations", bundle: bundle.bundlePath))
    #expect(error?.message.contains("the resource migrations is not in the bundle") == true)
    let templateError = #expect(throws: SetupError.self) {
      try DatabaseSetup.resource(
        "template",
        withExtension: "sqlite3",
        subdirectory: "seeds",
        in: bundle
      )
    }
    #expect(templateError?.message.contains("seeds/template.sqlite3") == true)
  }

  /// A migrations folder that is not there fails `run()` with its name, and creates nothing.
  @Test func aMissingMigrationsFolderFailsAndCreatesNothing() throws {
    let folder = try TemporaryDirectory()
    let database = folder.path("app.sqlite3")
    let setup = DatabaseSetup(database: database, migrations: folder.path("migrations"))
    let error = #expect(throws: MigrationError.self) { try setup.run() }
    #expect(error?.message.contains("migrations") == true)
    #expect(!FileManager.default.fileExists(atPath: database.path))
  }
}
