import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// What `ALTER TABLE` can do is done with it; what would lose data or guess is refused.
@Suite struct SchemaDiffTests {
  static let person = "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"

  @Test func aNewColumnAtTheEndIsAddedWithAlterTable() throws {
    let desired = "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT);"
    let migration = try DiffFixtures.migration(from: Self.person, to: desired)
    #expect(migration.up == "ALTER TABLE \"person\" ADD COLUMN email TEXT;\n")
    #expect(
      migration.down
        == "-- Destructive: drops column person.email and its values.\n"
        + "-- strata:allow drop-column\nALTER TABLE \"person\" DROP COLUMN \"email\";\n"
    )
    #expect(migration.changes == ["add column person.email"])
    #expect(migration.destructiveChanges == [])
    #expect(migration.sampledTableCount == 1 && migration.tableCount == 1)
  }

  @Test func aNewColumnBetweenOthersRebuildsTheTable() throws {
    let desired = "CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT, name TEXT NOT NULL);"
    let migration = try DiffFixtures.migration(from: Self.person, to: desired)
    #expect(
      migration.changes == ["rebuild table person (the new column email goes before existing ones)"]
    )
  }

  @Test func droppingAColumnIsRefusedUnlessAllowed() throws {
    let desired = "CREATE TABLE person (id INTEGER PRIMARY KEY);"
    #expect {
      try DiffFixtures.migration(from: Self.person, to: desired)
    } throws: { error in
      guard let error = error as? DiffError, case .destructive(let changes, let renames) = error
      else { return false }
      return changes == ["drops column person.name"] && renames.isEmpty
        && error.message == "the migration would lose data: drops column person.name. "
          + "Nothing was generated."
        && error.help
          == "To lose that data on purpose, allow destructive changes "
          + "(SchemaDiffOptions.allowsDestructive)."
    }
    let migration = try DiffFixtures.migration(
      from: Self.person,
      to: desired,
      options: SchemaDiffOptions(allowsDestructive: true)
    )
    #expect(migration.up.hasSuffix("ALTER TABLE \"person\" DROP COLUMN \"name\";\n"))
    #expect(migration.up.contains("-- Destructive: drops column person.name and its values."))
    #expect(migration.destructiveChanges == ["drops column person.name"])
    // The column was NOT NULL without a DEFAULT: its values cannot come back.
    #expect(migration.down == nil)
    #expect(migration.irreversibleReason?.contains("person.name it drops is NOT NULL") == true)
  }

  /// A column that disappears while another appears may be a rename: never guessed.
  @Test func aColumnThatDisappearsWhileAnotherAppearsNeedsARename() throws {
    let desired =
      "CREATE TABLE person (id INTEGER PRIMARY KEY, full_name TEXT NOT NULL DEFAULT '');"
    #expect {
      try DiffFixtures.migration(from: Self.person, to: desired)
    } throws: { error in
      guard let error = error as? DiffError, case .destructive(_, let renames) = error else {
        return false
      }
      return renames == [SchemaRename(table: "person", column: "name", to: "full_name")]
        && error.help.hasPrefix(
          "If it was renamed, say so (SchemaDiffOptions.renames: person.name=full_name)"
        )
    }
    let migration = try DiffFixtures.migration(
      from: Self.person,
      to: desired.replacingOccurrences(of: " DEFAULT ''", with: ""),
      options: SchemaDiffOptions(renames: [try SchemaRename(parsing: "person.name=full_name")])
    )
    #expect(migration.up == "ALTER TABLE \"person\" RENAME COLUMN \"name\" TO \"full_name\";\n")
    #expect(migration.down == "ALTER TABLE \"person\" RENAME COLUMN \"full_name\" TO \"name\";\n")
  }

  @Test func aRenamedTableKeepsItsRowsAndItsChildren() throws {
    let current = """
      CREATE TABLE owner (id INTEGER PRIMARY KEY);
      CREATE TABLE pet (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owner (id));
      """
    let desired = """
      CREATE TABLE person (id INTEGER PRIMARY KEY);
      CREATE TABLE pet (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES person (id));
      """
    #expect {
      try DiffFixtures.migration(from: current, to: desired)
    } throws: { error in
      guard case .destructive(let changes, let renames) = error as? DiffError else { return false }
      return changes == ["drops table owner"]
        && renames == [SchemaRename(table: "owner", to: "person")]
    }
    let migration = try DiffFixtures.migration(
      from: current,
      to: desired,
      options: SchemaDiffOptions(renames: [SchemaRename(table: "owner", to: "person")])
    )
    #expect(migration.up == "ALTER TABLE \"owner\" RENAME TO \"person\";\n")
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO owner VALUES (1); INSERT INTO pet VALUES (5, 1);"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
    #expect(try DiffFixtures.rows(database, "SELECT * FROM pet") == [["5", "1"]])
  }

  @Test func aNewNotNullColumnWithoutADefaultAsksForOne() throws {
    let desired = """
      CREATE TABLE person (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
      """
    #expect {
      try DiffFixtures.migration(from: Self.person, to: "\n" + desired)
    } throws: { error in
      (error as? DiffError)?.message
        == "desired.sql:2: the new column person.email is NOT NULL without a DEFAULT, so the "
        + "rows person already has would have no value for it. Nothing was generated."
    }
  }

  @Test func theSameSchemaNeedsNoMigration() throws {
    let migration = try DiffFixtures.migration(
      from: Self.person,
      to:
        "-- the same, written otherwise\ncreate table PERSON (ID integer primary key, NAME text not null)"
    )
    #expect(migration.isEmpty)
    #expect(migration.up == "")
  }

  @Test func anIndexChangeLeavesTheTableAlone() throws {
    let current = Self.person + "CREATE INDEX person_name ON person (name);"
    let desired = Self.person + "CREATE INDEX person_name ON person (name DESC);"
    let migration = try DiffFixtures.migration(from: current, to: desired)
    #expect(
      migration.up
        == "DROP INDEX \"person_name\";\n\nCREATE INDEX person_name ON person (name DESC);\n"
    )
  }

  /// Before SQLite 3.35 there is no DROP COLUMN: the table is rebuilt.
  @Test func anOlderSQLiteGetsARebuild() throws {
    let desired = "CREATE TABLE person (id INTEGER PRIMARY KEY);"
    let migration = try DiffFixtures.migration(
      from: Self.person,
      to: desired,
      options: SchemaDiffOptions(allowsDestructive: true, oldestSQLite: 3_031_000)
    )
    #expect(migration.up.contains("CREATE TABLE \"new_person\" (id INTEGER PRIMARY KEY);"))
    #expect(
      migration.up.hasPrefix(
        "-- Rebuild person: the column name is dropped, and DROP COLUMN needs SQLite 3.35."
      )
    )
    #expect(!migration.up.contains("ALTER TABLE \"person\" DROP COLUMN"))
  }

  /// A migration that fails its check on the scratch copy is never returned.
  @Test func aMigrationThatFailsItsCheckIsNotReturned() throws {
    let current = "CREATE TABLE reading (id INTEGER PRIMARY KEY, value INTEGER);"
    let desired = "CREATE TABLE reading (id INTEGER PRIMARY KEY, value INTEGER CHECK (value > 5));"
    #expect {
      try DiffFixtures.migration(from: current, to: desired)
    } throws: { error in
      guard case .verificationFailed(let reason) = error as? DiffError else { return false }
      return reason.contains("CHECK constraint failed")
    }
  }

  @Test(arguments: [
    ("CREATE TABLE a (x);\nINSERT INTO a VALUES (1);", 2, "is not a CREATE statement"),
    ("CREATE TEMP TABLE a (x);", 1, "creates a temporary object"),
    ("\n\nCREATE TABLE strata_migrations (x);", 3, "one of strata's own tables"),
    ("CREATE TABLE a (x);\n\nCREATE TABLE a (y);", 3, "table a already exists"),
    ("CREATE TABLE a (x);\nCREATE TABLE b (y REFERENCES);", 2, "syntax error"),
    ("CREATE TABLE a (x);\nCREATE TABLE b (y REFERENCES team(id));", 2, "no such table: main.team"),
    ("CREATE TABLE a (x);\nCREATE TABLE b (y REFERENCES a(x));", 2, "foreign key mismatch"),
    (
      "CREATE TABLE a (x);\nCREATE TRIGGER a_log AFTER UPDATE ON a BEGIN\n"
        + "  INSERT INTO audit (y) VALUES (new.x);\nEND;", 1, "no such table: main.audit"
    ),
    (
      "CREATE TABLE a (x);\nCREATE TABLE b (y);\nCREATE TRIGGER b_gone AFTER DELETE ON b BEGIN\n"
        + "  DELETE FROM a WHERE z = old.y;\nEND;", 2, "no such column: z"
    ),
  ])
  func aDesiredSchemaThatIsNotOnlyCreateStatementsIsRefused(
    sql: String,
    line: Int,
    reason: String
  )
    throws
  {
    #expect {
      try DesiredSchema(sql: sql, file: "desired.sql")
    } throws: { error in
      guard case .invalidDesiredSchema(let file, let at, let text) = error as? DiffError else {
        return false
      }
      return file == "desired.sql" && at == line && text.contains(reason)
    }
  }

  /// A file may name a parent before it creates it, as a dump in name order does.
  @Test func aForeignKeyToATableCreatedLaterInTheFileIsAccepted() throws {
    let desired = try DesiredSchema(
      sql: "CREATE TABLE child (parent_id INTEGER REFERENCES parent(id));\n"
        + "CREATE TABLE parent (id INTEGER PRIMARY KEY);",
      file: "desired.sql"
    )
    #expect(desired.schema.tables.map(\.name) == ["child", "parent"])
  }

  @Test(arguments: [
    ("a=b", SchemaRename(table: "a", to: "b")),
    ("person.name=full_name", SchemaRename(table: "person", column: "name", to: "full_name")),
    ("\"a.b\".\"c=d\"=e", SchemaRename(table: "a.b", column: "c=d", to: "e")),
  ])
  func renamesAreRead(text: String, rename: SchemaRename) throws {
    #expect(try SchemaRename(parsing: text) == rename)
    #expect(try SchemaRename(parsing: rename.description) == rename)
  }

  @Test(arguments: ["a", "a=", "=b", "a.b.c=d", "a=b.c"])
  func aRenameThatIsNotOneIsRefused(text: String) {
    #expect(throws: DiffError.self) { try SchemaRename(parsing: text) }
  }

  @Test func aRenameThatDoesNotApplySaysWhy() throws {
    #expect {
      try DiffFixtures.migration(
        from: Self.person,
        to: Self.person,
        options: SchemaDiffOptions(renames: [SchemaRename(table: "people", to: "person")])
      )
    } throws: { error in
      (error as? DiffError)?.message == "the rename people=person does not apply: there is no "
        + "table people now"
    }
  }

  /// A virtual table's rows live in its shadow tables: recreating it loses them.
  @Test func aVirtualTableWithAnotherModuleIsRecreatedOnlyWhenAllowed() throws {
    let current = "CREATE VIRTUAL TABLE note_text USING fts5(body);"
    let desired = "CREATE VIRTUAL TABLE note_text USING fts5(body, title);"
    #expect {
      try DiffFixtures.migration(from: current, to: desired)
    } throws: { error in
      guard case .destructive(let changes, _) = error as? DiffError else { return false }
      return changes == ["recreates virtual table note_text, whose rows are lost"]
    }
    let migration = try DiffFixtures.migration(
      from: current,
      to: desired,
      options: SchemaDiffOptions(allowsDestructive: true)
    )
    #expect(migration.changes == ["drop table note_text", "create table note_text"])
    let database = try DiffFixtures.database(current, rows: "INSERT INTO note_text VALUES ('x');")
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
  }

  @Test func aColumnThatBecomesNotNullTakesItsDefaultWhereItWasNull() throws {
    let current = "CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT);"
    let desired = "CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'unnamed');"
    let migration = try DiffFixtures.migration(from: current, to: desired)
    #expect(migration.up.contains("SELECT \"id\", coalesce(\"name\", 'unnamed') FROM \"pet\";"))
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO pet VALUES (1, NULL), (2, 'Rex');"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(
      try DiffFixtures.rows(database, "SELECT * FROM pet ORDER BY id") == [
        ["1", "unnamed"], ["2", "Rex"],
      ]
    )
  }

  /// Without a DEFAULT there is no value to give a NULL: the migration says so, and on a row
  /// that holds one it stops with every row as it was.
  @Test func aColumnThatBecomesNotNullWithoutADefaultWarnsAndStopsOnANull() throws {
    let current = "CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT);"
    let desired = "CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
    let migration = try DiffFixtures.migration(from: current, to: desired)
    #expect(migration.up.contains("-- A NULL in name stops this migration (nothing is changed)"))
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO pet VALUES (1, NULL), (2, 'Rex');"
    )
    #expect(throws: MigrationError.self) { try DiffFixtures.apply(migration, to: database) }
    #expect(
      try DiffFixtures.rows(database, "SELECT * FROM pet ORDER BY id") == [
        ["1", "NULL"], ["2", "Rex"],
      ]
    )
    #expect(try DiffFixtures.drift(database, from: current) == [])
  }

  @Test func aDesiredSchemaFileThatCannotBeReadSaysWhy() throws {
    let folder = try TemporaryDirectory()
    try folder.write("latin1.sql", "")
    try Data([0x2D, 0x2D, 0x20, 0xE9, 0x0A]).write(to: folder.path("latin1.sql"))
    try FileManager.default.createDirectory(
      at: folder.path("folder.sql"),
      withIntermediateDirectories: true
    )
    for (name, reason) in [
      ("missing.sql", "it does not exist"), ("folder.sql", "it is a folder"),
      ("latin1.sql", "it is not UTF-8 text"),
    ] {
      #expect {
        try DesiredSchema(contentsOf: folder.path(name), displayPath: name)
      } throws: { error in
        guard case .unreadableDesiredSchema(let file, let text) = error as? DiffError else {
          return false
        }
        return file == name && text.hasPrefix(reason)
      }
    }
  }

  @Test func aMigrationWithoutChangesIsNeverWritten() throws {
    let folder = try TemporaryDirectory()
    let empty = try DiffFixtures.migration(from: Self.person, to: Self.person)
    #expect(throws: DiffError.noChanges(desiredFile: "desired.sql")) {
      try MigrationSet.createMigrationFiles(
        in: folder.path("migrations"),
        name: "nothing",
        content: empty
      )
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("migrations").path))
  }

  /// The writer takes its content from `Diff/`, which refuses a migration without a change:
  /// an invalid name is still the error said first, as when the writer checked both.
  @Test func anInvalidNameIsSaidBeforeNoChanges() throws {
    let folder = try TemporaryDirectory()
    let empty = try DiffFixtures.migration(from: Self.person, to: Self.person)
    #expect(throws: MigrationError.invalidName(name: "no/slash")) {
      try MigrationSet.createMigrationFiles(
        in: folder.path("migrations"),
        name: "no/slash",
        content: empty
      )
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("migrations").path))
  }
}
