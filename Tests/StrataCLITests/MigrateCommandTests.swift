import Foundation
import Strata
import StrataTestSupport
import Testing

/// A project folder with `migrations/` for the real `strata` binary to work in.
struct Project {
  let dir: TemporaryDirectory
  var database: URL { dir.path("app.sqlite3") }

  init(_ files: [String: String] = [:]) throws {
    dir = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      at: dir.path("migrations"),
      withIntermediateDirectories: true
    )
    for (name, text) in files { try dir.write("migrations/\(name)", text) }
  }

  /// The repository's own sample project: its migrations and seed CSV files.
  static func sample() throws -> Project {
    let project = try Project()
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    for folder in ["migrations", "seeds"] {
      let source = root.appendingPathComponent(folder)
      try FileManager.default.createDirectory(
        at: project.dir.path(folder),
        withIntermediateDirectories: true
      )
      for name in try FileManager.default.contentsOfDirectory(atPath: source.path)
      where name.hasSuffix(".sql") || name.hasSuffix(".csv") {
        try FileManager.default.copyItem(
          at: source.appendingPathComponent(name),
          to: project.dir.path("\(folder)/\(name)")
        )
      }
    }
    return project
  }

  func write(_ name: String, _ text: String) throws {
    try dir.write("migrations/\(name)", text)
  }

  @discardableResult
  func strata(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessResult {
    try StrataProcess.run(arguments, in: dir.url, environment: environment)
  }

  /// The applied versions; none when strata never recorded one.
  func versions() throws -> [Int64] {
    guard try DatabaseProbe.tables(database).contains("strata_migrations") else { return [] }
    return try DatabaseProbe.rows(
      database,
      "SELECT version FROM strata_migrations ORDER BY version"
    )
    .compactMap { $0[0].integerValue }
  }
}

let threeMigrations = [
  "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
  "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n",
  "0003_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n",
]

@Suite struct MigrateCommandTests {
  @Test func sampleProjectMigratesRollsBackAndReportsStatus() throws {
    let project = try Project.sample()
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(migrate.standardOutput.contains("Applied migrations/0001_create_person_info.sql"))
    #expect(migrate.standardOutput.contains("app.sqlite3 is now at version 5."))
    #expect(try project.versions() == [1, 2, 3, 4, 5])
    let columns = try DatabaseProbe.rows(project.database, "PRAGMA table_info(person_info)")
      .compactMap { $0[1].textValue }
    #expect(columns == ["id", "name", "age"])

    let status = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(status.exitCode == 0)
    #expect(status.standardOutput.contains("5 applied"))

    let rollback = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(rollback.exitCode == 0, "\(rollback.standardError)")
    #expect(
      rollback.standardOutput.contains("Rolled back migrations/0005_person_info_unique_name.sql")
    )
    #expect(try project.versions() == [1, 2, 3, 4])

    let check = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(check.exitCode == 1)
    #expect(check.standardOutput.contains("1 pending"))

    let json = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    let object = try #require(decoded as? [String: Any])
    #expect(object["currentVersion"] as? Int == 4)
    let counts = try #require(object["counts"] as? [String: Int])
    #expect(counts["pending"] == 1 && counts["applied"] == 4)
  }

  @Test func sampleRebuildKeepsRowsBothWays() throws {
    let project = try Project.sample()
    try project.strata("migrate", "--database", "app.sqlite3", "--to", "4")
    let db = try Connection(path: project.database.path)
    try db.execute("INSERT INTO person_info (name, age) VALUES ('Peter', 22), ('Jack', 20)")
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    #expect(
      try DatabaseProbe.rows(project.database, "SELECT id, name, age FROM person_info ORDER BY id")
        == [
          [.integer(1), .text("Peter"), .integer(22)], [.integer(2), .text("Jack"), .integer(20)],
        ]
    )
    #expect(try project.strata("rollback", "--database", "app.sqlite3").exitCode == 0)
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM person_info") == 2)
  }

  @Test func thirdStatementFailureNamesFileLineAndState() throws {
    var files = threeMigrations
    files["0004_bad.sql"] = """
      -- migrate:up
      CREATE TABLE d (x);
      INSERT INTO d VALUES (1);
      INSERT INTO d VALUES (2, 3);
      """
    let project = try Project(files)
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("Error: migration migrations/0004_bad.sql:4 failed"))
    #expect(result.standardError.contains("table d has 1 columns but 2 values were supplied"))
    #expect(result.standardError.contains("nothing from 4 was applied"))
    #expect(result.standardError.contains("the database is at version 3"))
    #expect(result.standardError.contains("Help: Fix the file and run 'strata migrate' again."))
    #expect(try project.versions() == [1, 2, 3])
    #expect(try !DatabaseProbe.tables(project.database).contains("d"))
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.standardOutput.contains("4        pending"))
    #expect(status.standardOutput.contains("3 applied, 1 pending"))
  }

  @Test func singleTransactionFailureLeavesNothing() throws {
    var files = threeMigrations
    files["0004_bad.sql"] = "SELECT * FROM nowhere;"
    let project = try Project(files)
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--single-transaction")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("version 0 (no migrations applied)"))
    #expect(try project.versions() == [])
    #expect(try DatabaseProbe.tables(project.database) == [])
  }

  @Test func editedAppliedMigrationStopsMigrate() throws {
    let project = try Project(threeMigrations)
    try project.strata("migrate", "--database", "app.sqlite3")
    try project.write("0002_b.sql", "-- migrate:up\nCREATE TABLE b (x, y);\n")
    try project.write("0004_d.sql", "CREATE TABLE d (x);")
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "migrations/0002_b.sql (version 2) changed after it was applied"
      )
    )
    #expect(result.standardError.contains("--allow-changed"))
    #expect(try project.versions() == [1, 2, 3])
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.standardOutput.contains("changed"))
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 1)
    #expect(validate.standardError.contains("changed after it was applied"))
  }

  @Test func deletedAppliedFileMeansTheDatabaseIsNewer() throws {
    let project = try Project(threeMigrations)
    try project.strata("migrate", "--database", "app.sqlite3")
    try FileManager.default.removeItem(at: project.dir.path("migrations/0003_c.sql"))
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("the database has applied version 3"))
    #expect(result.standardError.contains("newer than these migrations"))
    let status = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(status.exitCode == 1)
    #expect(status.standardOutput.contains("unknown"))
    #expect(
      try project.strata("migrate", "--database", "app.sqlite3", "--allow-unknown").exitCode == 0
    )
  }

  @Test func newFileBelowNewestAppliedIsOutOfOrder() throws {
    let project = try Project([
      "0001_a.sql": "CREATE TABLE a (x);", "0003_c.sql": "CREATE TABLE c (x);",
    ])
    try project.strata("migrate", "--database", "app.sqlite3")
    try project.write("0002_b.sql", "CREATE TABLE b (x);")
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("pending version 2 is older than version 3"))
    #expect(try project.versions() == [1, 3])
    let allowed = try project.strata("migrate", "--database", "app.sqlite3", "--allow-out-of-order")
    #expect(allowed.exitCode == 0)
    #expect(try project.versions() == [1, 2, 3])
  }

  @Test(arguments: [
    (["0003_x.sql": "SELECT 1;", "0003_y.sql": "SELECT 1;"], "two migrations have version 3"),
    (["abc.sql": "SELECT 1;"], "migrations/abc.sql: file name must start with a version number"),
    (
      ["0001_new.sql": "-- migrate:up\n-- strata:todo\n"],
      "migrations/0001_new.sql:2: the up part is still the empty template strata wrote"
    ),
    (["0001_x.down.sql": "DROP TABLE x;"], "0001_x.down.sql has no matching .up.sql file"),
  ])
  func badFilesAreRejectedBeforeTheDatabaseIsTouched(
    files: [String: String],
    message: String
  )
    throws
  {
    let project = try Project(files)
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func rollbackOfIrreversibleMigrationIsRefused() throws {
    let project = try Project(["0001_a.sql": "CREATE TABLE a (x);"])
    try project.strata("migrate", "--database", "app.sqlite3")
    let result = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("has no down part; nothing was rolled back"))
    #expect(try project.versions() == [1])
  }

  @Test func vacuumInATransactionPointsAtTransactionFalse() throws {
    let project = try Project(["0001_vacuum.sql": "CREATE TABLE a (x);\nVACUUM;\n"])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "migrations/0001_vacuum.sql:2: VACUUM cannot run inside a transaction"
      )
    )
    #expect(result.standardError.contains("transaction:false"))
    #expect(try project.versions() == [])
  }

  @Test func databasePathThatIsADirectoryIsRefused() throws {
    let project = try Project(threeMigrations)
    try FileManager.default.createDirectory(
      at: project.dir.path("Documents"),
      withIntermediateDirectories: true
    )
    let result = try project.strata("migrate", "--database", "Documents")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("is a directory, not a database file"))
    let inside = try FileManager.default.contentsOfDirectory(
      atPath: project.dir.path("Documents").path
    )
    #expect(inside.isEmpty)
  }

  @Test func fileThatIsNotSQLiteIsNeverOverwritten() throws {
    let project = try Project(threeMigrations)
    let original = "name,age\nPeter,22\n"
    try project.dir.write("people.csv", original)
    let result = try project.strata("migrate", "--database", "people.csv")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("is not an SQLite database"))
    #expect(try String(contentsOf: project.dir.path("people.csv"), encoding: .utf8) == original)
  }

  @Test func readOnlyFileIsRefused() throws {
    let project = try Project(threeMigrations)
    try project.strata("migrate", "--database", "app.sqlite3", "--to", "1")
    let before = try Data(contentsOf: project.database)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o444],
      ofItemAtPath: project.database.path
    )
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("app.sqlite3 is read-only; nothing was changed"))
    #expect(try Data(contentsOf: project.database) == before)
  }

  @Test func missingFolderIsAnErrorAndNothingIsCreated() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("migrate", "--database", "nope/app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("the folder"))
    #expect(result.standardError.contains("does not exist"))
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("nope").path))
  }

  @Test func defaultDatabaseIsInTheDocumentsFolderWhichIsCreated() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("migrate", environment: ["HOME": project.dir.url.path])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let file = project.dir.path("Documents/data.sqlite3")
    #expect(try DatabaseProbe.integer(file, "SELECT max(version) FROM strata_migrations") == 3)
    let viaEnvironment = try project.strata(
      "status",
      "--check",
      environment: ["STRATA_DATABASE": "Documents/data.sqlite3"]
    )
    #expect(viaEnvironment.exitCode == 0)
  }

  @Test func dryRunPrintsSQLAndCreatesNothing() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.contains("Would apply migrations/0002_b.sql:"))
    #expect(result.standardOutput.contains("CREATE TABLE b (x);"))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func migrateToAndRollbackSteps() throws {
    let project = try Project(threeMigrations)
    #expect(try project.strata("migrate", "--database", "app.sqlite3", "--to", "2").exitCode == 0)
    #expect(try project.versions() == [1, 2])
    try project.strata("migrate", "--database", "app.sqlite3")
    #expect(
      try project.strata("rollback", "--database", "app.sqlite3", "--steps", "2").exitCode == 0
    )
    #expect(try project.versions() == [1])
    #expect(try project.strata("rollback", "--database", "app.sqlite3", "--to", "0").exitCode == 0)
    #expect(try project.versions() == [])
    let both = try project.strata(
      "rollback",
      "--database",
      "app.sqlite3",
      "--to",
      "0",
      "--steps",
      "1"
    )
    #expect(both.exitCode == 64)
    let bad = try project.strata("migrate", "--database", "app.sqlite3", "--to", "two")
    #expect(bad.exitCode == 64)
    #expect(bad.standardError.contains("--to takes a whole number"))
  }

  @Test func newWritesTheNextVersion() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("new", "add_email")
    #expect(result.exitCode == 0)
    #expect(result.standardOutput == "Created migrations/0004_add_email.sql\n")
    let text = try String(
      contentsOf: project.dir.path("migrations/0004_add_email.sql"),
      encoding: .utf8
    )
    #expect(text.hasPrefix("-- migrate:up"))
    #expect(try project.strata("new").exitCode == 64)
  }

  /// An app's data.sqlite3 from before strata: migrate says how to adopt it.
  @Test func existingSchemaWithoutHistoryPointsAtBaseline() throws {
    let project = try Project(threeMigrations)
    try Connection(path: project.database.path).execute("CREATE TABLE a (x);")
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("table a already exists"))
    #expect(
      result.standardError.contains(
        "Help: If the database already has this schema, adopt it with 'strata baseline"
      )
    )
    #expect(try project.versions() == [])
  }

  /// The bug Rails and Atlas shipped, end to end: the sample-style rebuild of a parent table
  /// with ON DELETE CASCADE children, through the CLI (whose connection has foreign keys on).
  @Test func parentRebuildThroughTheCLIKeepsEveryChildRow() throws {
    let project = try Project([
      "0001_schema.sql": """
      CREATE TABLE class (id TEXT PRIMARY KEY, title TEXT);
      CREATE TABLE student (id INTEGER PRIMARY KEY,
        class_id TEXT NOT NULL REFERENCES class (id) ON DELETE CASCADE);
      INSERT INTO class VALUES ('A', 'first'), ('B', 'second');
      INSERT INTO student VALUES (1, 'A'), (2, 'A'), (3, 'B');
      """,
      "0002_rebuild_class.sql": """
      CREATE TABLE class_new (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
      INSERT INTO class_new SELECT id, coalesce(title, '') FROM class;
      DROP TABLE class;
      ALTER TABLE class_new RENAME TO class;
      """,
    ])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM student") == 3)
    #expect(try DatabaseProbe.rows(project.database, "PRAGMA foreign_key_check").isEmpty)
  }

  @Test func baselineAdoptsAnExistingDatabase() throws {
    let project = try Project(threeMigrations)
    let db = try Connection(path: project.database.path)
    try db.execute("CREATE TABLE a (x); CREATE TABLE b (x); INSERT INTO a VALUES (1);")
    let baseline = try project.strata("baseline", "--database", "app.sqlite3", "--version", "2")
    #expect(baseline.exitCode == 0, "\(baseline.standardError)")
    #expect(baseline.standardOutput.contains("Recorded 2 migration(s) up to version 2"))
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.standardOutput.contains("Applied migrations/0003_c.sql"))
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM a") == 1)
    #expect(try project.strata("baseline", "--database", "app.sqlite3").exitCode == 64)
  }

  @Test func validatePassesOnAHealthyProject() throws {
    let project = try Project(threeMigrations)
    try project.strata("migrate", "--database", "app.sqlite3")
    let result = try project.strata("validate", "--database", "app.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("OK: 3 migrations"))
  }

  @Test func jsonReportOfMigrate() throws {
    let project = try Project(threeMigrations)
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    )
    #expect(object["toVersion"] as? Int == 3)
    #expect((object["steps"] as? [Any])?.count == 3)
  }
}
