import Foundation
import Strata
import Testing

/// The migrator turns foreign keys off around its transactions (so a table rebuild's
/// `DROP TABLE` cannot cascade); whichever way a run ends, the connection gets them back on,
/// and a caller's transaction is left as it was.
@Suite struct MigratorConnectionStateTests {
  static let loose = """
    -- migrate:up transaction:false
    BEGIN;
    CREATE TABLE other (id INTEGER PRIMARY KEY);
    INSERT INTO nosuch VALUES (1);
    COMMIT;

    -- migrate:down transaction:false
    BEGIN;
    DROP TABLE parent;
    INSERT INTO nosuch VALUES (1);
    COMMIT;
    """

  /// Foreign keys enforced again: an orphan fails its own statement.
  func expectForeignKeysOn(_ db: Connection) throws {
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
    #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO child VALUES (1, 404)") }
  }

  @Test func aTransactionFalseMigrationThatFailsInsideItsOwnBeginLeavesForeignKeysOn() throws {
    let fixture = try MigrationFixture([
      "0001_schema.sql": """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id REFERENCES parent (id));
      """,
      "0002_loose.sql": Self.loose,
    ])
    let db = try fixture.open()
    #expect(throws: MigrationError.self) { try fixture.migrator().migrate(db) }
    #expect(db.isAutocommit, "the migration's own BEGIN must not stay open")
    try expectForeignKeysOn(db)
    #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'other'") == .integer(0))
  }

  @Test func aTransactionFalseRollbackThatFailsInsideItsOwnBeginLeavesForeignKeysOn() throws {
    let fixture = try MigrationFixture([
      "0001_schema.sql": """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id REFERENCES parent (id));
      """,
      "0002_loose.sql": Self.loose.replacingOccurrences(
        of: "INSERT INTO nosuch VALUES (1);\nCOMMIT;\n\n--",
        with: "COMMIT;\n\n--"
      ),
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    #expect(throws: MigrationError.self) { try fixture.migrator().rollback(db, .steps(1)) }
    #expect(db.isAutocommit)
    try expectForeignKeysOn(db)
    #expect(
      try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'parent'") == .integer(1)
    )
  }

  @Test func migrateInsideACallersTransactionLeavesTheTransactionAndItsRows() throws {
    let fixture = try MigrationFixture([
      "0001_schema.sql": """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id REFERENCES parent (id));
      """,
      "0002_more.sql": "CREATE TABLE more (id INTEGER PRIMARY KEY);",
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db, options: MigrateOptions(target: 1))
    try db.execute("BEGIN")
    try db.execute("INSERT INTO parent VALUES (1)")
    #expect(throws: (any Error).self) { try fixture.migrator().migrate(db) }
    #expect(!db.isAutocommit, "the caller's transaction must still be open")
    try expectForeignKeysOn(db)
    try db.execute("COMMIT")
    #expect(try db.scalar("SELECT count(*) FROM parent") == .integer(1))
  }
}
