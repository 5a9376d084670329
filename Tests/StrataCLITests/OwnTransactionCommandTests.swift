import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 11: golang-migrate files that manage their own transaction (`x-no-tx-wrap`), through
/// the real `strata`: run as written, recorded inside the file's own transaction.
@Suite struct OwnTransactionCommandTests {
  static let files = OwnTransactionSQL.create.merging([
    "0002_rebuild.up.sql": OwnTransactionSQL.rebuild,
    "0002_rebuild.down.sql": OwnTransactionSQL.rebuildBack,
  ]) { $1 }

  /// A project whose version 2 up file is `up`, after a `migrate` that failed: its stderr.
  func failedMigrate(up: String) throws -> (Project, String) {
    var files = Self.files
    files["0002_rebuild.up.sql"] = up
    let project = try Project(files)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1)
    return (project, migrate.standardError)
  }

  func parentSQL(_ project: Project) throws -> String {
    let rows = try DatabaseProbe.rows(
      project.database,
      "SELECT sql FROM sqlite_master WHERE name = 'parent'"
    )
    return rows.first?.first?.textValue ?? ""
  }

  @Test func aRebuildAppliesRollsBackAndReappliesAsWritten() throws {
    let project = try Project(Self.files)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try project.versions() == [1, 2])
    #expect(try parentSQL(project).contains("NOT NULL DEFAULT ''"))
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM child") == 1)
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.standardOutput.contains("golang-migrate"))
    #expect(status.standardOutput.contains("2 applied"))

    let rollback = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(rollback.exitCode == 0, "\(rollback.standardError)")
    #expect(try project.versions() == [1])
    #expect(try !parentSQL(project).contains("NOT NULL"))
    #expect(
      try DatabaseProbe.integer(project.database, "SELECT count(*) FROM parent WHERE name IS NULL")
        == 1
    )
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    #expect(try project.versions() == [1, 2])
  }

  @Test func aFailureInTheFilesTransactionLeavesTheDatabaseAsItWasAndSaysSo() throws {
    let (project, error) = try failedMigrate(
      up: OwnTransactionSQL.rebuild.replacingOccurrences(
        of: "DROP TABLE parent;",
        with: "DROP TABLE parent;\nINSERT INTO missing VALUES (1);"
      )
    )
    #expect(
      error.contains(
        "migration migrations/0002_rebuild.up.sql:6 failed: SQLite error 1: no such table: "
          + "missing"
      ),
      "\(error)"
    )
    #expect(
      error.contains(
        "the file's transaction begun on line 2 was rolled back; nothing of the file was "
          + "committed; version 2 is not recorded as applied; the database is at version 1"
      ),
      "\(error)"
    )
    #expect(error.contains("Help: Fix the file and run 'strata migrate' again."), "\(error)")
    #expect(try project.versions() == [1])
    #expect(try !parentSQL(project).contains("NOT NULL"))
    #expect(try DatabaseProbe.tables(project.database).contains("new_parent") == false)
  }

  @Test func theForeignKeyCheckBeforeTheFilesCommitRollsItBack() throws {
    let (project, error) = try failedMigrate(
      up: "PRAGMA foreign_keys=OFF;\nBEGIN;\nDELETE FROM parent;\nCOMMIT;\n"
    )
    #expect(
      error.contains(
        "0002_rebuild.up.sql:4 failed: before its final COMMIT, the database has 1 new foreign "
          + "key violation(s)"
      ),
      "\(error)"
    )
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM parent") == 2)
    #expect(try project.versions() == [1])
  }

  @Test func aStatementAfterTheFinalCommitFailsWithTheMigrationRecorded() throws {
    let (project, error) = try failedMigrate(
      up: "BEGIN;\nCREATE TABLE audit (x);\nCOMMIT;\nVACUUMM;\n"
    )
    #expect(
      error.contains(
        "the file's last transaction committed on line 3 with version 2 recorded as applied; "
          + "the statement on line 4 after it failed"
      ),
      "\(error)"
    )
    #expect(error.contains("the database is at version 2"), "\(error)")
    #expect(error.contains("Help: Run the statements from line 4 on by hand"), "\(error)")
    #expect(try project.versions() == [1, 2])
  }

  @Test func singleTransactionAndDryRunRefuseWhatCannotRunAndChangeNothing() throws {
    let project = try Project(Self.files)
    #expect(try project.strata("migrate", "--database", "app.sqlite3", "--to", "1").exitCode == 0)
    let single = try project.strata("migrate", "--database", "app.sqlite3", "--single-transaction")
    #expect(single.exitCode == 1)
    #expect(
      single.standardError.contains(
        "migrations/0002_rebuild.up.sql:2: the file manages its own transaction (BEGIN here), "
          + "which cannot run inside the one transaction that holds the whole run; nothing from "
          + "2 or any other migration was applied; the database is at version 1"
      ),
      "\(single.standardError)"
    )
    #expect(single.standardError.contains("Help: Run without --single-transaction"))
    #expect(try project.versions() == [1])

    try project.write(
      "0002_rebuild.up.sql",
      "PRAGMA foreign_keys=OFF;\nBEGIN;\nDROP TABLE child;\n"
    )
    let dry = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(dry.exitCode == 1)
    #expect(
      dry.standardError.contains(
        "migrations/0002_rebuild.up.sql:2: the file's transaction begun here has no COMMIT or "
          + "END, so it would never commit; nothing from 2 was run; the database is at version 1"
      ),
      "\(dry.standardError)"
    )
    let real = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(real.exitCode == 1)
    #expect(try DatabaseProbe.tables(project.database).contains("child"))
    #expect(try project.versions() == [1])
  }

  @Test func validateReplaysFilesWithTheirOwnTransactionInEveryFormat() throws {
    let golang = try Project(Self.files)
    let ok = try golang.strata("validate", "--files-only")
    #expect(ok.exitCode == 0, "\(ok.standardError)")
    #expect(!ok.standardError.contains("not checked"), "\(ok.standardError)")

    // The down part is checked without its BEGIN and END: a mistake in it is found.
    try golang.write(
      "0002_rebuild.down.sql",
      OwnTransactionSQL.rebuildBack.replacingOccurrences(
        of: "DROP TABLE parent",
        with: "DROP TABLE prent"
      )
    )
    let down = try golang.strata("validate", "--files-only")
    #expect(down.exitCode == 1)
    #expect(
      down.standardError.contains("migrations/0002_rebuild.down.sql:5: the down part fails"),
      "\(down.standardError)"
    )

    try golang.write("0003_undo.up.sql", "BEGIN;\nCREATE TABLE x (y);\nROLLBACK;\n")
    try golang.write("0002_rebuild.down.sql", OwnTransactionSQL.rebuildBack)
    let rollback = try golang.strata("validate", "--files-only")
    #expect(rollback.exitCode == 1)
    #expect(
      rollback.standardError.contains(
        "migrations/0003_undo.up.sql:3: ROLLBACK would undo the file's own transaction"
      ),
      "\(rollback.standardError)"
    )

    let sqlx = try Project([
      "0001_a.sql": "-- no-transaction\nCREATE TABLE a (x);\n",
      "0002_b.sql": "BEGIN;\nCREATE TABLE b (x);\nCOMMIT;\n",
    ])
    let sqlxValidate = try sqlx.strata("validate", "--files-only")
    #expect(sqlxValidate.exitCode == 0, "\(sqlxValidate.standardError)")
    #expect(try sqlx.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    #expect(try sqlx.versions() == [1, 2])
  }
}
