import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Issue 10, item 15: a migration is blamed only for the foreign key violations it creates,
/// not for orphans the database already had (written while foreign keys were off).
@Suite struct ForeignKeyBaselineTests {
  static let schema = """
    CREATE TABLE team (id INTEGER PRIMARY KEY);
    CREATE TABLE person (id INTEGER PRIMARY KEY, team_id INTEGER REFERENCES team (id));
    INSERT INTO team VALUES (1);
    INSERT INTO person VALUES (1, 1);
    """

  /// Migrates 0001, then writes an orphan with foreign keys off, as an app might have.
  private static func databaseWithOrphan(_ fixture: MigrationFixture) throws -> Connection {
    let db = try fixture.open()
    try fixture.migrator().migrate(db, options: MigrateOptions(target: 1))
    try db.execute("PRAGMA foreign_keys = OFF")
    try db.execute("INSERT INTO person VALUES (7, 99)")
    try db.execute("PRAGMA foreign_keys = ON")
    return db
  }

  @Test(arguments: [false, true])
  func anUnrelatedMigrationSucceedsAndReportsTheOrphanAsPreexisting(single: Bool) throws {
    let fixture = try MigrationFixture([
      "0001_schema.sql": Self.schema,
      "0002_add_index.sql": "CREATE INDEX person_team ON person (team_id);",
    ])
    let db = try Self.databaseWithOrphan(fixture)
    let report = try fixture.migrator().migrate(
      db,
      options: MigrateOptions(singleTransaction: single)
    )
    #expect(report.toVersion == 2)
    #expect(report.foreignKeyViolationsKeptCount == 1)
    #expect(
      report.foreignKeyViolationsKept
        == [ForeignKeyViolation(table: "person", rowid: 7, parent: "team")]
    )
    #expect(try db.scalar("SELECT count(*) FROM person") == .integer(2))
  }

  @Test(arguments: [false, true])
  func aMigrationThatAddsAnOrphanIsBlamedForThatOneOnly(single: Bool) throws {
    let fixture = try MigrationFixture([
      "0001_schema.sql": Self.schema,
      "0002_add_index.sql": "CREATE INDEX person_team ON person (team_id);",
      "0003_orphan.sql": "DELETE FROM team WHERE id = 1;",
    ])
    let db = try Self.databaseWithOrphan(fixture)
    let error = #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(db, options: MigrateOptions(singleTransaction: single))
    }
    var inner = error
    if case .stopped(let wrapped, let state)? = error {
      #expect(single == state.completed.isEmpty)
      #expect(single || state.completed.map(\.version) == [2])
      inner = wrapped
    }
    guard
      case .foreignKeyViolation(let version, _, let violations, let preexisting, false)? = inner
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(version == 3 && preexisting == 1)
    #expect(violations == [ForeignKeyViolation(table: "person", rowid: 1, parent: "team")])
    #expect(error?.message.contains("1 new foreign key violation(s)") == true)
    #expect(error?.message.contains("besides 1 that the database already had") == true)
    #expect(try db.scalar("SELECT count(*) FROM team") == .integer(1))
    #expect(try History.currentVersion(db) == (single ? 1 : 2))
  }

  /// A database without orphans keeps the fast path: one check per migration, no rerun.
  @Test func aCleanDatabaseReportsNoKeptViolations() throws {
    let fixture = try MigrationFixture([
      "0001_schema.sql": Self.schema,
      "0002_add_index.sql": "CREATE INDEX person_team ON person (team_id);",
    ])
    let db = try fixture.open()
    let report = try fixture.migrator().migrate(db)
    #expect(report.toVersion == 2 && report.foreignKeyViolationsKeptCount == 0)
  }
}
