import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 10, item 5: a migration or a seed never changes strata's own tables
/// (`strata_migrations`, `strata_seeds`; exactly those names), through the real binary.
@Suite struct ProtectedTablesTests {
  /// A folder with 0001 (a table `a`) applied to app.sqlite3.
  private func project() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_a.sql",
      "-- migrate:up\nCREATE TABLE a (x INTEGER PRIMARY KEY);\n-- migrate:down\nDROP TABLE a;\n"
    )
    let result = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    return folder
  }

  private func history(_ folder: TemporaryDirectory) throws -> [[SQLValue]] {
    try DatabaseProbe.rows(
      folder.path("app.sqlite3"),
      "SELECT version, name, checksum, applied_at FROM strata_migrations ORDER BY version"
    )
  }

  @Test(arguments: [
    ("DELETE FROM strata_migrations;", "deletes from strata_migrations"),
    ("UPDATE strata_migrations SET name = 'x';", "updates strata_migrations"),
    ("DROP TABLE strata_migrations;", "drops strata_migrations"),
    ("ALTER TABLE strata_migrations RENAME TO old_history;", "alters or renames strata_migrations"),
    ("ALTER TABLE Strata_Migrations ADD COLUMN note TEXT;", "alters or renames strata_migrations"),
    ("INSERT INTO main.strata_migrations VALUES (9, 'x', 'x', 'x', 0);", "inserts into"),
    ("CREATE INDEX h ON strata_migrations (name);", "changes an index of strata_migrations"),
    ("CREATE TABLE strata_seeds (x);", "creates an object named strata_seeds"),
    ("CREATE TEMP TABLE strata_migrations (x);", "creates an object named strata_migrations"),
    (
      // Refused when it is created, not when it first fires (perhaps in the app, unfenced).
      "CREATE TRIGGER t AFTER INSERT ON b BEGIN DELETE FROM strata_migrations; END;",
      "deletes from strata_migrations (through trigger t)"
    ),
  ])
  func aMigrationThatChangesTheHistoryIsRefused(statement: String, words: String) throws {
    let folder = try project()
    let before = try history(folder)
    try folder.write(
      "migrations/0002_sneaky.sql",
      "-- migrate:up\nCREATE TABLE b (y);\n\n\(statement)\n"
    )
    let result = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    let line = 4
    #expect(result.standardError.contains("migrations/0002_sneaky.sql:\(line) failed"))
    #expect(result.standardError.contains(words))
    #expect(result.standardError.contains("strata's own table"))
    let firstLine = statement.split(separator: "\n").last.map(String.init) ?? statement
    #expect(result.standardError.contains("`\(firstLine)`"))
    #expect(result.standardError.contains("the database is at version 1"))
    #expect(result.standardError.contains("Help: strata keeps its own tables itself"))
    #expect(try history(folder) == before)
    #expect(try DatabaseProbe.tables(folder.path("app.sqlite3")).contains("b") == false)
  }

  @Test func aRollbackThatChangesTheHistoryIsRefused() throws {
    let folder = try project()
    try folder.write(
      "migrations/0002_b.sql",
      "-- migrate:up\nCREATE TABLE b (y);\n-- migrate:down\nDROP TABLE b;\n"
        + "DELETE FROM strata_migrations WHERE version = 1;\n"
    )
    #expect(
      try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
        .exitCode == 0
    )
    let before = try history(folder)
    let result = try StrataProcess.run(["rollback", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("migrations/0002_b.sql:5"))
    #expect(result.standardError.contains("deletes from strata_migrations"))
    #expect(try history(folder) == before)
    #expect(try DatabaseProbe.tables(folder.path("app.sqlite3")).contains("b"))
  }

  @Test func readingTheHistoryAndATableNamedLikeStrataAreFine() throws {
    let folder = try project()
    try folder.write(
      "migrations/0002_notes.sql",
      "-- migrate:up\nCREATE TABLE strata_notes (n);\n"
        + "INSERT INTO strata_notes SELECT count(*) FROM strata_migrations;\n"
        + "UPDATE strata_notes SET n = n + 1;\nALTER TABLE strata_notes RENAME TO strata_notes2;\n"
    )
    let result = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT n FROM strata_notes2") == 2
    )
  }

  @Test(arguments: ["strata_seeds", "strata_migrations", "STRATA_SEEDS"])
  func aSeedIntoStrataTablesIsRefused(table: String) throws {
    let folder = try project()
    try folder.write(
      "seeds/\(table).csv",
      "version,name,checksum,applied_at,duration_ms\n7,x,x,x,0\n"
    )
    let before = try history(folder)
    let result = try StrataProcess.run(["seed", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("seeds/\(table).csv"))
    #expect(result.standardError.contains("never seeded"))
    #expect(try history(folder) == before)
  }

  @Test func aSeedIntoATableNamedLikeStrataLoads() throws {
    let folder = try project()
    try folder.write(
      "migrations/0002_notes.sql",
      "-- migrate:up\nCREATE TABLE strata_notes (id INTEGER PRIMARY KEY, note TEXT);\n"
    )
    #expect(
      try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
        .exitCode == 0
    )
    try folder.write("seeds/strata_notes.csv", "id,note\n1,hello\n")
    let result = try StrataProcess.run(["seed", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM strata_notes")
        == 1
    )
  }

  @Test func aSeedWhoseTriggerChangesTheHistoryIsRefused() throws {
    let folder = try project()
    // A migration may not plant such a trigger (FenceAuditTests); one made outside strata.
    try Connection(path: folder.path("app.sqlite3").path).execute(
      "CREATE TRIGGER wipe AFTER INSERT ON a BEGIN DELETE FROM strata_migrations; END;"
    )
    let before = try history(folder)
    try folder.write("seeds/a.csv", "x\n1\n")
    let result = try StrataProcess.run(["seed", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("seeds/a.csv"))
    #expect(result.standardError.contains("deletes from strata_migrations (through trigger wipe)"))
    #expect(result.standardError.contains("Help: Change the trigger named above"))
    #expect(try history(folder) == before)
    #expect(try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM a") == 0)
  }

  @Test func vacuumIntoAndVacuumStillWorkInAMigration() throws {
    let folder = try project()
    try folder.write(
      "migrations/0002_vacuum.sql",
      "-- migrate:up transaction:false\nVACUUM;\nVACUUM INTO 'copy.sqlite3';\n"
    )
    let result = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(FileManager.default.fileExists(atPath: folder.path("copy.sqlite3").path))
    #expect(try history(folder).count == 2)
  }
}
