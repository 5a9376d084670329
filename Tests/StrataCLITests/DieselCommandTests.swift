import Foundation
import Strata
import StrataTestSupport
import Testing

/// diesel folders through the real `strata`: detected, named by `status` and `validate`,
/// migrated, rolled back with `--to` in diesel's versions, applied again; `new` writes a diesel
/// folder; JSON keeps a text version a string.
@Suite struct DieselCommandTests {
  static let files = [
    "2015-12-19-180527_create_users/up.sql":
      "CREATE TABLE users (\n  id SERIAL PRIMARY KEY,\n  name VARCHAR NOT NULL\n);\n",
    "2015-12-19-180527_create_users/down.sql": "DROP TABLE users;\n",
    "2016-01-07-082941_create_posts/up.sql":
      "CREATE TABLE posts (\n  id SERIAL PRIMARY KEY,\n  user_id INTEGER NOT NULL\n);\n",
    "2016-01-07-082941_create_posts/down.sql": "DROP TABLE posts;\n",
    "2016-01-07-082941_create_posts/metadata.toml": "run_in_transaction = true\n",
  ]

  func userTables(_ project: Project) throws -> [String] {
    try DatabaseProbe.tables(project.database).filter { !$0.hasPrefix("strata_") }
  }

  @Test func migratesRollsBackToAVersionAndMigratesAgain() throws {
    let project = try Project(Self.files)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try userTables(project) == ["posts", "users"])
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.standardOutput.contains("Format:     diesel ("), "\(status.standardOutput)")
    #expect(status.standardOutput.contains("20160107082941  applied"), "\(status.standardOutput)")
    let json = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    #expect(json.standardOutput.contains("\"migrationFormat\" : \"diesel\""))
    #expect(
      json.standardOutput.contains("\"version\" : \"20151219180527\""),
      "\(json.standardOutput)"
    )
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 0, "\(validate.standardError)")
    #expect(validate.standardOutput.contains("OK: 2 diesel migrations in migrations are valid"))
    let back = try project.strata(
      "rollback",
      "--database",
      "app.sqlite3",
      "--to",
      "20151219180527"
    )
    #expect(back.exitCode == 0, "\(back.standardError)")
    #expect(try userTables(project) == ["users"])
    let all = try project.strata("rollback", "--database", "app.sqlite3", "--to", "0")
    #expect(all.exitCode == 0, "\(all.standardError)")
    #expect(try userTables(project).isEmpty)
    let again = try project.strata("migrate", "--database", "app.sqlite3", "--to", "20151219180527")
    #expect(again.exitCode == 0, "\(again.standardError)")
    #expect(try userTables(project) == ["users"])
    let rest = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(rest.exitCode == 0, "\(rest.standardError)")
    #expect(try userTables(project) == ["posts", "users"])
  }

  @Test func aVersionNoFolderHasIsRefusedAndAnEmptyOneIsAUsageError() throws {
    let project = try Project(Self.files)
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let unknown = try project.strata("rollback", "--database", "app.sqlite3", "--to", "2015")
    #expect(unknown.exitCode == 1)
    #expect(try userTables(project) == ["posts", "users"])
    let empty = try project.strata("rollback", "--database", "app.sqlite3", "--to", "--")
    #expect(empty.exitCode == 64, "\(empty.standardError)")
    #expect(empty.standardError.contains("--to takes a version as diesel writes it"))
  }

  @Test func newCreatesADieselFolder() throws {
    let project = try Project(Self.files)
    let result = try project.strata("new", "add_tags")
    #expect(result.exitCode == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("Created migrations/") && lines[0].hasSuffix("_add_tags/up.sql"))
    #expect(lines[1].hasSuffix("_add_tags/down.sql"))
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1)
    #expect(
      migrate.standardError.contains("_add_tags/up.sql:2: the up part is still the empty template")
    )
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func migrationFormatDieselOnAFolderOfFilesIsRefused() throws {
    let project = try Project(["0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n"])
    let result = try project.strata(
      "migrate",
      "--database",
      "app.sqlite3",
      "--migration-format",
      "diesel"
    )
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "migrations/0001_a.sql:1: diesel reads one folder per migration"
      )
    )
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func aMixedFolderIsRefusedNamingOneOfEach() throws {
    var files = Self.files
    files["0003_c.sql"] = "-- migrate:up\nCREATE TABLE c (x);\n"
    let project = try Project(files)
    let result = try project.strata("status", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "migrations/2015-12-19-180527_create_users/up.sql is diesel and migrations/0003_c.sql is "
          + "dbmate"
      ),
      "\(result.standardError)"
    )
  }
}
