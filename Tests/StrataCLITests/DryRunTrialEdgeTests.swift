import Foundation
import Strata
import StrataTestSupport
import Testing

/// `migrate --dry-run` at its edges: a trial that changes more pages than the page cache holds
/// still writes nothing (no spill into the `-wal` or the database file), and a failure says
/// what really happened: the lock kept the trial from starting, the database did not exist
/// yet, or the part not tried may be all that is wrong.
@Suite struct DryRunTrialEdgeTests {
  /// About 9 MB of new rows (the default page cache is about 2 MB), then a UNIQUE index over
  /// duplicates that fails.
  static let largeFailing = """
    -- migrate:up
    CREATE TABLE bulk (x BLOB);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 80000)
    INSERT INTO bulk SELECT randomblob(100) FROM n;
    CREATE UNIQUE INDEX person_email ON person(email);

    """

  /// A project at version 1 whose `person` holds two equal addresses.
  private static func project(pending: String, walMode: Bool) throws -> Project {
    try DryRunRowsTests.project(emails: ["a@x", "a@x"], pending: pending, walMode: walMode)
  }

  private static func files(_ project: Project) throws -> [String: Data] {
    try DryRunRowsTests.files(project)
  }

  @Test func aLargeFailingTrialLeavesTheWALAndSHMOfAnOpenDatabaseAsTheyWere() throws {
    let project = try Self.project(pending: Self.largeFailing, walMode: true)
    // Another process keeps a connection open, in a read transaction: the -wal and -shm stay.
    // (Not a connection of this process: reading the files below would drop its locks.)
    let reader = try Self.sqliteShellHolding(
      project.database,
      "BEGIN; SELECT count(*) FROM person;"
    )
    defer { reader.finish() }
    let before = try Self.files(project)
    #expect(before.keys.sorted() == ["app.sqlite3", "app.sqlite3-shm", "app.sqlite3-wal"])
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(result.standardError.contains("UNIQUE constraint failed: person.email"))
    let after = try Self.files(project)
    #expect(after.mapValues(\.count) == before.mapValues(\.count))
    #expect(after == before)
  }

  /// A `sqlite3` shell on `database` that has run `sql` and stays open until `finish`.
  private static func sqliteShellHolding(_ database: URL, _ sql: String) throws -> OpenShell {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", database.path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data((sql + "\n").utf8))
    // Its answer is there once the statement ran (and the read transaction holds).
    _ = output.fileHandleForReading.availableData
    return OpenShell(process: process, input: input)
  }

  struct OpenShell {
    let process: Process
    let input: Pipe
    func finish() {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
  }

  @Test func aLargeFailingTrialNeverWritesTheDatabaseFileInRollbackJournalMode() throws {
    let project = try Self.project(pending: Self.largeFailing, walMode: false)
    let before = try Self.files(project)
    let modified =
      try FileManager.default.attributesOfItem(atPath: project.database.path)[
        .modificationDate
      ] as? Date
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(result.standardError.contains("UNIQUE constraint failed: person.email"))
    #expect(try Self.files(project) == before)
    let modifiedAfter =
      try FileManager.default.attributesOfItem(
        atPath: project.database.path
      )[.modificationDate] as? Date
    #expect(modifiedAfter == modified)
  }

  @Test func aLockedDatabaseSaysTheTrialNeverStarted() throws {
    let project = try Self.project(
      pending: "-- migrate:up\nCREATE UNIQUE INDEX person_email ON person(email);\n",
      walMode: false
    )
    let holder = try Connection(path: project.database.path)
    try holder.execute("BEGIN IMMEDIATE")
    defer { try? holder.execute("ROLLBACK") }
    let result = try project.strata(
      "migrate",
      "--database",
      "app.sqlite3",
      "--dry-run",
      "--busy-timeout",
      "500"
    )
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "this was a dry run, and it could not start (the database is locked by another "
          + "connection), so no migration ran and nothing was changed"
      ),
      "\(result.standardError)"
    )
    #expect(!result.standardError.contains("ran on the database's rows"))
  }

  @Test func aDatabaseThatDoesNotExistIsTriedAsANewEmptyOne() throws {
    let project = try Project([
      "0001_person.sql": """
      -- migrate:up
      CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT);
      INSERT INTO person (email) VALUES ('a@x'), ('a@x');
      CREATE UNIQUE INDEX person_email ON person(email);

      """
    ])
    let result = try project.strata("migrate", "--database", "new.db", "--dry-run")
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(result.standardError.contains("UNIQUE constraint failed: person.email"))
    #expect(
      result.standardError.contains("this was a dry run on a new, empty database"),
      "\(result.standardError)"
    )
    #expect(!result.standardError.contains("database's rows"))
    #expect(!result.standardError.contains("rows first"))
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("new.db").path))
  }

  @Test func aFailureAfterAPartNotTriedSaysItMayComeFromThatPart() throws {
    let project = try Project([
      "0001_person.sql": DryRunRowsTests.createTable,
      "0002_queue.sql": "-- migrate:up transaction:false\nCREATE TABLE q (x);\n",
      "0003_fill.sql": "-- migrate:up\nINSERT INTO q VALUES (1);\n",
    ])
    let first = try project.strata("migrate", "--database", "app.sqlite3", "--to", "1")
    try #require(first.exitCode == 0, "\(first.standardError)")
    let before = try Self.files(project)
    let dry = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    // A possible failure still fails the dry run (CI stops), but it is not blamed on the file.
    #expect(dry.exitCode == 1, "\(dry.standardOutput)")
    #expect(dry.standardError.contains("no such table: q"), "\(dry.standardError)")
    #expect(
      dry.standardError.contains(
        "not tried before it: migrations/0002_queue.sql:2, which cannot run in the dry run's "
          + "transaction, so this failure may come only from their absence"
      ),
      "\(dry.standardError)"
    )
    #expect(
      dry.standardError.contains(
        "Help: This failure may come only from what the dry run could not try before it "
          + "(migrations/0002_queue.sql:2)"
      )
    )
    #expect(dry.standardError.contains("migrate a copy of the database (or a backup of it)"))
    #expect(!dry.standardError.contains("Fix the file"))
    #expect(try Self.files(project) == before)
    // And the run itself, which runs 0002 first, succeeds.
    let run = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(try project.versions() == [1, 2, 3])
  }
}
