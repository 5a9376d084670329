import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 10, items 3 and 4: `validate` and `inspect --diff` replay the migrations in a fenced
/// in-memory database that never reaches a file, say which database each message speaks of,
/// check pending migrations, and refuse a database that does not exist; through the binary.
@Suite struct ValidateReplayTests {
  private static let first = "-- migrate:up\nCREATE TABLE a (x);\n"
  private static let attach =
    "-- migrate:up transaction:false\nATTACH 'other.db' AS o;\nCREATE TABLE o.t (x);\nINSERT INTO o.t VALUES (1);\n"
    + "DETACH o;\nCREATE TABLE b (y);\n"

  /// A folder whose app.sqlite3 has 0001 applied (and `alsoApply`, applied by a migrate that
  /// may write where it is asked to).
  private func project(_ files: [String: String]) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/0001_a.sql", Self.first)
    let migrate = try StrataProcess.run(
      ["migrate", "--database", "app.sqlite3"],
      in: folder.url
    )
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    for (name, text) in files { try folder.write("migrations/\(name)", text) }
    return folder
  }

  private func exists(_ folder: TemporaryDirectory, _ name: String) -> Bool {
    FileManager.default.fileExists(atPath: folder.path(name).path)
  }

  @Test(arguments: [false, true])
  func anAttachedFileIsNeverWrittenByTheChecks(applied: Bool) throws {
    let folder = try project(["0002_attach.sql": Self.attach])
    if applied {
      #expect(
        try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
          .exitCode == 0
      )
      // migrate writes where the migration asks; the checks below must not.
      let other = try Connection(path: folder.path("other.db").path)
      try other.execute("DELETE FROM t")
    }
    let before = applied ? try Data(contentsOf: folder.path("other.db")) : nil
    for arguments in [
      ["validate", "--database", "app.sqlite3"],
      ["inspect", "--diff", "--database", "app.sqlite3"],
      ["validate", "--files-only"],
    ] {
      let result = try StrataProcess.run(arguments, in: folder.url)
      #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
      if applied {
        #expect(try Data(contentsOf: folder.path("other.db")) == before)
      } else {
        #expect(!exists(folder, "other.db"), "\(arguments)")
      }
      let err = result.standardError
      #expect(!err.contains("Error:"))
      // inspect --diff replays only what the database has applied.
      if !applied, arguments[1] == "--diff" { continue }
      #expect(
        err.contains(
          "Warning: migrations/0002_attach.sql:2 `ATTACH 'other.db' AS o;`: not checked: "
            + "attaches the file 'other.db'"
        ),
        "\(arguments): \(err)"
      )
      #expect(err.contains("the replay of the migrations (in memory) skipped it"))
      #expect(err.contains("migrations/0002_attach.sql:3 `CREATE TABLE o.t (x);`: not checked"))
    }
    let validate = try StrataProcess.run(["validate", "--database", "app.sqlite3"], in: folder.url)
    #expect(
      validate.standardOutput.hasPrefix(
        "OK, except what was not checked: 2 migrations in migrations are valid; the history and "
          + "schema of app.sqlite3 agree with them; "
      ) && validate.standardOutput.hasSuffix("; 4 not checked (warnings above).\n"),
      "\(validate.standardOutput)"
    )
    if applied {
      // The rest of the migration was replayed: table b is compared, no drift.
      let diff = try StrataProcess.run(
        ["inspect", "--diff", "--database", "app.sqlite3"],
        in: folder.url
      )
      #expect(diff.standardOutput.contains("No drift: app.sqlite3 matches its migrations"))
    }
  }

  @Test func vacuumIntoCreatesNoFileAndEveryLaterCheckStillWorks() throws {
    let folder = try project([
      "0002_copy.sql": "-- migrate:up transaction:false\nVACUUM INTO 'x.db';\n"
    ])
    for _ in 0..<2 {
      let result = try StrataProcess.run(
        ["validate", "--database", "app.sqlite3"],
        in: folder.url
      )
      #expect(result.exitCode == 0, "\(result.standardError)")
      #expect(!exists(folder, "x.db"))
      #expect(
        result.standardError.contains(
          "migrations/0002_copy.sql:2 `VACUUM INTO 'x.db';`: not checked: attaches the file 'x.db'"
        )
      )
    }
    let json = try StrataProcess.run(
      ["validate", "--database", "app.sqlite3", "--format", "json"],
      in: folder.url
    )
    let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    let notChecked = (object as? [String: Any])?["notChecked"] as? [[String: Any]]
    #expect(notChecked?.first?["file"] as? String == "migrations/0002_copy.sql")
    #expect(notChecked?.first?["line"] as? Int == 2)
    #expect(!exists(folder, "x.db"))
  }

  @Test func loadExtensionIsNotCalledByTheReplay() throws {
    let folder = try project([
      "0002_ext.sql": "-- migrate:up\nSELECT load_extension('./nosuch');\nCREATE TABLE b (y);\n"
    ])
    let result = try StrataProcess.run(["validate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardError.contains("0002_ext.sql:2"))
    #expect(result.standardError.contains("calls load_extension()"))
  }

  @Test func aReplayFailureSpeaksOfTheReplayNotOfTheDatabasesVersion() throws {
    // 0002 is applied in the database, but its file now fails: the replay, not the
    // database, is where it fails.
    let folder = try project(["0002_b.sql": "-- migrate:up\nCREATE TABLE b (y);\n"])
    #expect(
      try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
        .exitCode == 0
    )
    try folder.write("migrations/0002_b.sql", "-- migrate:up\nCREATE TABLE a (y);\n")
    let diff = try StrataProcess.run(
      ["inspect", "--diff", "--database", "app.sqlite3"],
      in: folder.url
    )
    #expect(diff.exitCode == 1)
    #expect(diff.standardError.contains("in-memory database (the replay, not the database"))
    #expect(diff.standardError.contains("migrations/0002_b.sql:2"))
    #expect(!diff.standardError.contains("the database is at version"))
  }

  @Test(arguments: [
    "CREAT TABLE c (z);", "CREATE TABLE c (z REFERENCES nosuch_table_column(;",
    "INSERT INTO nosuch VALUES (1);", "CREATE TABLE a (again);",
  ])
  func aPendingMigrationThatCannotRunFailsValidate(statement: String) throws {
    let folder = try project(["0002_bad.sql": "-- migrate:up\n\n\(statement)\n"])
    let before = try Data(contentsOf: folder.path("app.sqlite3"))
    let result = try StrataProcess.run(["validate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("Error: pending migration migrations/0002_bad.sql:3: "))
    #expect(
      result.standardError.contains(
        "(in the replay of the migrations, an in-memory database; app.sqlite3 was not changed)"
      )
    )
    #expect(!result.standardOutput.contains("OK"))
    #expect(try Data(contentsOf: folder.path("app.sqlite3")) == before)
    let filesOnly = try StrataProcess.run(["validate", "--files-only"], in: folder.url)
    #expect(filesOnly.exitCode == 1)
    #expect(filesOnly.standardError.contains("migrations/0002_bad.sql:3"))
  }

  @Test func aPendingMigrationIsCheckedAgainstTheSchemaBeforeIt() throws {
    let folder = try project([
      "0002_b.sql": "-- migrate:up\nCREATE TABLE b (y);\n",
      "0003_c.sql": "-- migrate:up\nCREATE INDEX b_y ON b (y);\nINSERT INTO a VALUES (1);\n",
    ])
    let result = try StrataProcess.run(["validate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardError == "")
    #expect(
      result.standardOutput
        == "OK: 3 migrations in migrations are valid; the history and schema of app.sqlite3 "
        + "agree with them; 2 pending migrations ran in the replay only, not on the rows of "
        + "app.sqlite3 (--rows tries them there).\n"
    )
  }

  @Test func aMigrationThatChangesStrataTablesFailsValidate() throws {
    let folder = try project(["0002_wipe.sql": "-- migrate:up\nDELETE FROM strata_migrations;\n"])
    let result = try StrataProcess.run(["validate", "--files-only"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("migrations/0002_wipe.sql:2"))
    #expect(result.standardError.contains("deletes from strata_migrations"))
  }

  @Test func aMissingDatabaseIsReportedUnlessFilesOnly() throws {
    let folder = try project([:])
    let result = try StrataProcess.run(["validate", "--database", "nope.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.hasPrefix(
        "Error: no database at nope.sqlite3, so there is nothing to validate the migrations "
          + "against; nothing was created\n"
      )
    )
    #expect(result.standardError.contains("--files-only"))
    #expect(!exists(folder, "nope.sqlite3"))
    let filesOnly = try StrataProcess.run(
      ["validate", "--database", "nope.sqlite3", "--files-only"],
      in: folder.url
    )
    #expect(filesOnly.exitCode == 0, "\(filesOnly.standardError)")
    #expect(
      filesOnly.standardOutput
        == "OK: 1 migrations in migrations are valid (files only; no database was read).\n"
    )
    #expect(!exists(folder, "nope.sqlite3"))
    let help = try StrataProcess.run(["validate", "--help"], in: folder.url)
    #expect(help.standardOutput.contains("--files-only"))
  }

  @Test func aReplayThatMustStopComparesNothingAndSaysSo() throws {
    // 0002 adds a row whose parent the user inserted: fine in the database, an orphan in the
    // replay, which has none of the database's rows.
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_tables.sql",
      "-- migrate:up\nCREATE TABLE parent (id INTEGER PRIMARY KEY);\n"
        + "CREATE TABLE child (parent_id INTEGER REFERENCES parent (id));\n"
    )
    #expect(
      try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
        .exitCode == 0
    )
    let db = try Connection(path: folder.path("app.sqlite3").path)
    try db.execute("INSERT INTO parent VALUES (5)")
    try folder.write("migrations/0002_child.sql", "-- migrate:up\nINSERT INTO child VALUES (5);\n")
    #expect(
      try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
        .exitCode == 0
    )
    let diff = try StrataProcess.run(
      ["inspect", "--diff", "--database", "app.sqlite3"],
      in: folder.url
    )
    #expect(diff.exitCode == 1)
    #expect(
      diff.standardOutput.contains("Not compared: the replay of migrations (in memory) stopped")
    )
    #expect(diff.standardError.contains("Warning: migrations/0002_child.sql: not checked:"))
    #expect(diff.standardError.contains("foreign key violation"))
    let validate = try StrataProcess.run(
      ["validate", "--database", "app.sqlite3"],
      in: folder.url
    )
    #expect(validate.exitCode == 0, "\(validate.standardError)")
    #expect(
      validate.standardError.contains(
        "Warning: migrations: not checked: the schema of app.sqlite3 was not compared"
      )
    )
    #expect(
      validate.standardOutput
        == "OK, except what was not checked: 2 migrations in migrations are valid; the history "
        + "of app.sqlite3 agrees with them, but its schema was not compared; nothing is pending; "
        + "2 not checked (warnings above).\n"
    )
  }

  @Test func aSkippedTriggerIsSkippedWholeBodyAndAll() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_t.sql",
      "-- migrate:up transaction:false\nATTACH 'o.db' AS o;\nCREATE TABLE a (x);\n"
        + "CREATE TRIGGER o.tr AFTER INSERT ON o.t BEGIN\n  INSERT INTO o.t VALUES (1);\nEND;\n"
        + "CREATE TABLE b (y);\n"
    )
    try folder.write("migrations/0002_b.sql", "-- migrate:up\nCREATE INDEX b_y ON b (y);\n")
    let result = try StrataProcess.run(["validate", "--files-only"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    let warnings = result.standardError.split(separator: "\n")
    #expect(warnings.count == 2, "\(result.standardError)")
    #expect(warnings.last?.hasPrefix("Warning: migrations/0001_t.sql:4 `CREATE TRIGGER") == true)
    #expect(!FileManager.default.fileExists(atPath: folder.path("o.db").path))
  }
}
