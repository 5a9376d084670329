import Foundation
import Strata
import StrataTestSupport
import Testing

/// A sql-migrate folder with sql-migrate's own names (ssbc/go-ssb-room's shape), through the
/// real `strata`: migrate, status, `--to` by file name, rollback, re-apply, adoption of
/// `gorp_migrations`, `strata new`.
@Suite struct SQLMigrateNameCommandTests {
  private static func file(_ table: String) -> String {
    "-- +migrate Up\nCREATE TABLE \(table) (id INTEGER PRIMARY KEY);\n"
      + "-- +migrate Down\nDROP TABLE \(table);\n"
  }

  private static let folder: [String: String] = [
    "01-consolidated.sql": file("members"),
    "02-notices.sql": file("notices"),
    "03-siwssb-tokens.sql": file("tokens"),
    "03-config.sql": file("config"),
    "seed.sql": file("seed"),
  ]

  private func tables(_ project: Project) throws -> [String] {
    try DatabaseProbe.tables(project.database).filter {
      !$0.hasPrefix("strata_") && !$0.hasPrefix("gorp_")
    }
  }

  @Test func migratesRollsBackByNameAndReapplies() throws {
    let project = try Project(Self.folder)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    let applied = migrate.standardOutput.components(separatedBy: "\n")
      .filter { $0.hasPrefix("Applied ") }.map { $0.prefix { $0 != "(" } }
    #expect(
      applied == [
        "Applied migrations/01-consolidated.sql ", "Applied migrations/02-notices.sql ",
        "Applied migrations/03-config.sql ", "Applied migrations/03-siwssb-tokens.sql ",
        "Applied migrations/seed.sql ",
      ]
    )
    #expect(migrate.standardOutput.contains("app.sqlite3 is now at version seed.sql."))
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.exitCode == 0)
    let lines = status.standardOutput.components(separatedBy: "\n")
    let versions = lines.filter { $0.contains(" applied ") }.map {
      String($0.prefix { $0 != " " })
    }
    #expect(
      versions == [
        "01-consolidated.sql", "02-notices.sql", "03-config.sql", "03-siwssb-tokens.sql",
        "seed.sql",
      ],
      "\(status.standardOutput)"
    )
    // Names without a number, and numbers of one width, give no width warning.
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 0, "\(validate.standardError)")
    #expect(
      validate.standardOutput.contains("OK: 5 sql-migrate migrations in migrations are valid")
    )
    #expect(!validate.standardError.contains("Warning"), "\(validate.standardError)")
    let json = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    #expect(json.standardOutput.contains("\"currentVersion\" : \"seed.sql\""))

    let back = try project.strata("rollback", "--database", "app.sqlite3", "--to", "02-notices")
    #expect(back.exitCode == 0, "\(back.standardError)")
    #expect(back.standardOutput.contains("Rolled back migrations/03-config.sql"))
    #expect(try tables(project) == ["members", "notices"])
    let to = try project.strata("migrate", "--database", "app.sqlite3", "--to", "03-config.sql")
    #expect(to.exitCode == 0, "\(to.standardError)")
    #expect(try tables(project) == ["config", "members", "notices"])
    let unknown = try project.strata("migrate", "--database", "app.sqlite3", "--to", "7")
    #expect(unknown.exitCode == 1)
    #expect(
      unknown.standardError.contains("version 7.sql is neither a migration file nor applied"),
      "\(unknown.standardError)"
    )
    #expect(try project.strata("rollback", "--database", "app.sqlite3", "--to", "0").exitCode == 0)
    #expect(try tables(project) == [])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    #expect(try tables(project) == ["config", "members", "notices", "seed", "tokens"])
  }

  /// sql-migrate's own history, as `sql-migrate up` leaves it, is adopted by file name.
  @Test func baselineFromSQLMigrateAdoptsGorpMigrations() throws {
    let project = try Project(Self.folder)
    try Connection.open(at: project.database, access: .create).execute(
      "CREATE TABLE IF NOT EXISTS \"gorp_migrations\" (\"id\" varchar(255) not null primary "
        + "key, \"applied_at\" datetime);"
        + "INSERT INTO gorp_migrations VALUES ('01-consolidated.sql', '2024-01-01 00:00:00');"
        + "INSERT INTO gorp_migrations VALUES ('02-notices.sql', '2024-01-01 00:00:00');"
        + "CREATE TABLE members (id INTEGER PRIMARY KEY); CREATE TABLE notices (id INTEGER "
        + "PRIMARY KEY);"
    )
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(
      status.standardOutput.contains(
        "sql-migrate's gorp_migrations records versions 01-consolidated.sql, 02-notices.sql"
      ),
      "\(status.standardOutput)"
    )
    let refused = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(refused.exitCode == 1)
    let baseline = try project.strata(
      "baseline",
      "--from",
      "sql-migrate",
      "--database",
      "app.sqlite3"
    )
    #expect(baseline.exitCode == 0, "\(baseline.standardError)")
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(!migrate.standardOutput.contains("01-consolidated"))
    #expect(try tables(project) == ["config", "members", "notices", "seed", "tokens"])
  }

  /// `strata new` counts sql-migrate's names by their leading number.
  @Test func newTakesTheNextLeadingNumber() throws {
    let project = try Project(Self.folder)
    let result = try project.strata("new", "next")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "Created migrations/04_next.sql\n")
  }

  /// A database migrated while every name was `<version>_<name>.sql` (numbers recorded) keeps
  /// its migrations applied once a sql-migrate name joins the folder.
  @Test func numberedHistoryStaysAppliedWhenTheFolderTakesNames() throws {
    let project = try Project(["0001_a.sql": Self.file("a"), "2_b.sql": Self.file("b")])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    #expect(try project.versions() == [1, 2])
    try project.write("03-c.sql", Self.file("c"))
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.standardOutput.contains("2 applied, 1 pending"), "\(status.standardOutput)")
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(
      migrate.standardOutput.hasPrefix("Applied migrations/03-c.sql"),
      "\(migrate.standardOutput)"
    )
    let rows = try DatabaseProbe.rows(
      project.database,
      "SELECT version FROM strata_migrations ORDER BY rowid"
    ).map { $0[0].textValue ?? "" }
    #expect(rows == ["0001_a.sql", "2_b.sql", "03-c.sql"])
  }
}
