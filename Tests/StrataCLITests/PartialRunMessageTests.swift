import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 10, items 15 and 17: after partial work a message says exactly what was done.
@Suite struct PartialRunMessageTests {
  @Test func rollbackThatStopsAtItsSecondStepNamesTheFirst() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
      "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLEE b;\n",
      "0003_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n",
    ])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let rollback = try project.strata("rollback", "--database", "app.sqlite3", "--steps", "2")
    #expect(rollback.exitCode == 1)
    let error = rollback.standardError
    #expect(error.contains("rollback migrations/0002_b.sql:4 failed"), "\(error)")
    #expect(error.contains("version 2 was not rolled back"), "\(error)")
    #expect(error.contains("the database is at version 2"), "\(error)")
    #expect(
      error.contains(
        "this run rolled back migrations/0003_c.sql (version 3), which stays rolled back"
      ),
      "\(error)"
    )
    #expect(!error.contains("nothing was changed"), "\(error)")
    #expect(try project.versions() == [1, 2])
    #expect(try DatabaseProbe.tables(project.database) == ["a", "b", "strata_migrations"])
  }

  @Test func migrateThatStopsAtItsSecondStepNamesTheFirst() throws {
    let project = try Project([
      "0001_a.sql": "CREATE TABLE a (x);\n",
      "0002_b.sql": "CREATE TABLEE b (x);\n",
    ])
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1)
    let error = migrate.standardError
    #expect(error.contains("migration migrations/0002_b.sql:1 failed"), "\(error)")
    #expect(error.contains("nothing from 2 was applied; the database is at version 1"), "\(error)")
    #expect(
      error.contains("this run applied migrations/0001_a.sql (version 1), which stays applied"),
      "\(error)"
    )
    #expect(try project.versions() == [1])
  }

  @Test func preexistingOrphanDoesNotFailAnUnrelatedMigration() throws {
    let project = try Project([
      "0001_schema.sql": """
      CREATE TABLE team (id INTEGER PRIMARY KEY);
      CREATE TABLE person (id INTEGER PRIMARY KEY, team_id INTEGER REFERENCES team (id));
      """,
      "0002_add_index.sql": "CREATE INDEX person_team ON person (team_id);",
    ])
    #expect(try project.strata("migrate", "--database", "app.sqlite3", "--to", "1").exitCode == 0)
    let connection = try Connection(path: project.database.path)
    try connection.execute("PRAGMA foreign_keys = OFF")
    try connection.execute("INSERT INTO person VALUES (7, 99)")
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(
      migrate.standardOutput.contains(
        "Note: the database already had 1 foreign key violation(s) before this run"
      ),
      "\(migrate.standardOutput)"
    )
    #expect(try project.versions() == [1, 2])
  }
}
