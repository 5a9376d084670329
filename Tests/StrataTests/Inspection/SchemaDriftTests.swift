import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct SchemaDriftTests {
  @Test func freshlyMigratedDatabaseHasNoDrift() throws {
    let folder = try TemporaryDirectory()
    let url = try InspectionFixtures.migratedSample(in: folder)
    let report = try DriftCheck(try InspectionFixtures.sampleMigrations())
      .check(Connection(path: url.path, mode: .readOnly))
    #expect(report.differences == [])
    #expect(report.replayedVersions == [1, 2, 3, 4, 5])
    #expect(!report.hasDrift)
  }

  @Test func alterTableBehindStratasBackIsDrift() throws {
    let folder = try TemporaryDirectory()
    let url = try InspectionFixtures.migratedSample(in: folder)
    try Connection(path: url.path).execute(
      """
      ALTER TABLE student ADD COLUMN nickname TEXT NOT NULL DEFAULT '';
      DROP INDEX student_class;
      CREATE UNIQUE INDEX student_email ON student (email) WHERE email IS NOT NULL;
      CREATE VIEW adults AS SELECT * FROM person_info WHERE age >= 18;
      """
    )
    let report = try DriftCheck(try InspectionFixtures.sampleMigrations())
      .check(Connection(path: url.path, mode: .readOnly))
    #expect(report.hasDrift)
    #expect(
      report.differences.map(\.description) == [
        "column student.nickname TEXT NOT NULL DEFAULT '': in the database, "
          + "not created by the migrations",
        "index student_class ON student (stuClass): created by the migrations, "
          + "missing from the database",
        "index student_email UNIQUE ON student (email) WHERE email IS NOT NULL: in the "
          + "database, not created by the migrations",
        "view adults: in the database, not created by the migrations",
      ]
    )
  }

  /// Clauses no PRAGMA reports still change what a table does: `ON CONFLICT REPLACE` silently
  /// deletes rows.
  @Test(arguments: [
    "CREATE TABLE kv (k TEXT UNIQUE ON CONFLICT REPLACE, v INTEGER NOT NULL REFERENCES kv (k))",
    "CREATE TABLE kv (k TEXT UNIQUE, v INTEGER NOT NULL ON CONFLICT IGNORE REFERENCES kv (k))",
    "CREATE TABLE kv (k TEXT UNIQUE, v INTEGER NOT NULL REFERENCES kv (k) DEFERRABLE INITIALLY "
      + "DEFERRED)",
  ])
  func constraintClausesWithoutAPragmaAreDrift(rebuilt: String) throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_kv.sql",
      "CREATE TABLE kv (k TEXT UNIQUE, v INTEGER NOT NULL REFERENCES kv (k));"
    )
    let migrations = try MigrationSet(directory: folder.path("migrations"))
    let live = try Connection.inMemory()
    _ = try Migrator(migrations).migrate(live)
    try live.execute("DROP TABLE kv; \(rebuilt);")
    let report = try DriftCheck(migrations).check(live)
    #expect(report.hasDrift)
    #expect(report.differences.contains { $0.aspect == "definition" || $0.object == .foreignKey })
  }

  @Test func layoutAndQuotingAloneAreNotDrift() throws {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/0001_kv.sql", "CREATE TABLE kv (k TEXT UNIQUE, v INTEGER);")
    let migrations = try MigrationSet(directory: folder.path("migrations"))
    let live = try Connection.inMemory()
    _ = try Migrator(migrations).migrate(live)
    try live.execute(
      "DROP TABLE kv; CREATE TABLE \"kv\" (\n  -- the key\n  \"k\" text UNIQUE,\n  v integer\n);"
    )
    #expect(try DriftCheck(migrations).check(live).differences == [])
  }

  @Test func changedColumnDefinitionsAreReportedAspectByAspect() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_people.sql",
      "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER);"
    )
    let migrations = try MigrationSet(directory: folder.path("migrations"))
    let live = try Connection.inMemory()
    _ = try Migrator(migrations).migrate(live)
    // A hand rebuild: name loses NOT NULL, age becomes TEXT, a CHECK appears.
    try live.execute(
      """
      CREATE TABLE people_new (id INTEGER PRIMARY KEY, name TEXT, age TEXT CHECK (age <> ''));
      DROP TABLE people;
      ALTER TABLE people_new RENAME TO people;
      """
    )
    let report = try DriftCheck(migrations).check(live)
    #expect(
      report.differences.map(\.description) == [
        "column people.name: NOT NULL is yes in the migrations, no in the database",
        "column people.age: type is INTEGER in the migrations, TEXT in the database",
        "check people CHECK (age <> ''): in the database, not created by the migrations",
      ]
    )
  }

  @Test func pendingMigrationsAreNotDrift() throws {
    let folder = try TemporaryDirectory()
    let url = folder.path("partial.sqlite3")
    let connection = try Connection(path: url.path)
    _ = try Migrator(try InspectionFixtures.sampleMigrations())
      .migrate(connection, options: MigrateOptions(target: 3))
    let report = try DriftCheck(try InspectionFixtures.sampleMigrations()).check(connection)
    #expect(report.replayedVersions == [1, 2, 3])
    #expect(report.differences == [])
  }

  @Test func layoutAndQuotingDifferencesAreNotDrift() throws {
    let expected = try Connection.inMemory()
    try expected.execute(
      "CREATE TABLE t (a INTEGER CHECK (a>0)); CREATE VIEW v AS SELECT a FROM t;"
        + "CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; END;"
    )
    let actual = try Connection.inMemory()
    try actual.execute(
      """
      CREATE TABLE "t" (
        "a" integer check ( a > 0 )
      );
      create view "v" as select "a" from "t";
      CREATE TRIGGER g AFTER INSERT ON t
      BEGIN
        SELECT 1;
      END;
      """
    )
    let differences = SchemaComparison.differences(
      expected: try SchemaInspector(expected).inspect(),
      actual: try SchemaInspector(actual).inspect()
    )
    #expect(differences == [])
  }

  @Test func aMigrationThatFailsToReplayIsAClearError() throws {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/0001_broken.sql", "CREATE TABLE t (a);\nCREATE TABLE t (b);")
    let migrations = try MigrationSet(
      directory: folder.path("migrations"),
      displayPath: "migrations"
    )
    let live = try Connection.inMemory()
    let error = #expect(throws: InspectionError.self) {
      try DriftCheck(migrations).check(live)
    }
    #expect(
      error?.message.hasPrefix("replaying migrations into an in-memory database (the replay")
        == true
    )
    #expect(error?.message.contains("table t already exists") == true)
    #expect(try live.scalar("SELECT count(*) FROM sqlite_master")?.integerValue == 0)
  }
}
