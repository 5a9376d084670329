import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// The classic traps of a table rebuild, each applied by strata's runner to a database with
/// rows, then rolled back by the down part.
@Suite struct TableRebuildTests {
  /// Rails, Drizzle and EF Core rebuilds drop the parent with foreign keys on, and the cascade
  /// deletes every child row.
  @Test func aParentWithCascadingChildrenKeepsItsChildren() throws {
    let current = """
      CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE pet (id INTEGER PRIMARY KEY,
        owner_id INTEGER NOT NULL REFERENCES owner (id) ON DELETE CASCADE, name TEXT);
      CREATE INDEX pet_owner ON pet (owner_id);
      """
    let desired = current.replacingOccurrences(
      of: "name TEXT);\nCREATE TABLE pet",
      with: "name TEXT NOT NULL DEFAULT '');\nCREATE TABLE pet"
    )
    let migration = try DiffFixtures.migration(from: current, to: desired)
    #expect(migration.changes.count == 1)
    #expect(migration.changes[0].hasPrefix("rebuild table owner ("))
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO owner VALUES (1, 'Ann'), (2, 'Bo');"
        + "INSERT INTO pet VALUES (1, 1, 'Rex'), (2, 2, 'Tom');"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
    #expect(
      try DiffFixtures.rows(database, "SELECT * FROM pet ORDER BY id") == [
        ["1", "1", "Rex"], ["2", "2", "Tom"],
      ]
    )
    #expect(
      try DiffFixtures.rows(database, "SELECT * FROM owner ORDER BY id") == [
        ["1", "Ann"], ["2", "Bo"],
      ]
    )
    try DiffFixtures.rollBack(migration, in: database)
    #expect(try DiffFixtures.drift(database, from: current) == [])
    #expect(try DiffFixtures.rows(database, "SELECT count(*) FROM pet") == [["2"]])
  }

  /// A rebuild drops the table, and with it its triggers; a view over it stops `ALTER TABLE`.
  @Test func triggersAndViewsOfARebuiltTableComeBack() throws {
    let current = """
      CREATE TABLE item (id INTEGER PRIMARY KEY, price INTEGER, name TEXT);
      CREATE TABLE log (item_id INTEGER, what TEXT);
      CREATE TRIGGER item_logged AFTER UPDATE ON item BEGIN
        INSERT INTO log VALUES (new.id, 'updated');
      END;
      CREATE TRIGGER log_guard BEFORE DELETE ON log BEGIN
        SELECT RAISE(ABORT, 'no') WHERE EXISTS (SELECT 1 FROM item WHERE id = old.item_id);
      END;
      CREATE VIEW cheap AS SELECT name FROM item WHERE price < 10;
      CREATE VIEW cheap_names AS SELECT upper(name) AS loud FROM cheap;
      """
    // INTEGER to NUMERIC keeps every value (INTEGER to REAL would round large ones).
    let desired = current.replacingOccurrences(of: "price INTEGER", with: "price NUMERIC")
    let migration = try DiffFixtures.migration(from: current, to: desired)
    #expect(
      migration.changes == [
        "rebuild table item (column price: type INTEGER → NUMERIC)",
        "recreate view cheap", "recreate view cheap_names",
        "recreate trigger item_logged", "recreate trigger log_guard",
      ]
    )
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO item VALUES (1, 5, 'pen'), (2, 50, 'lamp');"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
    try database.execute("UPDATE item SET price = 6 WHERE id = 1")
    #expect(try DiffFixtures.rows(database, "SELECT * FROM log") == [["1", "updated"]])
    #expect(try DiffFixtures.rows(database, "SELECT loud FROM cheap_names") == [["PEN"]])
  }

  @Test func anAutoincrementCounterIsKept() throws {
    let current = "CREATE TABLE ticket (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT);"
    let desired =
      "CREATE TABLE ticket (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL DEFAULT '');"
    let migration = try DiffFixtures.migration(from: current, to: desired)
    let database = try DiffFixtures.database(
      current,
      rows:
        "INSERT INTO ticket (title) VALUES ('a'), ('b'), ('c'); DELETE FROM ticket WHERE id > 1;"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
    try database.execute("INSERT INTO ticket (title) VALUES ('d')")
    // Key 4, not 2: deleted keys are never reused.
    #expect(
      try DiffFixtures.rows(database, "SELECT id, title FROM ticket ORDER BY id") == [
        ["1", "a"], ["4", "d"],
      ]
    )
  }

  @Test func partialAndExpressionIndexesAreCreatedAgain() throws {
    let current = """
      CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT, active INTEGER);
      CREATE UNIQUE INDEX person_email ON person (lower(email)) WHERE active = 1;
      """
    let desired = """
      CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT NOT NULL DEFAULT '', active INTEGER);
      CREATE UNIQUE INDEX person_email ON person (lower(email)) WHERE active = 1;
      """
    let migration = try DiffFixtures.migration(from: current, to: desired)
    #expect(
      migration.up.contains(
        "CREATE UNIQUE INDEX person_email ON person (lower(email)) WHERE active = 1;"
      )
    )
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO person VALUES (1, 'A@x', 1);"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
    #expect(throws: SQLiteError.self) {
      try database.execute("INSERT INTO person VALUES (2, 'a@X', 1)")
    }
  }

  @Test func generatedColumnsAreLeftToBeComputed() throws {
    let current = """
      CREATE TABLE box (id INTEGER PRIMARY KEY, w REAL, h REAL,
        area REAL GENERATED ALWAYS AS (w * h) STORED);
      """
    let desired = """
      CREATE TABLE box (id INTEGER PRIMARY KEY, w REAL, h REAL, d REAL NOT NULL DEFAULT 1,
        area REAL GENERATED ALWAYS AS (w * h) STORED, volume REAL AS (w * h * d));
      """
    let migration = try DiffFixtures.migration(from: current, to: desired)
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO box (id, w, h) VALUES (1, 2, 3);"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
    #expect(try DiffFixtures.rows(database, "SELECT area, volume FROM box") == [["6.0", "6.0"]])
  }

  @Test func aWithoutRowidTableKeepsItsRows() throws {
    let current = "CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;"
    let desired = "CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB, at INTEGER) WITHOUT ROWID;"
    let migration = try DiffFixtures.migration(from: current, to: desired)
    #expect(migration.changes[0].hasPrefix("rebuild table kv"))
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO kv VALUES ('a', '1'), ('b', '2');"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
    #expect(
      try DiffFixtures.rows(database, "SELECT * FROM kv ORDER BY k") == [
        ["a", "1", "NULL"], ["b", "2", "NULL"],
      ]
    )
  }

  /// A rowid table without an INTEGER PRIMARY KEY keeps each row's rowid.
  @Test func implicitRowidsAreKept() throws {
    let current = "CREATE TABLE note (body TEXT);"
    let desired = "CREATE TABLE note (body TEXT NOT NULL DEFAULT '');"
    let migration = try DiffFixtures.migration(from: current, to: desired)
    let database = try DiffFixtures.database(
      current,
      rows: "INSERT INTO note (rowid, body) VALUES (7, 'x'), (42, 'y');"
    )
    try DiffFixtures.apply(migration, to: database)
    #expect(
      try DiffFixtures.rows(database, "SELECT rowid, body FROM note ORDER BY rowid") == [
        ["7", "x"], ["42", "y"],
      ]
    )
  }

  @Test func aStrictTableNarrowedIsDestructive() throws {
    let current = "CREATE TABLE reading (id INTEGER PRIMARY KEY, value ANY) STRICT;"
    let desired = "CREATE TABLE reading (id INTEGER PRIMARY KEY, value REAL) STRICT;"
    #expect {
      try DiffFixtures.migration(from: current, to: desired)
    } throws: { error in
      guard case .destructive(let changes, _) = error as? DiffError else { return false }
      return changes == [
        "narrows reading.value (ANY to STRICT REAL: values of another type are refused)"
      ]
    }
    let migration = try DiffFixtures.migration(
      from: current,
      to: desired,
      options: SchemaDiffOptions(allowsDestructive: true)
    )
    let database = try DiffFixtures.database(current, rows: "INSERT INTO reading VALUES (1, 2.5);")
    try DiffFixtures.apply(migration, to: database)
    #expect(try DiffFixtures.drift(database, from: desired) == [])
  }

  /// The line of a rebuild names every change it makes, the columns it adds, drops and renames
  /// too, and an untyped column as such.
  @Test func aRebuildsLineNamesTheColumnsItAddsAndAnUntypedType() throws {
    let migration = try DiffFixtures.migration(
      from: "CREATE TABLE t (id INTEGER PRIMARY KEY, s, old TEXT, gone TEXT);",
      to: "CREATE TABLE t (id INTEGER PRIMARY KEY, s BLOB NOT NULL DEFAULT x'', new TEXT, "
        + "extra INT);",
      options: SchemaDiffOptions(
        renames: [SchemaRename(table: "t", column: "old", to: "new")],
        allowsDestructive: true
      )
    )
    #expect(
      migration.changes == [
        "rebuild table t (column s: type untyped → BLOB, NOT NULL no → yes, DEFAULT none → x''; "
          + "renames column old to new; drops column gone; adds column extra)"
      ]
    )
  }
}
