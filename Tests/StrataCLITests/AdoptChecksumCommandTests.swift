import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 30 item 7, through the real `strata`: `baseline --from flyway|sqlx` compares each file
/// it adopts with the checksum the tool recorded when it applied it, refuses one the tool would
/// call edited, and records a Flyway repeatable migration unchanged since Flyway ran it, so that
/// the next `migrate` does not run it again.
///
/// The checksums in the fixtures are computed by python3, not by strata (ForeignChecksumTests
/// gives the recipe): Flyway's `zlib.crc32` of the file's lines (a BOM dropped, no line endings)
/// as a signed int; sqlx's `hashlib.sha384` of the file's bytes.
@Suite struct AdoptChecksumCommandTests {
  // MARK: - Flyway

  /// V1 with a byte order mark and CRLF endings (Flyway's checksum ignores both), V2, and a
  /// repeatable that logs each run, so running it again adds a row; V3 is pending.
  static let flywayFiles = [
    "V1__a.sql": "\u{FEFF}CREATE TABLE a (x);\r\nCREATE TABLE log (what TEXT);\r\n",
    "V2__b.sql": "CREATE TABLE b (x);\n",
    "V3__c.sql": "CREATE TABLE c (x);\n",
    "R__refresh_views.sql":
      "INSERT INTO log (what) VALUES ('refresh');\nDROP VIEW IF EXISTS v;\n"
      + "CREATE VIEW v AS SELECT x FROM a;\n",
  ]

  /// The database after `flyway migrate` ran V1, V2 and the repeatable (its table as
  /// ForeignHistoryTests makes it, from flyway-core's createMetaDataTable.sql for SQLite).
  static let flywayDatabase = """
    CREATE TABLE a (x); CREATE TABLE log (what TEXT); CREATE TABLE b (x);
    INSERT INTO log (what) VALUES ('refresh');
    CREATE VIEW v AS SELECT x FROM a;
    CREATE TABLE "flyway_schema_history" (
      "installed_rank" INT NOT NULL PRIMARY KEY, "version" VARCHAR(50),
      "description" VARCHAR(200) NOT NULL, "type" VARCHAR(20) NOT NULL,
      "script" VARCHAR(1000) NOT NULL, "checksum" INT, "installed_by" VARCHAR(100) NOT NULL,
      "installed_on" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f','now')),
      "execution_time" INT NOT NULL, "success" BOOLEAN NOT NULL);
    CREATE INDEX "flyway_schema_history_s_idx" ON "flyway_schema_history" ("success");
    INSERT INTO flyway_schema_history
      (installed_rank, version, description, type, script, checksum, installed_by,
       execution_time, success)
    VALUES (1, '1', 'a', 'SQL', 'V1__a.sql', 832100385, 'app', 5, 1),
           (2, '2', 'b', 'SQL', 'V2__b.sql', -1802148518, 'app', 5, 1),
           (3, NULL, 'refresh views', 'SQL', 'R__refresh_views.sql', 467647589, 'app', 5, 1);
    """

  func project(_ files: [String: String], _ database: String) throws -> Project {
    let project = try Project(files)
    try Connection(path: project.database.path).execute(database)
    return project
  }

  func logRows(_ project: Project) throws -> Int64? {
    try DatabaseProbe.integer(project.database, "SELECT count(*) FROM log")
  }

  @Test func flywayFilesAsAppliedAreAdoptedAndTheRepeatableIsNotRunAgain() throws {
    let project = try project(Self.flywayFiles, Self.flywayDatabase)
    let baseline = try project.strata("baseline", "--database", "app.sqlite3", "--from", "flyway")
    #expect(baseline.exitCode == 0, "\(baseline.standardError)")
    #expect(baseline.standardOutput.contains("recorded 2 migration(s) as applied"))
    #expect(
      baseline.standardOutput.contains(
        "Recorded 1 repeatable migration(s) unchanged since Flyway applied them as applied: "
          + "refresh_views."
      )
    )
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(migrate.standardOutput.contains("Applied migrations/V3__c.sql"))
    #expect(!migrate.standardOutput.contains("R__refresh_views.sql"), "\(migrate.standardOutput)")
    // Run again, the repeatable would have logged a second row.
    #expect(try logRows(project) == 1)
    let status = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(status.exitCode == 0, "\(status.standardOutput)\(status.standardError)")
  }

  @Test func anEditedFlywayFileIsRefusedAndNothingIsAdopted() throws {
    let project = try project(Self.flywayFiles, Self.flywayDatabase)
    try project.write("V2__b.sql", "CREATE TABLE b (x, y);\n")
    let bytes = try Data(contentsOf: project.database)
    let result = try project.strata("baseline", "--database", "app.sqlite3", "--from", "flyway")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "Error: migrations/V2__b.sql was edited after Flyway applied it (version 2: Flyway "
          + "recorded checksum -1802148518, the file now has checksum "
      ),
      "\(result.standardError)"
    )
    #expect(
      result.standardError.contains(
        "Flyway's validate fails with \"Migration checksum mismatch for migration version 2\""
      )
    )
    #expect(result.standardError.contains("nothing was adopted and the database is unchanged"))
    #expect(
      result.standardError.contains(
        "Help: Restore migrations/V2__b.sql as Flyway applied it (from version control), then "
          + "run 'strata baseline --from flyway' again; or run 'flyway repair' first"
      )
    )
    #expect(result.standardError.contains("add --allow-changed"))
    #expect(try Data(contentsOf: project.database) == bytes)

    // Accepted on purpose: recorded, and said so.
    let accepted = try project.strata(
      "baseline",
      "--database",
      "app.sqlite3",
      "--from",
      "flyway",
      "--allow-changed"
    )
    #expect(accepted.exitCode == 0, "\(accepted.standardError)")
    #expect(accepted.standardOutput.contains("(--allow-changed): migrations/V2__b.sql."))
    #expect(try project.versions() == [1, 2])
  }

  /// A repeatable edited since Flyway ran it runs again, as Flyway would run it.
  @Test func aChangedFlywayRepeatableIsAppliedAgain() throws {
    let project = try project(Self.flywayFiles, Self.flywayDatabase)
    try project.write(
      "R__refresh_views.sql",
      "INSERT INTO log (what) VALUES ('refresh');\nDROP VIEW IF EXISTS v;\n"
        + "CREATE VIEW v AS SELECT x, 1 AS one FROM a;\n"
    )
    let baseline = try project.strata("baseline", "--database", "app.sqlite3", "--from", "flyway")
    #expect(baseline.exitCode == 0, "\(baseline.standardError)")
    #expect(!baseline.standardOutput.contains("repeatable"), "\(baseline.standardOutput)")
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(migrate.standardOutput.contains("Applied migrations/R__refresh_views.sql"))
    #expect(try logRows(project) == 2)
    let columns = try DatabaseProbe.rows(project.database, "PRAGMA table_info(v)")
    #expect(columns.compactMap { $0[1].textValue } == ["x", "one"])
  }

  /// Flyway's validate compares a null applied checksum with the file's and fails: only its
  /// baseline row (and what is at or below it) goes uncompared.
  @Test func aFlywaySQLRowWithoutAChecksumIsAMismatch() throws {
    let database = Self.flywayDatabase.replacingOccurrences(
      of: "'V2__b.sql', -1802148518",
      with: "'V2__b.sql', NULL"
    )
    let project = try project(Self.flywayFiles, database)
    try project.write("V2__b.sql", "CREATE TABLE b (x, y);\n")
    let bytes = try Data(contentsOf: project.database)
    let result = try project.strata("baseline", "--database", "app.sqlite3", "--from", "flyway")
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(
      result.standardError.contains(
        "Error: migrations/V2__b.sql was edited after Flyway applied it (version 2: Flyway "
          + "recorded checksum null, the file now has checksum "
      ),
      "\(result.standardError)"
    )
    #expect(try Data(contentsOf: project.database) == bytes)
    #expect(try project.versions() == [])
  }

  @Test func anAppliedFlywayRepeatableWithoutItsFileIsRefused() throws {
    var files = Self.flywayFiles
    files["R__refresh_views.sql"] = nil
    let project = try project(files, Self.flywayDatabase)
    let bytes = try Data(contentsOf: project.database)
    let result = try project.strata("baseline", "--database", "app.sqlite3", "--from", "flyway")
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(
      result.standardError.contains(
        "Error: Flyway's history (flyway_schema_history) records the repeatable migration "
          + "'refresh views' as applied, which no file in migrations has (R__refresh_views.sql); "
          + "Flyway's validate fails with \"Detected applied migration not resolved locally: "
          + "refresh views\"; nothing was changed"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("run 'flyway repair' first to mark it deleted"))
    #expect(try Data(contentsOf: project.database) == bytes)
    // Marked deleted by Flyway's repair, it is no longer asked for.
    try Connection(path: project.database.path).execute(
      "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, "
        + "checksum, installed_by, execution_time, success) VALUES (4, NULL, 'refresh views', "
        + "'DELETE', 'R__refresh_views.sql', 467647589, 'app', 0, 1)"
    )
    let repaired = try project.strata(
      "baseline",
      "--database",
      "app.sqlite3",
      "--from",
      "flyway"
    )
    #expect(repaired.exitCode == 0, "\(repaired.standardError)")
    #expect(try project.versions() == [1, 2])
  }

  @Test func aFlywayRepeatableWhoseRunFailedIsRefused() throws {
    let database = Self.flywayDatabase.replacingOccurrences(
      of: "'R__refresh_views.sql', 467647589, 'app', 5, 1)",
      with: "'R__refresh_views.sql', 467647589, 'app', 5, 0)"
    )
    let project = try project(Self.flywayFiles, database)
    let bytes = try Data(contentsOf: project.database)
    let result = try project.strata("baseline", "--database", "app.sqlite3", "--from", "flyway")
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(
      result.standardError.contains(
        "Error: Flyway's history (flyway_schema_history) records that the repeatable migration "
          + "'refresh views' failed half-way"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("Help: Repair the database with Flyway first"))
    #expect(try Data(contentsOf: project.database) == bytes)
  }

  // MARK: - sqlx

  /// A pair with CRLF endings (sqlx hashes them), and a whole file whose `-- no-transaction`
  /// makes the folder sqlx's; 3 is pending.
  static let sqlxFiles = [
    "1_a.up.sql": "CREATE TABLE a (x);\r\n",
    "1_a.down.sql": "DROP TABLE a;\n",
    "2_b.sql": "-- no-transaction\nCREATE TABLE b (x);\n",
    "3_c.sql": "CREATE TABLE c (x);\n",
  ]

  /// After `sqlx migrate run` applied 1 and 2 (the table from sqlx-sqlite's migrate.rs).
  static let sqlxDatabase = """
    CREATE TABLE a (x); CREATE TABLE b (x);
    CREATE TABLE IF NOT EXISTS _sqlx_migrations (
        version BIGINT PRIMARY KEY,
        description TEXT NOT NULL,
        installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
        success BOOLEAN NOT NULL,
        checksum BLOB NOT NULL,
        execution_time BIGINT NOT NULL
    );
    INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
    VALUES (1, 'a', TRUE, x'a35a9a01f7116bae56e78d68b58de7574c3ee42ef4f35a11c2339aa56a1d996b96d9c6cacfcfd2d8f6a8a0e28dd385e5', 10),
           (2, 'b', TRUE, x'73aa3b7465113751ee97f5fd0a311269d3cdd3e4e3ab722c459398fee73366bb550ea8fef32771495fcd1fcf54448e38', 12);
    """

  @Test func sqlxFilesAsAppliedAreAdopted() throws {
    let project = try project(Self.sqlxFiles, Self.sqlxDatabase)
    let baseline = try project.strata("baseline", "--database", "app.sqlite3", "--from", "sqlx")
    #expect(baseline.exitCode == 0, "\(baseline.standardError)")
    #expect(try project.versions() == [1, 2])
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try project.versions() == [1, 2, 3])
  }

  @Test func anEditedSQLxFileIsRefusedAndNothingIsAdopted() throws {
    let project = try project(Self.sqlxFiles, Self.sqlxDatabase)
    // Only the line ending changed: sqlx hashes the bytes, so sqlx calls it modified too.
    try project.write("1_a.up.sql", "CREATE TABLE a (x);\n")
    try project.write("2_b.sql", "-- no-transaction\nCREATE TABLE b (x, y);\n")
    let bytes = try Data(contentsOf: project.database)
    let result = try project.strata("baseline", "--database", "app.sqlite3", "--from", "auto")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "Error: 2 files were edited after sqlx applied them: migrations/1_a.up.sql (version 1: "
          + "sqlx recorded SHA-384 a35a9a01f7116bae…, the file now has SHA-384 "
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("migrations/2_b.sql (version 2: sqlx recorded"))
    #expect(
      result.standardError.contains(
        "sqlx fails with \"migration 1 was previously applied but has been modified\""
      )
    )
    #expect(result.standardError.contains("nothing was adopted and the database is unchanged"))
    #expect(
      result.standardError.contains(
        "Help: Restore migrations/1_a.up.sql, migrations/2_b.sql as sqlx applied them"
      )
    )
    #expect(!result.standardError.contains("repair"))
    #expect(try Data(contentsOf: project.database) == bytes)
  }
}
