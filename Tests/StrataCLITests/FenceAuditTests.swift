import Foundation
import Strata
import StrataTestSupport
import Testing

/// Review of issue 10, item 5: what SQLite's authorizer cannot see while a statement is
/// prepared (the new name of `ALTER TABLE … RENAME TO`, a new trigger's body) and
/// `PRAGMA writable_schema` cannot change strata's own tables either; through the binary, in
/// parts with and without a transaction.
@Suite struct FenceAuditTests {
  private func project() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_a.sql",
      "-- migrate:up\nCREATE TABLE a (x);\nCREATE TABLE b (y);\nCREATE VIEW v AS SELECT x FROM a;\n"
    )
    let result = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    return folder
  }

  private func schema(_ folder: TemporaryDirectory) throws -> [[SQLValue]] {
    try DatabaseProbe.rows(
      folder.path("app.sqlite3"),
      "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
    )
  }

  private static let cases: [(String, String)] = [
    ("ALTER TABLE a RENAME TO strata_seeds;", "gives an object the name strata_seeds"),
    ("ALTER TABLE a RENAME TO STRATA_SEEDS;", "gives an object the name strata_seeds"),
    ("CREATE INDEX strata_seeds ON a (x);", "creates an object named strata_seeds"),
    ("CREATE UNIQUE INDEX IF NOT EXISTS Strata_Seeds ON a (x);", "creates an object named"),
    (
      "CREATE TRIGGER strata_seeds AFTER INSERT ON a BEGIN SELECT 1; END;",
      "creates an object named strata_seeds"
    ),
    (
      "PRAGMA writable_schema = ON;\nUPDATE sqlite_master SET sql = "
        + "'CREATE TABLE strata_migrations(zzz)' WHERE name = 'strata_migrations';",
      "sets PRAGMA writable_schema"
    ),
    ("PRAGMA main.writable_schema = 1;", "sets PRAGMA writable_schema"),
    (
      "CREATE TRIGGER tr AFTER INSERT ON a BEGIN DELETE FROM strata_migrations; END;",
      "the trigger it creates, when it fires, deletes from strata_migrations (through trigger tr)"
    ),
    (
      "CREATE TRIGGER tr BEFORE UPDATE OF x ON a BEGIN UPDATE strata_migrations SET name = 'x'; END;",
      "updates strata_migrations (through trigger tr)"
    ),
    (
      "CREATE TRIGGER tr AFTER DELETE ON a WHEN 0 BEGIN INSERT INTO strata_seeds VALUES (1); END;",
      "inserts into strata_seeds (through trigger tr)"
    ),
    (
      "CREATE TRIGGER tr INSTEAD OF INSERT ON v "
        + "BEGIN DELETE FROM strata_migrations; END;",
      "deletes from strata_migrations (through trigger tr)"
    ),
    (
      "CREATE TEMP TRIGGER t1 AFTER INSERT ON b BEGIN DELETE FROM strata_migrations; END;",
      "deletes from strata_migrations (through trigger t1)"
    ),
  ]

  @Test(arguments: Self.cases, [false, true])
  func aHiddenChangeOfStrataTablesIsRefused(change: (String, String), transaction: Bool) throws {
    let (sql, words) = change
    let folder = try project()
    let before = try schema(folder)
    let header = transaction ? "-- migrate:up" : "-- migrate:up transaction:false"
    try folder.write("migrations/0002_b.sql", "\(header)\n\(sql)\n")
    let result = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("migrations/0002_b.sql:"), "\(result.standardError)")
    #expect(result.standardError.contains(words), "\(result.standardError)")
    #expect(result.standardError.contains("strata's own table"))
    #expect(try schema(folder) == before, "the refused statement left something behind")
    // Every later command still works.
    try FileManager.default.removeItem(at: folder.path("migrations/0002_b.sql"))
    let status = try StrataProcess.run(["status", "--database", "app.sqlite3"], in: folder.url)
    #expect(status.exitCode == 0, "\(status.standardError)")
    let validate = try StrataProcess.run(["validate", "--database", "app.sqlite3"], in: folder.url)
    #expect(validate.exitCode == 0, "\(validate.standardError)")
  }

  @Test func harmlessAltersAndTriggersStillRun() throws {
    let folder = try project()
    try folder.write(
      "migrations/0002_b.sql",
      "-- migrate:up\nALTER TABLE a ADD COLUMN y;\nALTER TABLE a RENAME TO c;\n"
        + "CREATE TABLE log (n);\n"
        + "CREATE TRIGGER tr AFTER INSERT ON c BEGIN INSERT INTO log SELECT count(*) "
        + "FROM strata_migrations; END;\nINSERT INTO c VALUES (1, 2);\n"
    )
    let result = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT n FROM log") == [[.integer(1)]]
    )
  }
}
