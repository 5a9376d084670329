import Foundation
import Strata
import StrataTestSupport
import Testing

/// A database migrated by strata before versions had a type: `status` reads it without
/// changing it, `migrate` rebuilds the history table in place, and every recorded row stays
/// byte for byte, so nothing reads as changed.
@Suite struct HistoryUpgradeCommandTests {
  @Test func statusReadsTheOldTableAndMigrateUpgradesIt() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
      "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n",
    ])
    let checksum = try MigrationSet(directory: project.dir.path("migrations")).migrations[0]
      .checksum
    do {
      let db = try Connection(path: project.database.path, mode: .readWriteCreate)
      // strata's History.createSQL before this change, exactly, and the row it wrote.
      try db.execute(historyFirstLayoutSQL)
      try db.execute(
        """
        CREATE TABLE a (x);
        INSERT INTO strata_migrations VALUES (1, 'a', '\(checksum)', '2024-01-02T03:04:05Z', 3);
        """
      )
    }
    let tableSQL = "SELECT sql FROM sqlite_master WHERE name = 'strata_migrations'"
    let before = try DatabaseProbe.rows(project.database, tableSQL)
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.exitCode == 0, "\(status.standardError)")
    #expect(status.standardOutput.contains("1 applied, 1 pending"), "\(status.standardOutput)")
    #expect(try DatabaseProbe.rows(project.database, tableSQL) == before)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try DatabaseProbe.rows(project.database, tableSQL) != before)
    #expect(
      try DatabaseProbe.rows(
        project.database,
        "SELECT version, typeof(version), checksum, applied_at, duration_ms FROM "
          + "strata_migrations ORDER BY version"
      ).first
        == [
          .integer(1), .text("integer"), .text(checksum), .text("2024-01-02T03:04:05Z"),
          .integer(3),
        ]
    )
    #expect(try project.versions() == [1, 2])
    let after = try project.strata("validate", "--database", "app.sqlite3")
    #expect(after.exitCode == 0, "\(after.standardError)")
    let json = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    #expect(json.standardOutput.contains("\"version\" : 1\n"), "\(json.standardOutput)")
  }
}
