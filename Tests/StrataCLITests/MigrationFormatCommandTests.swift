import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 11: `strata migrate --migrations <their folder>` is the whole switch, for each format;
/// `status` and `validate` say which format they read; `--migration-format` overrides it.
@Suite struct MigrationFormatCommandTests {
  static let folders: [(String, [String: String])] = [
    (
      "dbmate",
      [
        "20240101000000_a.sql": "--migrate:up\nCREATE TABLE a (x);\n--migrate:down\nDROP TABLE a;\n"
          + "-- migrate:up\nCREATE INDEX a_x ON a (x);\n-- migrate:down\nDROP INDEX a_x;\n",
        "20240102000000_b.sql":
          "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n",
      ]
    ),
    (
      "golang-migrate",
      [
        "1_a.up.sql": "CREATE TABLE a (x);\nCREATE INDEX a_x ON a (x);\n",
        "1_a.down.sql": "DROP TABLE a;\n",
        "2_b.up.sql": "CREATE TABLE b (x);\n", "2_b.down.sql": "DROP TABLE b;\n",
      ]
    ),
    (
      "goose",
      [
        "00001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n-- +goose StatementBegin\n"
          + "CREATE INDEX a_x ON a (x);\n-- +goose StatementEnd\n-- +goose Down\nDROP TABLE a;\n",
        "00002_b.sql": "-- +goose up\n-- +goose no transaction\nCREATE TABLE b (x);\n"
          + "-- +goose down\nDROP TABLE b;\n",
      ]
    ),
    (
      "sql-migrate",
      [
        "1_a.sql": "-- +migrate Up\nCREATE TABLE a (x);\nCREATE INDEX a_x ON a (x);\n"
          + "-- +migrate Down\nDROP TABLE a;\n",
        "2_b.sql": "-- +migrate Up notransaction\nCREATE TABLE b (x);\n-- +migrate Down\n"
          + "DROP TABLE b;\n",
      ]
    ),
    (
      "sqlx",
      [
        "20240101000000_a.up.sql":
          "-- no-transaction\nCREATE TABLE a (x);\nCREATE INDEX a_x ON a (x);\n",
        "20240101000000_a.down.sql": "DROP TABLE a;\n",
        "20240102000000_b.up.sql": "CREATE TABLE b (x);\n",
        "20240102000000_b.down.sql": "DROP TABLE b;\n",
      ]
    ),
  ]

  @Test(arguments: folders)
  func eachFormatMigratesRollsBackAndMigratesAgain(
    format: String,
    files: [String: String]
  )
    throws
  {
    let project = try Project(files)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(
      try DatabaseProbe.tables(project.database).filter { !$0.hasPrefix("strata_") } == ["a", "b"]
    )
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.standardOutput.contains("Format:     \(format) ("), "\(status.standardOutput)")
    let json = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    #expect(json.standardOutput.contains("\"migrationFormat\" : \"\(format)\""))
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 0, "\(validate.standardError)")
    if format != "dbmate" {
      #expect(
        validate.standardOutput.contains("OK: 2 \(format) migrations in migrations are valid")
      )
    }
    let rollback = try project.strata("rollback", "--database", "app.sqlite3", "--to", "0")
    #expect(rollback.exitCode == 0, "\(rollback.standardError)")
    #expect(try DatabaseProbe.tables(project.database).filter { !$0.hasPrefix("strata_") }.isEmpty)
    #expect(try project.versions().isEmpty)
    let again = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(again.exitCode == 0, "\(again.standardError)")
    #expect(try project.versions().count == 2)
    #expect(
      try DatabaseProbe.integer(
        project.database,
        "SELECT count(*) FROM sqlite_master WHERE name = 'a_x'"
      ) == 1
    )
  }

  /// iOS bundles: `1.sql` is read, whole, and is irreversible.
  @Test func bundleFolderMigrates() throws {
    let project = try Project(["1.sql": "CREATE TABLE a (x);\n", "2.sql": "CREATE TABLE b (x);\n"])
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try project.versions() == [1, 2])
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.standardOutput.contains("Format:     bundle ("))
    let rollback = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(rollback.exitCode == 1)
    #expect(rollback.standardError.contains("migrations/2.sql"), "\(rollback.standardError)")
  }

  /// The bug: goose's down section ran with the up section. Now the down table stays
  /// uncreated, and the down part runs only on rollback.
  @Test func gooseDownSectionDoesNotRunOnMigrate() throws {
    let project = try Project([
      "00001_a.sql":
        "-- +goose Up\nCREATE TABLE a (x);\n-- +goose Down\nCREATE TABLE down_ran (x);\n"
    ])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    #expect(try DatabaseProbe.tables(project.database).contains("down_ran") == false)
  }

  @Test func mixedFolderIsRefusedAndNothingRuns() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
      "0002_b.sql": "-- +goose Up\nCREATE TABLE b (x);\n-- +goose Down\nDROP TABLE b;\n",
    ])
    for command in ["migrate", "status", "validate"] {
      let result = try project.strata(command, "--database", "app.sqlite3")
      #expect(result.exitCode == 1, "\(command): \(result.standardOutput)")
      #expect(
        result.standardError.contains(
          "migrations mixes migration formats: migrations/0001_a.sql is dbmate and "
            + "migrations/0002_b.sql is goose; strata reads one format per folder"
        ),
        "\(result.standardError)"
      )
      #expect(result.standardError.contains("Help: Keep one format per folder"))
    }
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  /// `--migration-format` reads every file as the named format (here refusing the goose file
  /// as strata's own would), and a name it does not know is a usage error.
  @Test func migrationFormatOptionOverridesDetection() throws {
    let project = try Project([
      "00001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n-- +goose Down\nDROP TABLE a;\n"
    ])
    let forced = try project.strata(
      "migrate",
      "--database",
      "app.sqlite3",
      "--migration-format",
      "strata"
    )
    #expect(forced.exitCode == 1)
    #expect(
      forced.standardError.contains("migrations/00001_a.sql:1: '-- +goose Up' is a goose marker")
    )
    let bad = try project.strata("status", "--migration-format", "liquibase")
    #expect(bad.exitCode == 64)
    #expect(bad.standardError.contains("--migration-format must be one of dbmate, golang-migrate"))
    let named = try project.strata(
      "migrate",
      "--database",
      "app.sqlite3",
      "--migration-format",
      "goose"
    )
    #expect(named.exitCode == 0, "\(named.standardError)")
  }

  @Test(arguments: [
    ("00001_a.sql", "-- +goose Up\nCREATE TABLE a (x);\n", ["00002_next.sql"], "-- +goose Up"),
    ("1_a.sql", "-- +migrate Up\nCREATE TABLE a (x);\n", ["2_next.sql"], "-- +migrate Up"),
    ("0001_a.up.sql", "CREATE TABLE a (x);\n", ["0002_next.up.sql", "0002_next.down.sql"], ""),
    ("0001_a.sql", "-- migrate:up\nCREATE TABLE a (x);\n", ["0002_next.sql"], "-- migrate:up"),
  ])
  func newWritesTheFolderOwnFormat(
    existing: String,
    content: String,
    created: [String],
    marker: String
  ) throws {
    let project = try Project([existing: content])
    let result = try project.strata("new", "next")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == created.map { "Created migrations/\($0)\n" }.joined())
    let text = try String(contentsOf: project.dir.path("migrations/\(created[0])"), encoding: .utf8)
    #expect(text.hasPrefix(marker))
    // Left without SQL, the new migration is refused until it is written.
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1)
    #expect(
      migrate.standardError.contains("part is still the empty template strata wrote for it"),
      "\(migrate.standardError)"
    )
  }
}
