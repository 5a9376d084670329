import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata baseline --from TOOL` and what `migrate` and `status` say before it, through the
/// real binary, on databases whose history table is made as each tool makes it (the statements
/// and their sources are in ForeignHistoryTests).
@Suite struct AdoptCommandTests {
  static let files = threeMigrations.merging([
    "0004_d.sql": "-- migrate:up\nCREATE TABLE d (x);\n-- migrate:down\nDROP TABLE d;\n"
  ]) { first, _ in first }

  struct Case: CustomTestStringConvertible, Sendable {
    let tool: String
    let displayName: String
    let table: String
    /// The table and its rows after the tool applied 1 and 2.
    let history: String
    var testDescription: String { tool }
  }

  static let cases = [
    Case(
      tool: "dbmate",
      displayName: "dbmate",
      table: "schema_migrations",
      history: """
        create table if not exists "schema_migrations" (version varchar(128) primary key);
        insert into "schema_migrations" (version) values ('0001'), ('0002');
        """
    ),
    Case(
      tool: "golang-migrate",
      displayName: "golang-migrate",
      table: "schema_migrations",
      history: """
        CREATE TABLE IF NOT EXISTS schema_migrations (version uint64,dirty bool);
        CREATE UNIQUE INDEX IF NOT EXISTS version_unique ON schema_migrations (version);
        INSERT INTO schema_migrations (version, dirty) VALUES (2, 0);
        """
    ),
    Case(
      tool: "goose",
      displayName: "goose",
      table: "goose_db_version",
      history: """
        CREATE TABLE goose_db_version (
        		id INTEGER PRIMARY KEY AUTOINCREMENT,
        		version_id INTEGER NOT NULL,
        		is_applied INTEGER NOT NULL,
        		tstamp TIMESTAMP DEFAULT (datetime('now'))
        	);
        INSERT INTO goose_db_version (version_id, is_applied) VALUES (0, 1), (1, 1), (2, 1);
        """
    ),
    Case(
      tool: "sqlitemigrationmanager",
      displayName: "SQLiteMigrationManager",
      table: "schema_migrations",
      history: """
        CREATE TABLE IF NOT EXISTS "schema_migrations" ("version" INTEGER NOT NULL UNIQUE);
        INSERT INTO "schema_migrations" ("version") VALUES (1);
        INSERT INTO "schema_migrations" ("version") VALUES (2);
        """
    ),
  ]

  func project(_ history: String) throws -> Project {
    let project = try Project(Self.files)
    let db = try Connection(path: project.database.path)
    try db.execute("CREATE TABLE a (x); CREATE TABLE b (x);")
    try db.execute(history)
    return project
  }

  @Test(arguments: cases) func migrateRefusesStatusShowsBaselineAdopts(_ example: Case) throws {
    let project = try project(example.history)
    let before = try DatabaseFingerprint.of(project.database)

    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1)
    #expect(
      migrate.standardError.contains(
        "Error: the database has no strata history but has \(example.displayName)'s "
          + "(\(example.table))"
      )
    )
    #expect(!migrate.standardError.contains("already exists"))
    #expect(
      migrate.standardError.contains("Help: Run 'strata baseline --from \(example.tool)'")
    )
    #expect(try DatabaseFingerprint.of(project.database) == before)

    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.exitCode == 0)
    #expect(status.standardOutput.contains("History:    \(example.displayName)'s \(example.table)"))
    #expect(status.standardOutput.contains("other-tool"))
    #expect(status.standardOutput.contains("0 applied, 2 pending, 2 other-tool"))
    #expect(try project.strata("status", "--database", "app.sqlite3", "--check").exitCode == 1)
    let json = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    )
    let histories = report["otherToolHistories"] as? [[String: Any]]
    #expect(histories?.first?["tool"] as? String == example.tool)
    let states = (report["migrations"] as? [[String: Any]])?.compactMap { $0["state"] as? String }
    #expect(states == ["other-tool", "other-tool", "pending", "pending"])

    let baseline = try project.strata("baseline", "--database", "app.sqlite3", "--from", "auto")
    #expect(baseline.exitCode == 0, "\(baseline.standardError)")
    #expect(
      baseline.standardOutput.contains(
        "Adopted \(example.displayName)'s history (\(example.table)): recorded 2 migration(s)"
      )
    )
    #expect(try project.versions() == [1, 2])
    #expect(try DatabaseProbe.tables(project.database).contains(example.table))

    let after = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(after.exitCode == 0, "\(after.standardError)")
    #expect(after.standardOutput.contains("Applied migrations/0003_c.sql"))
    #expect(!after.standardOutput.contains("0001_a.sql"))
    #expect(try project.versions() == [1, 2, 3, 4])
  }

  @Test func baselineFromNamedToolAndJSON() throws {
    let project = try project(Self.cases[2].history)
    let result = try project.strata(
      "baseline",
      "--database",
      "app.sqlite3",
      "--from",
      "goose",
      "--format",
      "json"
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("\"from\" : \"goose\""))
    #expect(result.standardOutput.contains("\"table\" : \"goose_db_version\""))
    #expect(try project.versions() == [1, 2])
  }

  @Test func dirtyGolangMigrateIsRefusedNamingTheVersion() throws {
    let project = try project(
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (version uint64,dirty bool);
      CREATE UNIQUE INDEX IF NOT EXISTS version_unique ON schema_migrations (version);
      INSERT INTO schema_migrations (version, dirty) VALUES (2, 1);
      """
    )
    let before = try DatabaseFingerprint.of(project.database)
    let result = try project.strata(
      "baseline",
      "--database",
      "app.sqlite3",
      "--from",
      "golang-migrate"
    )
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "Error: golang-migrate's history (schema_migrations) records that version 2 failed "
          + "half-way (the database is marked dirty)"
      )
    )
    #expect(result.standardError.contains("Help: Repair the database with golang-migrate first"))
    #expect(try DatabaseFingerprint.of(project.database) == before)
    // migrate and status do not send the user to a baseline that would be refused.
    for command in ["migrate", "status"] {
      let told = try project.strata(command, "--database", "app.sqlite3")
      let output = told.standardError + told.standardOutput
      #expect(output.contains("Repair the database with golang-migrate first"), "\(output)")
      #expect(!output.contains("Help: Run 'strata baseline"), "\(output)")
    }
    #expect(try DatabaseFingerprint.of(project.database) == before)
  }

  @Test func twoHistoriesMakeAutoRefuse() throws {
    let project = try project(Self.cases[0].history + Self.cases[2].history)
    let before = try DatabaseFingerprint.of(project.database)
    let result = try project.strata("baseline", "--database", "app.sqlite3", "--from", "auto")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "the database has the histories of dbmate (schema_migrations) and goose "
          + "(goose_db_version)"
      )
    )
    #expect(result.standardError.contains("Help: Run 'strata baseline --from TOOL'"))
    #expect(result.standardError.contains("dbmate or goose"))
    #expect(try DatabaseFingerprint.of(project.database) == before)
  }

  @Test func aToolThatLeftNoHistoryNamesTheOneFound() throws {
    let project = try project(Self.cases[0].history)
    let result = try project.strata("baseline", "--database", "app.sqlite3", "--from", "sqlx")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("no sqlx history (_sqlx_migrations)"))
    #expect(result.standardError.contains("Help: Run 'strata baseline --from dbmate'."))
  }

  @Test func fromAndVersionTogetherOrAnUnknownToolAreUsageErrors() throws {
    let project = try project(Self.cases[0].history)
    let both = try project.strata(
      "baseline",
      "--database",
      "app.sqlite3",
      "--from",
      "dbmate",
      "--version",
      "2"
    )
    #expect(both.exitCode == 64)
    #expect(both.standardError.contains("--version and --from cannot be combined"))
    let unknown = try project.strata("baseline", "--database", "app.sqlite3", "--from", "rails")
    #expect(unknown.exitCode == 64)
    #expect(unknown.standardError.contains("--from must be one of auto, dbmate, golang-migrate"))
    let neither = try project.strata("baseline", "--database", "app.sqlite3")
    #expect(neither.exitCode == 64)
    #expect(neither.standardError.contains("missing --version or --from"))
  }
}
