import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Each rule of `MigrationLinter` on `0002_change.sql` (statements from line 2), its down part
/// never linted, and the classic traps.
@Suite struct MigrationLinterTests {
  @Test func theBaseMigrationAloneHasNoFindings() throws {
    let fixture = try LintFixture(up: "SELECT 1;")
    let result = try fixture.lint()
    #expect(result.findings == [])
    #expect(result.pendingMigrations == 2)
    #expect(result.stoppedAt == nil)
  }

  @Test func dropTableIsFoundWithFileLineAndRule() throws {
    let fixture = try LintFixture(up: "SELECT 1;\nDROP TABLE pet;")
    let finding = try #require(try fixture.lint().findings.first)
    #expect(finding.file == "migrations/0002_change.sql")
    #expect(finding.line == 3)
    #expect(finding.rule == .dropTable)
    #expect(finding.message == "drops table pet and its rows")
    #expect(finding.help == LintRule.dropTable.help)
  }

  @Test func aDownPartIsNeverLinted() throws {
    // The base's down part drops both tables; this one replaces and vacuums.
    let fixture = try LintFixture(
      up: "SELECT 1;",
      down: "INSERT OR REPLACE INTO person VALUES (1, 'a');\nVACUUM;"
    )
    #expect(try fixture.found() == [])
  }

  @Test func anAppliedMigrationIsNotLinted() throws {
    let fixture = try LintFixture(up: "DROP TABLE pet;")
    let db = try fixture.migrations.open()
    try fixture.migrations.migrator().migrate(db)
    try fixture.migrations.write("0003_more.sql", "-- migrate:up\nDROP TABLE person;\n")
    let result = try MigrationLinter(fixture.set()).lint(db)
    #expect(result.pendingMigrations == 1)
    #expect(
      result.findings.map(\.description) == [
        "migrations/0003_more.sql:2: drop-table: drops table person and its rows"
      ]
    )
  }

  @Test func dropColumnIsFoundButARenamedColumnIsNot() throws {
    #expect(
      try LintFixture(up: "ALTER TABLE person DROP COLUMN name;").found() == [
        "0002_change.sql:2 drop-column"
      ]
    )
    #expect(try LintFixture(up: "ALTER TABLE person RENAME COLUMN name TO full;").found() == [])
  }

  @Test func notNullWithoutDefaultByAddColumn() throws {
    let fixture = try LintFixture(
      up: "ALTER TABLE person ADD COLUMN email TEXT NOT NULL;\n"
        + "ALTER TABLE person ADD COLUMN nick TEXT NOT NULL DEFAULT '';\n"
        + "ALTER TABLE person ADD COLUMN note TEXT NOT NULL DEFAULT NULL;"
    )
    #expect(
      try fixture.found() == [
        "0002_change.sql:2 not-null-without-default", "0002_change.sql:4 not-null-without-default",
      ]
    )
  }

  @Test func notNullWithoutDefaultByARebuildButNoDropOfTheRebuiltTable() throws {
    let fixture = try LintFixture(
      up: """
        CREATE TABLE person_new (id INTEGER PRIMARY KEY, name TEXT, age INTEGER NOT NULL);
        INSERT INTO person_new (id, name, age) SELECT id, name, 0 FROM person;
        DROP TABLE person;
        ALTER TABLE person_new RENAME TO person;
        """
    )
    // In strata's transaction foreign keys are handled, so the rebuild itself is fine.
    #expect(try fixture.found() == ["0002_change.sql:2 not-null-without-default"])
  }

  @Test func cascadeParentRebuiltByDropAndRenameOutsideTheTransaction() throws {
    let fixture = try LintFixture(
      up: """
        CREATE TABLE person_new (id INTEGER PRIMARY KEY, name TEXT);
        INSERT INTO person_new SELECT * FROM person;
        DROP TABLE person;
        ALTER TABLE person_new RENAME TO person;
        """,
      upMarker: "-- migrate:up transaction:false"
    )
    let findings = try fixture.lint().findings
    #expect(findings.map(\.rule) == [.rebuildReferencedTable])
    #expect(findings.first?.line == 4)
    #expect(findings.first?.message.contains("which the foreign keys of pet reference") == true)
  }

  @Test func aDropOfAReferencedTableAfterThePartTurnedForeignKeysOnSaysItCascades() throws {
    let outside = try LintFixture(
      up: "PRAGMA foreign_keys = ON;\nDROP TABLE person;",
      upMarker: "-- migrate:up transaction:false"
    )
    let findings = try outside.lint().findings
    #expect(findings.map(\.rule) == [.dropTable, .rebuildReferencedTable])
    #expect(findings.last?.message.contains("turned foreign keys on") == true)
    // Inside strata's transaction the pragma is a no-op: foreign keys stay off.
    let inside = try LintFixture(up: "PRAGMA foreign_keys = ON;\nDROP TABLE person;")
    #expect(try inside.found() == ["0002_change.sql:3 drop-table"])
  }

  @Test func beginAndCommitInAPartStrataWrapsInItsTransaction() throws {
    let fixture = try LintFixture(up: "BEGIN;\nCREATE TABLE x (a);\nCOMMIT;")
    let findings = try fixture.lint().findings
    #expect(
      findings.map { "\($0.line) \($0.rule.rawValue)" } == [
        "2 needs-no-transaction", "4 needs-no-transaction",
      ]
    )
    #expect(
      findings.first?.message == "BEGIN would end or nest the transaction strata runs this part in"
    )
  }

  @Test func renamingTheReferencedTableAwayAndRecreatingItIsARebuildBug() throws {
    let fixture = try LintFixture(
      up: """
        ALTER TABLE person RENAME TO person_old;
        CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
        INSERT INTO person SELECT * FROM person_old;
        DROP TABLE person_old;
        """
    )
    #expect(try fixture.found() == ["0002_change.sql:2 rebuild-referenced-table"])
  }

  @Test func insertOrReplaceIntoATableWithCascadingChildren() throws {
    let fixture = try LintFixture(
      up: """
        INSERT OR REPLACE INTO person (id, name) VALUES (1, 'a');
        REPLACE INTO person (id, name) VALUES (2, 'b');
        WITH n(x) AS (SELECT 3) REPLACE INTO person (id, name) SELECT x, 'c' FROM n;
        INSERT /* OR REPLACE */ INTO person (id, name) VALUES (4, 'or replace');
        INSERT INTO person (id, name) VALUES (1, 'd')
          ON CONFLICT (id) DO UPDATE SET name = replace(excluded.name, 'd', 'e');
        """
    )
    #expect(
      try fixture.found() == [
        "0002_change.sql:2 insert-or-replace", "0002_change.sql:3 insert-or-replace",
        "0002_change.sql:4 insert-or-replace",
      ]
    )
  }

  @Test func dataChangeBesideASchemaChange() throws {
    let fixture = try LintFixture(
      up: """
        ALTER TABLE person ADD COLUMN email TEXT;
        UPDATE person SET email = name;
        CREATE TABLE tag (name TEXT);
        INSERT INTO tag VALUES ('new table: not flagged');
        DELETE FROM pet;
        """
    )
    #expect(
      try fixture.found() == [
        "0002_change.sql:3 data-with-schema-change", "0002_change.sql:6 data-with-schema-change",
      ]
    )
    // The same data change alone is fine, and so is one beside a new index.
    #expect(try LintFixture(up: "UPDATE person SET name = 'x';").found() == [])
    let indexed = try LintFixture(up: "CREATE INDEX person_name ON person(name);\nDELETE FROM pet;")
    #expect(try indexed.found() == [])
    let temporary = try LintFixture(
      up: "CREATE TEMP TABLE ids (x);\nINSERT INTO ids VALUES (1);\n"
        + "ALTER TABLE person ADD COLUMN email TEXT;"
    )
    #expect(try temporary.found() == [])
  }

  @Test func foreignKeyWithoutAnIndex() throws {
    let fixture = try LintFixture(
      up: """
        CREATE TABLE toy (id INTEGER PRIMARY KEY, pet INTEGER REFERENCES pet(id));
        CREATE TABLE vet (pet INTEGER REFERENCES pet(id), day TEXT, PRIMARY KEY (pet, day));
        CREATE TABLE bowl (id INTEGER PRIMARY KEY, pet INTEGER REFERENCES pet(id));
        CREATE INDEX bowl_pet ON bowl(pet);
        CREATE TABLE collar (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER,
          FOREIGN KEY (b, a) REFERENCES pair(x, y));
        CREATE INDEX collar_ab ON collar(a, b);
        """
    )
    let findings = try fixture.lint().findings
    #expect(
      findings.map { "\($0.line) \($0.rule.rawValue)" } == [
        "2 unindexed-foreign-key", "6 unindexed-foreign-key",
      ]
    )
    #expect(findings.first?.message.contains("toy(pet)") == true)
  }

  /// A foreign key the schema had before the migration is not the migration's to index, also
  /// when a rename rewrote it (`strata diff --rename` writes them): renaming its parent, its
  /// table or its column. One the same migration adds is still flagged.
  @Test func aRenamedForeignKeyIsNotAnAddedOne() throws {
    let fixture = try MigrationFixture([
      "0001_init.sql": """
      -- migrate:up
      CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
      -- strata:allow unindexed-foreign-key
      CREATE TABLE kid (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES person(id));
      -- migrate:down
      DROP TABLE kid;

      """,
      "0002_rename.sql": """
      -- migrate:up
      ALTER TABLE "person" RENAME TO "people";
      ALTER TABLE kid RENAME COLUMN pid TO parent;
      ALTER TABLE kid RENAME TO child;
      ALTER TABLE child ADD COLUMN friend INTEGER REFERENCES people(id);
      CREATE TABLE new_people (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
      INSERT INTO new_people SELECT id, coalesce(name, '') FROM people;
      DROP TABLE people;
      ALTER TABLE new_people RENAME TO people;
      -- migrate:down
      SELECT 1;

      """,
    ])
    let migrations = try MigrationSet(
      directory: fixture.dir.path("migrations"),
      displayPath: "migrations"
    )
    let findings = try MigrationLinter(migrations).lint(nil).findings
    #expect(
      findings.map { "\($0.file.split(separator: "/").last ?? ""):\($0.line) \($0.rule.rawValue)" }
        == ["0002_rename.sql:5 unindexed-foreign-key"]
    )
    #expect(findings.first?.message.contains("child(friend)") == true)
  }

  @Test func vacuumAndJournalModeInATransactionalPart() throws {
    let fixture = try LintFixture(up: "VACUUM;\nPRAGMA journal_mode = WAL;\nPRAGMA journal_mode;")
    #expect(
      try fixture.found() == [
        "0002_change.sql:2 needs-no-transaction", "0002_change.sql:3 needs-no-transaction",
      ]
    )
    let outside = try LintFixture(up: "VACUUM;", upMarker: "-- migrate:up transaction:false")
    #expect(try outside.found() == [])
  }

  @Test func aFailingStatementStopsTheReplayAndKeepsWhatWasFound() throws {
    let fixture = try LintFixture(up: "DROP TABLE pet;\nSELEC 1;\nDROP TABLE person;")
    let result = try fixture.lint()
    #expect(result.findings.map(\.line) == [2])
    let stop = try #require(result.stoppedAt)
    #expect(stop.file == "migrations/0002_change.sql")
    #expect(stop.line == 3)
    #expect(stop.reason.contains("syntax error"))
  }
}
