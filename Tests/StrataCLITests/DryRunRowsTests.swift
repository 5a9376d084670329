import Foundation
import Strata
import StrataTestSupport
import Testing

/// `migrate --dry-run` and `validate --rows` run the pending migrations on the database's own
/// rows, in a transaction that is always rolled back: a migration the rows make fail is found
/// (file:line, exit 1) and the database's files stay byte for byte as they were. Plain
/// `validate` says that it did not try the rows.
@Suite struct DryRunRowsTests {
  static let createTable =
    "-- migrate:up\nCREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT);\n"
    + "-- migrate:down\nDROP TABLE person;\n"
  static let uniqueIndex =
    "-- migrate:up\n-- one address per person\nCREATE UNIQUE INDEX person_email ON person(email);\n"
    + "-- migrate:down\nDROP INDEX person_email;\n"

  /// A project at version 1 whose `person` holds `emails`, with `pending` as migration 0002.
  static func project(
    emails: [String],
    pending: String,
    walMode: Bool = false
  ) throws -> Project {
    let project = try Project(["0001_person.sql": createTable, "0002_next.sql": pending])
    let migrate = try project.strata("migrate", "--database", "app.sqlite3", "--to", "1")
    try #require(migrate.exitCode == 0, "\(migrate.standardError)")
    let connection = try Connection(path: project.database.path)
    if walMode { try connection.execute("PRAGMA journal_mode = WAL") }
    for email in emails {
      try connection.execute("INSERT INTO person (email) VALUES ('\(email)')")
    }
    return project
  }

  /// Every file of the database (itself and any `-journal`, `-wal`, `-shm` beside it), byte for
  /// byte, by name.
  static func files(_ project: Project) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: project.dir.url.path)
    where name.hasPrefix("app.sqlite3") {
      result[name] = try Data(contentsOf: project.dir.path(name))
    }
    return result
  }

  @Test func dryRunFindsAUniqueIndexOverDuplicatesAndChangesNothing() throws {
    let project = try Self.project(emails: ["a@x", "a@x"], pending: Self.uniqueIndex)
    let before = try Self.files(project)
    #expect(before.keys.sorted() == ["app.sqlite3"])
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(
      result.standardError.contains("migration migrations/0002_next.sql:3 failed"),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("UNIQUE constraint failed: person.email"))
    #expect(result.standardError.contains("this was a dry run"))
    #expect(result.standardError.contains("nothing was changed"))
    #expect(!result.standardOutput.contains("would be at version 2"))
    #expect(try Self.files(project) == before)
    #expect(try project.versions() == [1])
  }

  @Test func validateSaysItDidNotTryTheRowsAndRowsFindsTheFailure() throws {
    let project = try Self.project(emails: ["a@x", "a@x"], pending: Self.uniqueIndex)
    let before = try Self.files(project)
    let plain = try project.strata("validate", "--database", "app.sqlite3")
    #expect(plain.exitCode == 0, "\(plain.standardError)")
    #expect(
      plain.standardOutput
        == "OK: 2 migrations in migrations are valid; the history and schema of app.sqlite3 "
        + "agree with them; 1 pending migration ran in the replay only, not on the rows of "
        + "app.sqlite3 (--rows tries them there).\n"
    )
    let rows = try project.strata("validate", "--database", "app.sqlite3", "--rows")
    #expect(rows.exitCode == 1, "\(rows.standardOutput)")
    #expect(
      rows.standardError.contains(
        "Error: app.sqlite3: migration migrations/0002_next.sql:3 failed"
      ),
      "\(rows.standardError)"
    )
    #expect(rows.standardError.contains("UNIQUE constraint failed: person.email"))
    #expect(rows.standardError.contains("Help: The rows this migration meets break it"))
    #expect(rows.standardOutput.isEmpty)
    #expect(try Self.files(project) == before)
  }

  @Test func aDryRunThatPassesThenReallyMigrates() throws {
    let project = try Self.project(emails: ["a@x", "b@x"], pending: Self.uniqueIndex)
    let before = try Self.files(project)
    let dry = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(dry.exitCode == 0, "\(dry.standardError)")
    #expect(
      dry.standardOutput.hasSuffix(
        "Dry run: app.sqlite3 is at version 1 and would be at version 2; tried 1 migration on "
          + "its rows in a transaction that was rolled back; nothing was changed.\n"
      ),
      "\(dry.standardOutput)"
    )
    // The history, the schema and every byte are as they were.
    #expect(try Self.files(project) == before)
    let validate = try project.strata("validate", "--database", "app.sqlite3", "--rows")
    #expect(validate.exitCode == 0, "\(validate.standardError)")
    #expect(
      validate.standardOutput.contains(
        "1 pending migration tried on its rows in a transaction that was rolled back."
      ),
      "\(validate.standardOutput)"
    )
    #expect(try Self.files(project) == before)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try project.versions() == [1, 2])
    #expect(try DatabaseProbe.rows(project.database, "PRAGMA index_list(person)").count == 1)
  }

  @Test func aNotNullColumnWithoutDefaultOverExistingRowsFails() throws {
    let project = try Self.project(
      emails: ["a@x"],
      pending: "-- migrate:up\nALTER TABLE person ADD COLUMN age INTEGER NOT NULL;\n"
    )
    let before = try Self.files(project)
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("migration migrations/0002_next.sql:2 failed"),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("Cannot add a NOT NULL column with default value NULL"))
    #expect(try Self.files(project) == before)
  }

  @Test func aPartThatCannotRunInATransactionIsNotTried() throws {
    let project = try Self.project(
      emails: ["a@x"],
      pending: "-- migrate:up transaction:false\nVACUUM;\n"
    )
    try project.write("0003_more.sql", "-- migrate:up\nCREATE TABLE more (x);\n")
    let before = try Self.files(project)
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "Warning: migrations/0002_next.sql:2: not tried: the part is marked transaction:false, "
          + "so it cannot run inside the dry run's transaction"
      ),
      "\(result.standardError)"
    )
    #expect(
      result.standardOutput.hasSuffix(
        "would be at version 3; tried 1 migration on its rows in a transaction that was rolled "
          + "back, 1 part not tried (warnings above); nothing was changed.\n"
      ),
      "\(result.standardOutput)"
    )
    #expect(try Self.files(project) == before)
  }

  @Test func aForeignKeyViolationThePendingMigrationAddsIsFound() throws {
    let project = try Self.project(
      emails: ["a@x"],
      pending: """
        -- migrate:up
        CREATE TABLE pet (id INTEGER PRIMARY KEY, owner INTEGER);
        INSERT INTO pet (owner) VALUES (99);
        CREATE TABLE pet_new (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES person(id));
        INSERT INTO pet_new SELECT * FROM pet;
        DROP TABLE pet;
        ALTER TABLE pet_new RENAME TO pet;

        """
    )
    let before = try Self.files(project)
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(
      result.standardError.contains(
        "migration migrations/0002_next.sql leaves 1 new foreign key violation(s)"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("this was a dry run"))
    #expect(try Self.files(project) == before)
  }

  @Test(arguments: [false, true])
  func aDryRunLeavesAWALDatabaseAsItWas(_ failing: Bool) throws {
    let project = try Self.project(
      emails: failing ? ["a@x", "a@x"] : ["a@x", "b@x"],
      pending: Self.uniqueIndex,
      walMode: true
    )
    let before = try Self.files(project)
    #expect(before.keys.sorted() == ["app.sqlite3"])
    let result = try project.strata("migrate", "--database", "app.sqlite3", "--dry-run")
    #expect(result.exitCode == (failing ? 1 : 0), "\(result.standardError)")
    #expect(try Self.files(project) == before)
    #expect(
      try DatabaseProbe.rows(project.database, "PRAGMA journal_mode").first?.first?.textValue
        == "wal"
    )
  }
}
