import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 11, Flyway, through the real `strata`: a folder written from Flyway's documentation
/// migrated, listed, validated, rolled back with its undo files and migrated again; repeatable
/// migrations shown and re-applied; what strata refuses, with file, line and exit code.
@Suite struct FlywayCommandTests {
  static let folder: [String: String] = [
    "V1__Create_person_table.sql":
      "create table PERSON (\n    ID int not null,\n    NAME varchar(100) not null\n);\n",
    "U1__Create_person_table.sql": "drop table PERSON;\n",
    "V1.1__Add_people.sql": "insert into PERSON (ID, NAME) values (1, 'Axel');\n",
    "U1.1__Add_people.sql": "delete from PERSON where ID = 1;\n",
    "V2_1__Add_city.sql": "alter table PERSON add column CITY varchar(100);\n",
    "U2_1__Add_city.sql": "alter table PERSON drop column CITY;\n",
    "R__People_view.sql":
      "drop view if exists PEOPLE;\ncreate view PEOPLE as select NAME from PERSON;\n",
  ]

  private func userTables(_ project: Project) throws -> [String] {
    try DatabaseProbe.tables(project.database).filter { !$0.hasPrefix("strata_") }
  }

  @Test func flywayFolderMigratesRollsBackAndMigratesAgain() throws {
    let project = try Project(Self.folder)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    let lines = migrate.standardOutput.split(separator: "\n").map { $0.prefix { $0 != "(" } }
    #expect(
      lines.prefix(4).map { $0.trimmingCharacters(in: .whitespaces) } == [
        "Applied migrations/V1__Create_person_table.sql",
        "Applied migrations/V1.1__Add_people.sql",
        "Applied migrations/V2_1__Add_city.sql",
        "Applied migrations/R__People_view.sql",
      ]
    )
    #expect(migrate.standardOutput.contains("app.sqlite3 is now at version 2.1."))
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM PEOPLE") == 1)
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.exitCode == 0, "\(status.standardError)")
    #expect(status.standardOutput.contains("Format:     flyway ("), "\(status.standardOutput)")
    #expect(status.standardOutput.contains("2.1 "), "\(status.standardOutput)")
    #expect(status.standardOutput.contains("R__People_view.sql"), "\(status.standardOutput)")
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 0, "\(validate.standardError)\(validate.standardOutput)")
    let drift = try project.strata("inspect", "--database", "app.sqlite3", "--diff")
    #expect(drift.exitCode == 0, "\(drift.standardError)\(drift.standardOutput)")
    let rollback = try project.strata("rollback", "--database", "app.sqlite3", "--to", "1")
    #expect(rollback.exitCode == 0, "\(rollback.standardError)")
    #expect(rollback.standardOutput.contains("Rolled back migrations/U2_1__Add_city.sql"))
    #expect(rollback.standardOutput.contains("Rolled back migrations/U1.1__Add_people.sql"))
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM PERSON") == 0)
    let dryRun = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(dryRun.exitCode == 0, "\(dryRun.standardError)")
    #expect(dryRun.standardOutput.contains("Would apply migrations/V1.1__Add_people.sql:"))
    let again = try project.strata("migrate", "--database", "app.sqlite3", "--to", "2_1")
    #expect(again.exitCode == 0, "\(again.standardError)")
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM PEOPLE") == 1)
    #expect(try userTables(project) == ["PERSON"])
  }

  /// The template is built by `migrate`, so it holds the repeatable migration's view and its
  /// history row.
  @Test func templateHoldsTheRepeatableMigration() throws {
    let project = try Project(Self.folder)
    let result = try project.strata("template", "--output", "template.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    let template = project.dir.path("template.sqlite3")
    #expect(try DatabaseProbe.integer(template, "SELECT count(*) FROM PEOPLE") == 1)
    #expect(
      try DatabaseProbe.integer(
        template,
        "SELECT count(*) FROM strata_migrations WHERE kind = 'repeatable' AND name = 'People_view'"
      ) == 1
    )
  }

  @Test func changedRepeatableIsShownAndAppliedAgain() throws {
    let project = try Project(Self.folder)
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    try project.write(
      "R__People_view.sql",
      "drop view if exists PEOPLE;\ncreate view PEOPLE as select NAME, CITY from PERSON;\n"
    )
    let check = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(check.exitCode == 1)
    #expect(check.standardOutput.contains("People_view"), "\(check.standardOutput)")
    #expect(check.standardOutput.contains("changed"), "\(check.standardOutput)")
    let json = try project.strata("status", "--database", "app.sqlite3", "--format", "json")
    #expect(json.standardOutput.contains("\"repeatables\""), "\(json.standardOutput)")
    #expect(json.standardOutput.contains("\"state\" : \"changed\""), "\(json.standardOutput)")
    // The database holds what the old text made: not drift, but not comparable until migrate.
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 0, "\(validate.standardError)\(validate.standardOutput)")
    #expect(!validate.standardError.contains("drift"), "\(validate.standardError)")
    #expect(
      validate.standardError.contains(
        "migrations/R__People_view.sql changed since it was applied, and the next migration run "
          + "applies it again"
      ),
      "\(validate.standardError)"
    )
    let diff = try project.strata("inspect", "--database", "app.sqlite3", "--diff")
    #expect(diff.exitCode == 1)
    #expect(
      diff.standardOutput.hasPrefix(
        "Not compared: migrations/R__People_view.sql changed since it was applied"
      ),
      "\(diff.standardOutput)"
    )
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(migrate.standardOutput.contains("Applied migrations/R__People_view.sql"))
    #expect(
      try DatabaseProbe.integer(
        project.database,
        "SELECT count(*) FROM pragma_table_info('PEOPLE')"
      )
        == 2
    )
    #expect(try project.strata("status", "--database", "app.sqlite3", "--check").exitCode == 0)
    let after = try project.strata("inspect", "--database", "app.sqlite3", "--diff")
    #expect(after.exitCode == 0, "\(after.standardOutput)")
  }

  @Test func placeholderAndRefusedSettingStopEverything() throws {
    let project = try Project([
      "V1__a.sql": "create table t (x);\n",
      "V2__b.sql": "create table u (x);\ninsert into u values ('${owner}');\n",
    ])
    let refused = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(refused.exitCode == 1)
    #expect(
      refused.standardError.contains(
        "migrations/V2__b.sql:2: '${owner}' is a Flyway placeholder"
      ),
      "\(refused.standardError)"
    )
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
    try project.write("flyway.conf", "flyway.placeholderReplacement=false\n")
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    #expect(
      try DatabaseProbe.rows(project.database, "SELECT x FROM u")[0][0].textValue == "${owner}"
    )
    try project.dir.write("flyway.toml", "[flyway]\ninitSql = \"PRAGMA foreign_keys = OFF\"\n")
    try FileManager.default.removeItem(at: project.dir.path("migrations/flyway.conf"))
    let setting = try project.strata("status", "--database", "app.sqlite3")
    #expect(setting.exitCode == 1)
    #expect(
      setting.standardError.contains("flyway.toml:2: Flyway's 'initSql' setting"),
      "\(setting.standardError)"
    )
  }

  @Test func formatOptionAndNewWriteFlywayFiles() throws {
    let project = try Project(["V1__a.sql": "create table t (x);\n"])
    let named = try project.strata(
      "migrate",
      "--database",
      "app.sqlite3",
      "--migration-format",
      "flyway"
    )
    #expect(named.exitCode == 0, "\(named.standardError)")
    let new = try project.strata("new", "add users")
    #expect(new.exitCode == 0, "\(new.standardError)")
    #expect(new.standardOutput == "Created migrations/V2__add_users.sql\n")
    let unwritten = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(unwritten.exitCode == 1)
    #expect(unwritten.standardError.contains("migrations/V2__add_users.sql"))
    #expect(unwritten.standardError.contains("Help: Write the migration's SQL in the file"))
    try project.write("V2__add_users.sql", "create table users (x);\n")
    let irreversible = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(irreversible.exitCode == 1)
    #expect(
      irreversible.standardError.contains(
        "Help: Write Flyway's undo file for it (U1__<description>.sql beside it)"
      ),
      "\(irreversible.standardError)"
    )
    let mixed = try Project(["V1__a.sql": "select 1;\n", "0002_b.sql": "select 2;\n"])
    let refused = try mixed.strata("migrate", "--database", "app.sqlite3")
    #expect(refused.exitCode == 1)
    #expect(
      refused.standardError.contains("migrations/V1__a.sql is flyway and migrations/0002_b.sql"),
      "\(refused.standardError)"
    )
  }
}
